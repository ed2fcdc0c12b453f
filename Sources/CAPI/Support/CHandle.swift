// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// An object C holds as an opaque pointer (`satchel_registry *`, `satchel_session *`, …): handed
/// out retained, looked up unretained, released by the `_free` function.
protocol CHandle: AnyObject {
    /// The parameter name used in the error for a NULL pointer.
    static var parameterName: String { get }
}

extension CHandle {
    /// The handle behind a pointer C passed in; `SATCHEL_E_INVALID_ARGUMENT` for NULL.
    static func from(_ pointer: OpaquePointer?) throws(SatchelError) -> Self {
        let pointer = try Arguments.required(pointer, parameterName)
        return Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// This handle as a pointer the caller owns (one retain, given up by ``release(_:)``).
    var retainedPointer: OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(self).toOpaque())
    }

    /// Gives up the caller's reference; NULL does nothing.
    static func release(_ pointer: OpaquePointer?) {
        guard let pointer else { return }
        Unmanaged<Self>.fromOpaque(UnsafeRawPointer(pointer)).release()
    }
}
