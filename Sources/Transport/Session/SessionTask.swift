// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A request in flight that can be cancelled explicitly (Alamofire's `DataRequest`).
///
/// The request starts when the task is made. ``cancel()`` ends the running transfer with
/// ``SatchelError/Code/cancelled``; cancelling a task that awaits ``response`` or ``result`` does
/// the same.
public final class SessionTask: Sendable {
    private let cancellation: TransferCancellation
    private let task: Task<Result<DataResponse, SatchelError>, Never>

    init(session: Session, request: SessionRequest) {
        let cancellation = TransferCancellation(engine: session.engine)
        self.cancellation = cancellation
        task = Task { await session.result(for: request, cancellation: cancellation) }
    }

    /// What came of the request once it is done, as ``Session/result(for:)`` gives it.
    public var result: Result<DataResponse, SatchelError> {
        get async {
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                cancel()
            }
        }
    }

    /// The response once the request is done, validated as ``Session/send(_:)`` validates it.
    /// - Throws: ``SatchelError``, as ``Session/send(_:)`` does.
    public var response: DataResponse {
        get async throws(SatchelError) {
            let response = try await result.get()
            if let failure = response.failure { throw failure }
            return response
        }
    }

    /// Cancels the request: the running transfer ends with ``SatchelError/Code/cancelled`` and no
    /// redirect or retry follows.
    public func cancel() {
        cancellation.cancel(SatchelError(.cancelled, "the request was cancelled"))
    }
}
