// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// The cache on disk: what the next cache over the same directory (another session, the next
/// process) finds, the modes, damaged and planted files, eviction of the least recently used.
///
/// An entry a test expects to find fresh lives a day (`max-age=86400`), not a minute: a loaded
/// run can hold a test between two of its requests for longer than a minute (CI runs suites
/// beside each other, and with `stress-ng --cpu 2`).
@Suite(.hangGuard)
struct CacheDirectoryTests {
    let servers: TestServers
    let directory = SessionSupport.temporaryPath("cache")

    init() throws {
        servers = try TestServers.shared()
    }

    private func session(_ cache: HTTPCache) throws -> Session {
        try SessionSupport.session(servers.fast) { $0.cache = cache }
    }

    private func get(_ session: Session, _ path: String) async throws -> DataResponse {
        try await session.result(for: SessionRequest(.get, path)).get()
    }

    private func entryFiles() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".entry") }
    }

    @Test func theNextCacheOverTheDirectoryServesWhatWasStored() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400&size=20000"
        let first = try await get(session(HTTPCache(memoryCapacity: 0, directory: directory)), path)
        #expect(first.metrics.cache == .stored)
        let later = try HTTPCache(memoryCapacity: 0, directory: directory)
        #expect(later.diskUsage > 20_000)
        let second = try await get(session(later), path)
        #expect(second.metrics.cache == .hit)
        #expect(second.body == first.body)

        let attributes = try FileManager.default.attributesOfItem(atPath: directory)
        #expect((attributes[.posixPermissions] as? Int) == 0o700)
        for file in try entryFiles() {
            let mode = try FileManager.default.attributesOfItem(atPath: directory + "/" + file)[.posixPermissions]
            #expect((mode as? Int) == 0o600)
        }
        later.removeAll()
        #expect(try entryFiles().isEmpty)
        #expect(try await get(session(later), path).metrics.cache == .stored)
    }

    /// A byte changed anywhere, or the file cut short: the entry is dropped, never served.
    @Test(arguments: ["body", "metadata", "cut", "empty"])
    func aDamagedEntryIsDroppedNotServed(damage: String) async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400&size=5000"
        _ = try await get(session(HTTPCache(memoryCapacity: 0, directory: directory)), path)
        let file = try directory + "/" + #require(entryFiles().first)
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        switch damage {
        case "body": bytes[100] ^= 0x20
        case "metadata": bytes[bytes.count - 60] ^= 0x01
        case "cut": bytes.removeLast(bytes.count / 3)
        default: bytes = []
        }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let response = try await get(session(HTTPCache(memoryCapacity: 0, directory: directory)), path)
        #expect(response.metrics.cache == .stored)  // from the origin again, and stored anew
        #expect(response.value?["hit"]?.int64Value == 2)
    }

    /// A symbolic link planted under an entry's name is not followed (nor served): the entry
    /// is a miss and the link is removed.
    @Test func aPlantedSymbolicLinkIsNotFollowed() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory)
        let path = "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400"
        _ = try await get(session(cache), path)
        let name = try #require(entryFiles().first)
        let outside = SessionSupport.temporaryPath("outside")
        defer { try? FileManager.default.removeItem(atPath: outside) }
        try FileManager.default.moveItem(atPath: directory + "/" + name, toPath: outside)
        try FileManager.default.createSymbolicLink(atPath: directory + "/" + name, withDestinationPath: outside)
        let response = try await get(session(HTTPCache(memoryCapacity: 0, directory: directory)), path)
        #expect(response.metrics.cache == .stored)
        #expect(FileManager.default.fileExists(atPath: outside))
        let replaced = try FileManager.default.attributesOfItem(atPath: directory + "/" + name)
        #expect(replaced[.type] as? FileAttributeType == .typeRegular)
    }

    /// Four 30 KB entries in a 100 KB directory: storing the fourth evicts the least recently
    /// used, which is the second once the first has been read again.
    @Test func aFullDirectoryEvictsTheLeastRecentlyUsed() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory, diskCapacity: 100_000)
        let session = try session(cache)
        let paths = (0..<4).map { _ in "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400&size=30000" }
        for path in paths.prefix(3) { #expect(try await get(session, path).metrics.cache == .stored) }
        #expect(try await get(session, paths[0]).metrics.cache == .hit)
        #expect(try await get(session, paths[3]).metrics.cache == .stored)
        #expect(try entryFiles().count == 3)
        #expect(cache.diskUsage <= 100_000)
        #expect(try await get(session, paths[0]).metrics.cache == .hit)
        #expect(try await get(session, paths[2]).metrics.cache == .hit)
        #expect(try await get(session, paths[1]).metrics.cache == .stored)
    }

    /// Two caches over one directory (as two processes would be), each with writers that
    /// replace the entry (reload) and readers that take whatever is stored (prefer-cache), all at
    /// once: every body served is a whole one (it parses, its key is right, its length is the
    /// padded length).
    @Test func twoCachesOverOneDirectoryNeverServeATornEntry() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = UUID().uuidString
        let path = "cache-origin?key=\(key)&cc=max-age=0&size=50000"
        let sessions = try (0..<2).map { _ in
            try session(HTTPCache(memoryCapacity: 0, directory: directory))
        }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for session in sessions {
                for worker in 0..<4 {
                    group.addTask {
                        for _ in 0..<8 {
                            var request = SessionRequest(.get, path)
                            request.cachePolicy = worker < 2 ? .reload : .preferCache
                            let response = try await session.result(for: request).get()
                            #expect(response.error == nil, "\(String(describing: response.error))")
                            #expect(response.value?["key"]?.stringValue == key)
                            #expect(response.body.count == 50_000)
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    /// Variants on disk: each its own entry file, found by the next cache over the directory;
    /// removing the URL makes none of them reachable again.
    @Test func variantsOnDiskAreFoundByTheNextCache() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let key = UUID().uuidString
        let path = "cache-origin?key=\(key)&cc=max-age=86400&vary=Accept-Language"
        let first = try session(HTTPCache(memoryCapacity: 0, directory: directory))
        for language in ["en", "fr"] {
            let response = try await first.result(for: SessionRequest(.get, path, headers: [.acceptLanguage: language]))
                .get()
            #expect(response.metrics.cache == .stored)
        }
        #expect(try entryFiles().count == 2)
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".vary") }.count == 1)
        let later = try session(HTTPCache(memoryCapacity: 0, directory: directory))
        for language in ["fr", "en"] {
            let response = try await later.result(for: SessionRequest(.get, path, headers: [.acceptLanguage: language]))
                .get()
            #expect(response.metrics.cache == .hit)
            #expect(response.value?["varied"]?.stringValue == language)
        }
        // Removing the URL (from a third cache over the directory) removes every variant.
        let base = servers.fast.absoluteString.trimmingCharacters(in: ["/"])
        try HTTPCache(memoryCapacity: 0, directory: directory).removeResponse(for: base + "/" + path)
        let after = try await later.result(for: SessionRequest(.get, path, headers: [.acceptLanguage: "fr"])).get()
        #expect(after.metrics.cache == .stored)
        #expect(after.value?["hit"]?.int64Value == 3)
    }

    /// Memory and a directory: hits come from memory (the entry file deleted behind the cache's
    /// back does not matter to it), and a cache made later over the directory finds the file.
    @Test func memoryInFrontOfADirectory() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try HTTPCache(memoryCapacity: 1 << 20, directory: directory)
        let path = "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400&size=2000"
        #expect(try await get(session(cache), path).metrics.cache == .stored)
        #expect(cache.memoryUsage >= 2_000)
        #expect(try await get(session(HTTPCache(memoryCapacity: 0, directory: directory)), path).metrics.cache == .hit)
        for file in try entryFiles() { try FileManager.default.removeItem(atPath: directory + "/" + file) }
        #expect(try await get(session(cache), path).metrics.cache == .hit)
    }

    /// Memory alone, 10 KB: three 4 KB bodies do not fit; the least recently used goes first.
    @Test func memoryEvictsTheLeastRecentlyUsed() async throws {
        let cache = try HTTPCache(memoryCapacity: 10_000)
        let session = try session(cache)
        let paths = (0..<3).map { _ in "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400&size=4000" }
        for path in paths.prefix(2) { #expect(try await get(session, path).metrics.cache == .stored) }
        #expect(try await get(session, paths[0]).metrics.cache == .hit)
        #expect(try await get(session, paths[2]).metrics.cache == .stored)
        #expect(cache.memoryUsage <= 10_000)
        #expect(try await get(session, paths[0]).metrics.cache == .hit)
        #expect(try await get(session, paths[1]).metrics.cache == .stored)
    }

    @Test func badArgumentsAreRefused() throws {
        #expect(throws: SatchelError.self) { try HTTPCache(memoryCapacity: -1) }
        #expect(throws: SatchelError.self) { try HTTPCache(directory: "") }
        let file = SessionSupport.temporaryPath("file")
        try #require(FileManager.default.createFile(atPath: file, contents: Data()))
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect { try HTTPCache(directory: file) } throws: { ($0 as? SatchelError)?.code == .io }
        // A folder to make under a file: mkdir fails with ENOTDIR, named in the message.
        #expect {
            try HTTPCache(directory: file + "/cache")
        } throws: {
            let error = $0 as? SatchelError
            return error?.code == .io
                && error?.message == "cannot make the cache directory \(file)/cache: Not a directory"
        }
    }
}
