// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Synchronization
import Transport

// Sending a request on a session, blocking or with a completion callback (include/satchel.h,
// "Transport").

@c @implementation
public func satchel_session_send(
    _ outResponse: UnsafeMutablePointer<OpaquePointer?>?, _ session: OpaquePointer?, _ request: OpaquePointer?
) -> satchel_status {
    outResponse?.pointee = nil
    var result: TaskHandle.Outcome?
    let started = guarded {
        let out = try Arguments.required(outResponse, "out_response")
        let sessionHandle = try SessionHandle.from(session)
        let requestHandle = try RequestHandle.from(request)
        let box = Mutex<TaskHandle.Outcome?>(nil)
        let task = try TaskHandle.start(session: sessionHandle.session(), request: requestHandle, isResumable: false) {
            outcome in
            box.withLock { $0 = outcome }
        }
        sessionHandle.track(task)
        task.wait()
        sessionHandle.forget(task)
        result = box.withLock { $0 }
        out.pointee = result.flatMap(ResponseHandle.retainedPointer(for:))
    }
    guard started == SATCHEL_OK, let result else { return started }
    return ResponseHandle.status(of: result)
}

@c @implementation
public func satchel_session_send_async(
    _ outTask: UnsafeMutablePointer<OpaquePointer?>?, _ session: OpaquePointer?, _ request: OpaquePointer?,
    _ completion: satchel_completion_callback?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    outTask?.pointee = nil
    return guarded {
        let sessionHandle = try SessionHandle.from(session)
        let requestHandle = try RequestHandle.from(request)
        let callback = CompletionCallback(
            function: try Arguments.required(completion, "completion"), userdata: userdata)
        let taskBox = Mutex<TaskHandle?>(nil)
        let task = try TaskHandle.start(session: sessionHandle.session(), request: requestHandle, isResumable: true) {
            outcome in
            callback.call(with: outcome)
            if let task = taskBox.withLock({ $0 }) { sessionHandle.forget(task) }
        }
        taskBox.withLock { $0 = task }
        sessionHandle.track(task)
        outTask?.pointee = task.retainedPointer
    }
}

/// A C completion callback and its userdata.
struct CompletionCallback: @unchecked Sendable {
    // Safe to send: the header makes the caller keep `userdata` valid, and callable from a
    // library thread, until the completion has run.
    let function: satchel_completion_callback
    let userdata: UnsafeMutableRawPointer?

    func call(with outcome: TaskHandle.Outcome) {
        let status = ResponseHandle.status(of: outcome)
        let message = outcome.error.map { CBuffer($0.cDescription) }
        withExtendedLifetime(message) {
            function(
                userdata, status, message?.cString ?? StaticCString.empty, ResponseHandle.retainedPointer(for: outcome)
            )
        }
    }
}
