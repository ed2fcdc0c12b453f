// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// Runs the body of a C entry point so that nothing Swift reaches the C caller: a thrown error
/// becomes its `satchel_status` and this thread's last error message.
///
/// - Parameter body: The work; throws ``SatchelError`` (any other error is reported as
///   `internal`).
/// - Returns: `SATCHEL_OK`, or the error's status.
func guarded(_ body: () throws -> Void) -> satchel_status {
    do {
        try body()
        return SATCHEL_OK
    } catch let error as SatchelError {
        return LastError.record(error)
    } catch {
        return LastError.record(SatchelError(.internal, "\(error)"))
    }
}

extension satchel_status {
    /// The status with the number of a ``SatchelError/Code``.
    init(_ code: SatchelError.Code) {
        self.init(rawValue: UInt32(clamping: code.rawValue))
    }
}
