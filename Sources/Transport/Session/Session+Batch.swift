// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

/// How far a batch has come (AFNetworking's batch progress block).
public struct BatchProgress: Sendable, Hashable {
    /// Requests finished, successfully or not.
    public var completed: Int
    /// Requests in the batch.
    public var total: Int
}

extension Session {
    /// Sends `requests` concurrently and returns what came of each, in the order of `requests`,
    /// as ``result(for:)`` gives it; a failure stays with its own request (AFNetworking's batch of
    /// operations).
    ///
    /// - Parameters:
    ///   - maximumConcurrent: The most requests in flight at once.
    ///   - progress: Called after each request finishes.
    public func batch(
        _ requests: [SessionRequest], maximumConcurrent: Int = 16, progress: (@Sendable (BatchProgress) -> Void)? = nil
    ) async -> [Result<DataResponse, SatchelError>] {
        let completed = Mutex(0)
        let total = requests.count
        return await withTaskGroup(of: (Int, Result<DataResponse, SatchelError>).self) { group in
            var results = [Result<DataResponse, SatchelError>?](repeating: nil, count: total)
            var next = 0
            func addNext() {
                guard next < total else { return }
                let index = next
                let request = requests[index]
                group.addTask { (index, await self.result(for: request)) }
                next += 1
            }
            for _ in 0..<max(1, maximumConcurrent) { addNext() }
            for await (index, response) in group {
                results[index] = response
                let done = completed.withLock { count -> Int in
                    count += 1
                    return count
                }
                progress?(BatchProgress(completed: done, total: total))
                addNext()
            }
            return results.compactMap { $0 }
        }
    }
}
