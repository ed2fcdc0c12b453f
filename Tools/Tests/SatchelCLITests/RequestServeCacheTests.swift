// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import Testing

/// README's `satchel request GET :8080/cache/60 --cache DIR -v`, run twice against a
/// `satchel serve` process (both the built binary): the first run stores the response, the
/// second is answered from DIR; `/etag/E` and `/cache` are revalidated with a 304.
@Suite(.hangGuard)
struct RequestServeCacheTests {
    let server: ServeProcess

    init() throws {
        server = try ServeProcess()
    }

    @Test func aSecondRunIsAnsweredFromTheCacheOrRevalidated() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "serve-cache-\(UUID().uuidString)"
        )
        .path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // `:PORT/…` as in the README: localhost on that port.
        let port = try #require(server.url.split(separator: ":").last)
        for (path, second) in [("cache/60", "hit"), ("etag/v1", "revalidated"), ("cache", "revalidated")] {
            let arguments = ["request", "GET", ":\(port)/\(path)", "--cache", directory, "-v", "--color", "never"]
            let first = try CommandRunner.run(arguments)
            #expect(first.status == 0, "\(path): \(first.errorOutput)")
            #expect(first.errorOutput.contains("cache: stored\n"), "\(path): \(first.errorOutput)")
            let again = try CommandRunner.run(arguments)
            #expect(again.status == 0, "\(path): \(again.errorOutput)")
            #expect(again.errorOutput.contains("cache: \(second)\n"), "\(path): \(again.errorOutput)")
            #expect(again.output.contains("\"name\": \"Satchel\""), "\(path): \(again.output)")
        }
    }
}
