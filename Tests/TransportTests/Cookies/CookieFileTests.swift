// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Synchronization
import Testing

@testable import Transport

/// `CookieStore(.file(path))`: cookies written after every response that set one, read by the next
/// session, written whole or not at all.
@Suite(.hangGuard)
struct CookieFileTests {
    final class Warnings: EventMonitor {
        let seen = Mutex<[String]>([])
        func sessionDidWarn(_ warning: SatchelError) { seen.withLock { $0.append(warning.message) } }
    }

    let httpbin: URL
    let directory: URL

    init() throws {
        httpbin = try TestServers.shared().httpbin
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("cookies-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    func session(_ path: String, monitor: Warnings? = nil) throws -> Session {
        try SessionSupport.session(httpbin) {
            $0.cookieStore = CookieStore(.file(path))
            if let monitor { $0.eventMonitors = [monitor] }
        }
    }

    @Test func aSecondSessionReadsTheCookiesTheFirstKept() async throws {
        let path = directory.appendingPathComponent("jar.txt").path
        let first = try session(path)
        _ = try await first.get("cookies/set?flavour=oat")
        // The file is written off the request's task; shutting down waits for it.
        await first.shutdown()
        #expect(await first.result(for: SessionRequest(.get, "cookies")).error?.code == .cancelled)
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("# Netscape HTTP Cookie File"))
        #expect(text.contains("\tflavour\toat"))
        // Only the jar: no temporary file left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["jar.txt"])

        // Another process reads it: Python's MozillaCookieJar (a session cookie's expiry is 0, as
        // curl writes it, which Python reads as expired unless told not to).
        let python = try VenvPython.run(
            "import http.cookiejar,sys; j=http.cookiejar.MozillaCookieJar(sys.argv[1]); j.load(ignore_discard=True, ignore_expires=True); print([(c.name, c.value) for c in j])",
            [path])
        #expect(python.output.contains("('flavour', 'oat')"), "\(python.output)")

        let next = try session(path)
        #expect(try await next.get("cookies").value?["cookies"] == ["flavour": "oat"])
        try next.cookieStore.setCookie(Cookie(name: "extra", value: "1", domain: "127.0.0.1"))
        #expect(try String(contentsOfFile: path, encoding: .utf8).contains("\textra\t1"))
        try next.cookieStore.removeAllCookies()
        #expect(!(try String(contentsOfFile: path, encoding: .utf8).contains("flavour")))
    }

    @Test func expiredCookiesAndBadLinesAreDroppedWithAWarning() async throws {
        let path = directory.appendingPathComponent("old.txt").path
        let lines = [
            "# Netscape HTTP Cookie File", "127.0.0.1\tFALSE\t/\tFALSE\t0\tsession\tyes",
            "127.0.0.1\tFALSE\t/\tFALSE\t1000000\texpired\tno",
            "#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t4102444800\tlong\tyes",
            "not a cookie line", "\u{FF}\u{00}garbage\tTRUE",
        ]
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let warnings = Warnings()
        let loaded = try session(path, monitor: warnings)
        let names = loaded.cookieStore.cookies().map(\.name).sorted()
        #expect(names == ["long", "session"])
        #expect(loaded.cookieStore.cookies().first { $0.name == "long" }?.isHTTPOnly == true)
        #expect(warnings.seen.withLock { $0 }.contains { $0.contains("2 line(s) are not cookies") })
    }

    /// A line longer than any buffer is one bad line: its tail, a well-formed cookie line, is
    /// not loaded on its own.
    @Test func aHugeLineIsOneSkippedLine() async throws {
        let path = directory.appendingPathComponent("huge.txt").path
        let tail = "127.0.0.1\tFALSE\t/\tFALSE\t0\tsmuggled\tyes"
        // 98 298 bytes of junk and a tab: a reader of 16 383-byte pieces would see the tail alone.
        let junk = String(repeating: "x", count: 16_383 * 6 - 1) + "\t"
        let text = junk + tail + "\n127.0.0.1\tFALSE\t/\tFALSE\t0\tfine\tyes\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let warnings = Warnings()
        let loaded = try session(path, monitor: warnings)
        #expect(loaded.cookieStore.cookies().map(\.name) == ["fine"])
        #expect(warnings.seen.withLock { $0 }.contains { $0.contains("1 line(s) are not cookies") })
    }

    /// A jar that cannot be read (a directory in its place) or written is a warning, not a failure.
    @Test func anUnusableJarIsAWarning() async throws {
        let path = directory.appendingPathComponent("in-the-way").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let warnings = Warnings()
        let session = try session(path, monitor: warnings)
        let response = try await session.get("cookies/set?a=1")
        #expect(response.value?["cookies"] == ["a": "1"])
        await session.cookieStore.flushed()  // the write's warning comes from the store's queue
        #expect(warnings.seen.withLock { $0 }.contains { $0.contains("cannot") })

        // A jar in a folder that does not exist: its temporary file cannot be made.
        let missing = directory.appendingPathComponent("no-such-folder/jar").path
        let unwritable = Warnings()
        let second = try self.session(missing, monitor: unwritable)
        #expect(try await second.get("cookies/set?b=2").value?["cookies"] == ["b": "2"])
        await second.shutdown()
        #expect(unwritable.seen.withLock { $0 }.contains { $0.hasPrefix("cannot write the cookie file \(missing): ") })
        #expect(!FileManager.default.fileExists(atPath: missing))
    }
}
