// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Where a transfer's response body goes. Called in order — ``begin(_:)`` once the final head
/// is in, ``write(_:)`` per chunk, ``finish(error:)`` once — from one thread at a time: the
/// thread driving a transfer (one at a time: ``TransferEngine``), the caller's task for a response the cache answers.
protocol ResponseSink: AnyObject {
    /// The final response head arrived.
    /// - Throws: ``SatchelError`` to abort the transfer (the sink refuses this response).
    func begin(_ response: HTTPResponse) throws(SatchelError)

    /// Takes the next body bytes.
    /// - Returns: `false` to pause the transfer: the bytes were NOT taken and libcurl hands them
    ///   over again after the engine resumes the transfer.
    /// - Throws: ``SatchelError`` to abort the transfer.
    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool

    /// The transfer ended: completely when `error` is `nil`.
    func finish(error: SatchelError?)

    /// Bytes already held from an earlier transfer (a resumed download), added to progress.
    var initialOffset: Int64 { get }

    /// Whether the sink has handed a response on to its consumer, which a retry would then
    /// receive a second time: a failed transfer is not retried once this is `true`.
    var hasHandedOn: Bool { get }
}

extension ResponseSink {
    var initialOffset: Int64 { 0 }
    var hasHandedOn: Bool { false }
}
