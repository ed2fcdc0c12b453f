// SPDX-License-Identifier: Apache-2.0
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOFoundationCompat

/// swift-server/async-http-client (AHC), what a Swift server or tool on Linux uses for HTTP
/// instead of Satchel, the way its documentation shows: `execute`, then `body.collect(upTo:)` and
/// `JSONDecoder` for JSON; the body streamed into a file, then `fsync` and `rename` for a
/// download (Satchel's own guarantee); a file streamed up as `ByteBuffer`s for an upload.
///
/// One client for all runs (connections stay alive between runs, as Satchel's session keeps
/// them), with up to ``TransportBenchmarks/concurrency`` HTTP/1.1 connections to the server.
final class AsyncHTTPClientClient: TransportClient {
    private let server: URL
    private let client: HTTPClient

    /// The most a collected body may be: more than the 1 MB array.
    static let collectLimit = 16 << 20

    /// A client for `server` on the shared event loop group.
    init(server: URL) {
        self.server = server
        client = Self.makeHTTPClient()
    }

    /// An `HTTPClient` on the shared event loop group with up to
    /// ``TransportBenchmarks/concurrency`` connections kept 300 s, decompression off.
    static func makeHTTPClient() -> HTTPClient {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool = .init(
            idleTimeout: .seconds(300),
            concurrentHTTP1ConnectionsPerHostSoftLimit: TransportBenchmarks.concurrency)
        configuration.decompression = .disabled
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }

    deinit {
        try? client.syncShutdown()
    }

    private func url(_ name: String) -> String { server.appendingPathComponent(name).absoluteString }

    /// GETs `name` and collects its body; fails unless the status is 200.
    private func collect(_ name: String) async throws -> ByteBuffer {
        let response = try await client.execute(HTTPClientRequest(url: url(name)), timeout: .seconds(60))
        guard response.status == .ok else {
            throw BenchmarkFailure.guardFailed("AHC GET \(name): status \(response.status.code)")
        }
        return try await response.body.collect(upTo: Self.collectLimit)
    }

    func download(_ name: String, to path: String) throws -> Int {
        let client = self.client
        let url = self.url(name)
        return try waitFor {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(300))
            guard response.status == .ok else {
                throw BenchmarkFailure.guardFailed("AHC download: status \(response.status.code)")
            }
            // Streamed into a temporary file, synced, then renamed into place.
            let temporary = path + ".ahc-part"
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            guard descriptor >= 0 else {
                throw BenchmarkFailure.guardFailed("AHC download: cannot create \(temporary)")
            }
            var size = 0
            do {
                for try await chunk in response.body {
                    try chunk.withUnsafeReadableBytes { bytes in
                        var offset = 0
                        while offset < bytes.count {
                            let written = write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
                            guard written > 0 else { throw BenchmarkFailure.guardFailed("AHC download: write failed") }
                            offset += written
                        }
                    }
                    size += chunk.readableBytes
                }
                guard fsync(descriptor) == 0 else { throw BenchmarkFailure.guardFailed("AHC download: fsync failed") }
            } catch {
                close(descriptor)
                unlink(temporary)
                throw error
            }
            close(descriptor)
            guard rename(temporary, path) == 0 else {
                throw BenchmarkFailure.guardFailed("AHC download: rename failed")
            }
            guard size == TransportBenchmarks.bigSize else {
                throw BenchmarkFailure.guardFailed("AHC download: \(size) bytes")
            }
            return size
        }
    }

    func upload(file path: String, to name: String) throws -> Int {
        let client = self.client
        let url = self.url(name)
        return try waitFor {
            let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
            var request = HTTPClientRequest(url: url)
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: "application/octet-stream")
            request.body = .stream(FileChunks(path: path), length: .known(Int64(size)))
            let response = try await client.execute(request, timeout: .seconds(300))
            _ = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .noContent else {
                throw BenchmarkFailure.guardFailed("AHC upload: status \(response.status.code)")
            }
            return Int(response.status.code)
        }
    }

    func getRecords(_ name: String, count: Int, inFlight: Int) throws -> Int {
        let decoded = try waitFor { [self] in
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<inFlight {
                    let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
                    group.addTask {
                        for _ in 0..<share {
                            _ = try JSONDecoder().decode(APIRecord.self, from: try await self.collect(name))
                        }
                        return share
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        guard decoded == count else { throw BenchmarkFailure.guardFailed("AHC: \(decoded) of \(count) decoded") }
        return decoded
    }

    func getArray(_ name: String, count: Int) throws -> [APIRecord] {
        try waitFor { [self] in
            var records: [APIRecord] = []
            for _ in 0..<count { records = try JSONDecoder().decode([APIRecord].self, from: try await collect(name)) }
            return records
        }
    }

    func firstRecord(_ name: String) throws -> APIRecord {
        let body = try waitFor { [self] in try await collect(name) }
        return try JSONDecoder().decode(APIRecord.self, from: body)
    }
}

/// A file's bytes as `ByteBuffer`s of 1 MiB, read as they are asked for.
struct FileChunks: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let path: String

    struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FileHandle?
        mutating func next() async throws -> ByteBuffer? {
            guard let handle, let data = try handle.read(upToCount: 1 << 20), !data.isEmpty else { return nil }
            return ByteBuffer(data: data)
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(handle: FileHandle(forReadingAtPath: path)) }
}
