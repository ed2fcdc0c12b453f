// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// Satchel's `Session`, one for all runs of the contender (connections stay alive between runs,
/// as they do for the C loop's multi handle and for `URLSession`).
final class SatchelClient: TransportClient {
    private let session: Session

    /// A session with `server` as its base URL.
    init(server: URL, durability: DownloadDurability = .synced) throws {
        var configuration = SessionConfiguration()
        configuration.downloadDurability = durability
        session = try Session(baseURL: server.absoluteString, configuration: configuration)
    }

    func download(_ name: String, to path: String) throws -> Int {
        let session = self.session
        try? FileManager.default.removeItem(atPath: path)
        let status = try waitFor {
            try await session.download(name, to: path, resume: false).response.status.code
        }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        guard status == 200, size == TransportBenchmarks.bigSize else {
            throw BenchmarkFailure.guardFailed("Satchel download: status \(status), \(size) bytes")
        }
        return size
    }

    func upload(file path: String, to name: String) throws -> Int {
        let session = self.session
        let (status, sent) = try waitFor {
            let result = try await session.upload(
                .file(path: path, contentType: .octetStream), to: name, method: .put)
            return (result.response.status.code, result.metrics.bytesSent)
        }
        // bytesSent counts the head too.
        guard status == 204, sent >= Int64(TransportBenchmarks.bigSize) else {
            throw BenchmarkFailure.guardFailed("Satchel upload: status \(status), \(sent) bytes sent")
        }
        return status
    }

    /// `session.get(name).decode(APIRecord.self)`.
    func getRecords(_ name: String, count: Int, inFlight: Int) throws -> Int {
        let session = self.session
        let decoded = try waitFor {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<inFlight {
                    // The first `count % inFlight` workers take one request more.
                    let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
                    group.addTask {
                        var decoded = 0
                        for _ in 0..<share {
                            _ = try await session.get(name).decode(APIRecord.self)
                            decoded += 1
                        }
                        return decoded
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        guard decoded == count else {
            throw BenchmarkFailure.guardFailed("Satchel: \(decoded) of \(count) bodies decoded")
        }
        return decoded
    }

    /// `session.get(name).decode([APIRecord].self)`: the body read straight into the models.
    func getArray(_ name: String, count: Int) throws -> [APIRecord] {
        let session = self.session
        return try waitFor {
            var records: [APIRecord] = []
            for _ in 0..<count { records = try await session.get(name).decode([APIRecord].self) }
            return records
        }
    }

    /// The same bytes fetched by the same session, decoded by `JSONDecoder` (what a user could
    /// do instead of ``getArray(_:count:)``).
    func getArrayThenJSONDecoder(_ name: String, count: Int) throws -> [APIRecord] {
        let session = self.session
        return try waitFor {
            var records: [APIRecord] = []
            for _ in 0..<count {
                let body = try await session.get(name).body
                records = try JSONDecoder().decode([APIRecord].self, from: Data(body))
            }
            return records
        }
    }

    func firstRecord(_ name: String) throws -> APIRecord {
        let session = self.session
        return try waitFor { try await session.get(name).decode(APIRecord.self) }
    }
}
