// SPDX-License-Identifier: Apache-2.0
import CSatchel

/// A plugin's `userdata` and `destroy` callback: destroy runs once, when the last serializer
/// holding it goes away (with the registry).
final class PluginUserdata: @unchecked Sendable {
    // Safe to share: the pointer is only passed back to the plugin's callbacks, which the
    // header says may be called from several threads at once.

    /// The plugin's pointer, passed back to its callbacks.
    let pointer: UnsafeMutableRawPointer?
    private let destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?

    init(_ pointer: UnsafeMutableRawPointer?, destroy: (@convention(c) (UnsafeMutableRawPointer?) -> Void)?) {
        self.pointer = pointer
        self.destroy = destroy
    }

    deinit { destroy?(pointer) }
}
