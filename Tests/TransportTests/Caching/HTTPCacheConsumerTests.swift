// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// A stored response reaches every kind of consumer as a network one does: a streamed body
/// (with its backpressure), a download to a file, a typed decode; and a revalidated one too.
///
/// An entry a test expects to find fresh lives a day (`max-age=86400`), not a minute: a loaded
/// run can hold a test between two of its requests for longer than a minute (CI runs suites
/// beside each other, and with `stress-ng --cpu 2`).
@Suite(.hangGuard)
struct HTTPCacheConsumerTests {
    let servers: TestServers
    let directory = SessionSupport.temporaryPath("cache")

    init() throws {
        servers = try TestServers.shared()
    }

    private func hits(_ key: String) async throws -> Int64 {
        let counter = try SessionSupport.session(servers.fast)
        return try await counter.get("cache-origin-count", parameters: ["key": .string(key)]).value?["hits"]?
            .int64Value ?? -1
    }

    /// 3 MiB of `/large` (fresh by its Last-Modified of 2015) streamed twice from a disk cache,
    /// the second time from the cache, read slowly enough that the replay pauses (past 1 MiB
    /// unread); byte for byte.
    @Test func aStreamedBodyIsServedFromTheCacheWithBackpressure() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let size = 3 << 20
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory)
        let monitor = RecordingMonitor()
        let session = try SessionSupport.session(servers.fast) {
            $0.cache = cache
            $0.eventMonitors = [monitor]
        }
        let path = "large/\(size)?etag=stream-\(UUID().uuidString)"
        func read(slowly: Bool) async throws -> [UInt8] {
            var bytes: [UInt8] = []
            var chunks = 0
            for try await chunk in try await session.bytes(path) {
                bytes += chunk
                chunks += 1
                if slowly && chunks % 8 == 0 { try await Task.sleep(for: .milliseconds(5)) }
            }
            return bytes
        }
        let expected = SessionSupport.largeBytes(0..<size)
        #expect(try await read(slowly: false) == expected)
        #expect(cache.diskUsage > Int64(size))
        let served = try await read(slowly: true)
        #expect(served.count == size)
        #expect(served == expected)
        // Event monitors see where each came from.
        let outcomes = monitor.events.withLock { $0.filter { $0.hasPrefix("metrics") } }
        #expect(outcomes == ["metrics cache stored", "metrics cache hit"])
    }

    @Test func aDownloadIsServedFromTheCache() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory)
        let session = try SessionSupport.session(servers.fast) { $0.cache = cache }
        let key = UUID().uuidString
        let path = "cache-origin?key=\(key)&cc=max-age=86400&size=300000"
        let first = SessionSupport.temporaryPath("first")
        let second = SessionSupport.temporaryPath("second")
        defer { for file in [first, second] { try? FileManager.default.removeItem(atPath: file) } }
        #expect(try await session.download(path, to: first).metrics.cache == .stored)
        let again = try await session.download(path, to: second)
        #expect(again.metrics.cache == .hit)
        #expect(again.fileSize >= 300_000)
        #expect(FileManager.default.contents(atPath: first) == FileManager.default.contents(atPath: second))
        #expect(try await hits(key) == 1)
    }

    /// A 304 serves the stored body to a stream too, and its consumer never sees the 304.
    @Test func aRevalidatedResponseIsStreamed() async throws {
        let cache = try HTTPCache()
        let session = try SessionSupport.session(servers.fast) { $0.cache = cache }
        let key = UUID().uuidString
        let path = "cache-origin?key=\(key)&cc=no-cache&etag=s&size=2000"
        let first = try await session.get(path)
        let stream = try await session.bytes(path)
        #expect(stream.response.status.code == 200)
        var bytes: [UInt8] = []
        for try await chunk in stream { bytes += chunk }
        #expect(bytes == first.body)
        #expect(try await hits(key) == 2)
    }

    struct Origin: Decodable, Equatable {
        var key: String
        var hit: Int
    }

    @Test func aTypedDecodeIsTheSameFromTheCache() async throws {
        let cache = try HTTPCache()
        let session = try SessionSupport.session(servers.fast) { $0.cache = cache }
        let path = "cache-origin?key=\(UUID().uuidString)&cc=max-age=86400"
        let network = try await session.get(path).decode(Origin.self)
        let cached = try await session.get(path)
        #expect(cached.metrics.cache == .hit)
        #expect(try cached.decode(Origin.self) == network)
    }

    /// Cancelling a request served from the cache stops the replay with `cancelled`.
    @Test func cancellingAStreamFromTheCacheStopsIt() async throws {
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let cache = try HTTPCache(memoryCapacity: 0, directory: directory)
        let session = try SessionSupport.session(servers.fast) { $0.cache = cache }
        let path = "large/\(6 << 20)?etag=cancel-\(UUID().uuidString)"
        for try await _ in try await session.bytes(path) {}
        let stream = try await session.bytes(path)
        var received = 0
        var failure: (any Error)?
        do {
            for try await chunk in stream {
                received += chunk.count
                if received >= 1 << 20 { stream.cancel() }
            }
        } catch {
            failure = error
        }
        #expect((failure as? SatchelError)?.code == .cancelled, "\(String(describing: failure))")
        #expect(received < 6 << 20)
    }
}
