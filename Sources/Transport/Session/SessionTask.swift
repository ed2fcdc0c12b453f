// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A request in flight that can be cancelled explicitly (Alamofire's `DataRequest`).
///
/// The request starts when the task is made. ``cancel()`` ends the running transfer with
/// ``SatchelError/Code/cancelled``; cancelling a task that awaits ``response`` does the same.
public final class SessionTask: Sendable {
    private let cancellation: TransferCancellation
    private let task: Task<DataResponse, Never>

    init(session: Session, request: SessionRequest) {
        let cancellation = TransferCancellation(engine: session.engine)
        self.cancellation = cancellation
        task = Task { await session.response(for: request, cancellation: cancellation) }
    }

    /// The response, once the request is done (failures in ``DataResponse/error``).
    public var response: DataResponse {
        get async {
            await withTaskCancellationHandler {
                await task.value
            } onCancel: {
                cancel()
            }
        }
    }

    /// Cancels the request: the running transfer ends with ``SatchelError/Code/cancelled`` and no
    /// redirect or retry follows.
    public func cancel() {
        cancellation.cancel(SatchelError(.cancelled, "the request was cancelled"))
    }
}
