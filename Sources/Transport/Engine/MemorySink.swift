// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Collects a response body in memory, up to `Limits.maxBodyBytes`, whatever its length or
/// framing: the thread driving the transfer only copies bytes, and the caller's task decodes them once the body
/// is whole (``Session/result(for:)``). Decoding as the bytes arrive is what the record
/// streams, ``Session/bytes(for:)`` and the incremental readers are for.
final class MemorySink: ResponseSink {
    private let limits: Limits
    private(set) var body: [UInt8] = []

    /// - Parameter limits: `maxBodyBytes` bounds the body held in memory.
    init(limits: Limits) {
        self.limits = limits
    }

    func begin(_ response: HTTPResponse) throws(SatchelError) {
        body = []
        guard let declared = response.headerFields.combinedValue(.contentLength).flatMap({ Int64($0) }) else {
            return
        }
        guard declared <= Int64(limits.maxBodyBytes) else {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limits.maxBodyBytes, "a response body of \(declared) bytes", offset: 0)
        }
        body.reserveCapacity(Int(declared))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool {
        guard body.count + bytes.count <= limits.maxBodyBytes else {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limits.maxBodyBytes, "a response body of more than \(limits.maxBodyBytes) bytes",
                offset: limits.maxBodyBytes)
        }
        body.append(contentsOf: bytes)
        return true
    }

    func finish(error: SatchelError?) {}
}
