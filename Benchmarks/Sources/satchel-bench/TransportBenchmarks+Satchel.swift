import Foundation
import Satchel

// Satchel's contender, written against the planned `Session` API of issue 6. Until Transport's
// `Session` exists it is compiled only with SATCHEL_SESSION_API defined (see
// Benchmarks/Package.swift); without it the transport group measures the peers alone.
#if SATCHEL_SESSION_API

extension TransportBenchmarks {
    /// Satchel's client for `server`.
    static func makeSatchelClient(server: URL) throws -> (any TransportClient)? {
        try SatchelClient(server: server)
    }
}

/// Satchel's `Session`, one for all runs of the contender (connections stay alive between runs,
/// as they do for the C loop's multi handle and for `URLSession`).
final class SatchelClient: TransportClient {
    private let session: Session

    /// A session with `server` as its base URL.
    init(server: URL) throws {
        session = try Session(baseURL: server.absoluteString)
    }

    func download(_ name: String, to path: String) throws -> Int {
        let session = self.session
        try? FileManager.default.removeItem(atPath: path)
        let status = try waitFor { try await session.download(name, to: path).response.status.code }
        let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
        guard status == 200, size == TransportBenchmarks.bigSize else {
            throw BenchmarkFailure.guardFailed("Satchel download: status \(status), \(size) bytes")
        }
        return size
    }

    func upload(file path: String, to name: String) throws -> Int {
        let session = self.session
        let status = try waitFor {
            try await session.upload(.file(path: path, contentType: "application/octet-stream"), to: name, method: .put)
                .response.status.code
        }
        guard status == 204 else { throw BenchmarkFailure.guardFailed("Satchel upload: status \(status)") }
        return status
    }

    func getJSON(_ name: String, count: Int, inFlight: Int) throws -> Int {
        let session = self.session
        let decoded = try waitFor {
            try await withThrowingTaskGroup(of: Int.self) { group in
                for worker in 0..<inFlight {
                    // The first `count % inFlight` workers take one request more.
                    let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
                    group.addTask {
                        var decoded = 0
                        for _ in 0..<share {
                            let result = try await session.get(name)
                            if result.response.status.code == 200, case .object? = result.value { decoded += 1 }
                        }
                        return decoded
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        guard decoded == count else { throw BenchmarkFailure.guardFailed("Satchel: \(decoded) of \(count) bodies decoded") }
        return decoded
    }

    func firstShape(_ name: String) throws -> TreeShape {
        let session = self.session
        guard let value = try waitFor({ try await session.get(name).value }) else {
            throw BenchmarkFailure.guardFailed("Satchel's GET \(name) decoded nothing")
        }
        return TreeShape(value)
    }
}

#else

extension TransportBenchmarks {
    /// No Satchel client: this build has no `Session` (define SATCHEL_SESSION_API once it does).
    static func makeSatchelClient(server: URL) throws -> (any TransportClient)? {
        nil
    }
}

#endif
