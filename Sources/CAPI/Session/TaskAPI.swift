// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

// Tasks: the requests satchel_session_send_async started (include/satchel.h, "Transport").

@c @implementation
public func satchel_task_cancel(_ task: OpaquePointer?) -> satchel_status {
    guarded { try TaskHandle.from(task).cancel() }
}

@c @implementation
public func satchel_task_resume(_ task: OpaquePointer?) -> satchel_status {
    guarded { try TaskHandle.from(task).resume() }
}

@c @implementation
public func satchel_task_wait(_ task: OpaquePointer?) -> satchel_status {
    guarded { try TaskHandle.from(task).wait() }
}

@c @implementation
public func satchel_task_free(_ task: OpaquePointer?) {
    TaskHandle.release(task)
}
