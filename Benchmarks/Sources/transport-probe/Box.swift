// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// The count handed from the task back to the main thread.
final class Box: Sendable {
    private let value = Mutex(0)

    func set(_ count: Int) { value.withLock { $0 = count } }

    func get() -> Int { value.withLock { $0 } }
}
