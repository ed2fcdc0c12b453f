// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Synchronization

/// A client that can run every transport measurement: Satchel's `Session`, async-http-client
/// and `URLSession`.
/// Each method is one timed run and fails unless the server answered as expected.
protocol TransportClient: AnyObject, Sendable {
    /// Downloads `name` to the file at `path`; returns the bytes received.
    func download(_ name: String, to path: String) throws -> Int
    /// PUTs the file at `path` to `name`; returns the response status (204 expected).
    func upload(file path: String, to name: String) throws -> Int
    /// GETs `name` (one ``APIRecord``) `count` times with at most `inFlight` requests at once
    /// and decodes each body into an ``APIRecord`` the way this client's users would; returns
    /// how many decoded.
    func getRecords(_ name: String, count: Int, inFlight: Int) throws -> Int
    /// GETs `name` once and returns the ``APIRecord`` decoded from it (the guard before timing).
    func firstRecord(_ name: String) throws -> APIRecord
    /// GETs `name`, a JSON array of ``APIRecord``s, `count` times one after another and decodes
    /// each into `[APIRecord]` the way this client's users would; returns the last array.
    func getArray(_ name: String, count: Int) throws -> [APIRecord]
}

/// Runs `work` as a task and blocks the calling (non-executor) thread until it finishes, so that
/// async clients fit ``Sampler``'s synchronous work items.
func waitFor<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) throws -> T {
    let outcome = Outcome<T>()
    let done = DispatchSemaphore(value: 0)
    Task {
        do {
            outcome.set(.success(try await work()))
        } catch {
            outcome.set(.failure(error))
        }
        done.signal()
    }
    done.wait()
    return try outcome.get()
}

/// A result handed from one thread to another.
final class Outcome<T: Sendable>: Sendable {
    private let value = Mutex<Result<T, any Error>?>(nil)

    /// Stores the result.
    func set(_ result: Result<T, any Error>) {
        value.withLock { $0 = result }
    }

    /// The stored result; fails if none was stored.
    func get() throws -> T {
        guard let result = value.withLock({ $0 }) else {
            throw BenchmarkFailure.guardFailed("a transfer finished without a result")
        }
        return try result.get()
    }
}
