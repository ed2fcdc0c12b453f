// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Collects a response body in memory, up to `Limits.maxBodyBytes`, or feeds it to an
/// incremental reader as it arrives.
///
/// Incremental decoding is used when the response serializer the registry picks for the
/// Content-Type offers a reader, the status and type are acceptable, and the body is large
/// or of unknown length (more than ``incrementalThreshold`` bytes): the body then never sits
/// whole in memory; only its first ``SatchelError/bodyCaptureLimit`` bytes are kept for errors.
final class MemorySink: ResponseSink {
    /// Bodies declared at most this long are decoded whole, which is faster for small ones.
    static let incrementalThreshold: Int64 = 1 << 20

    private let limits: Limits
    private let readerFactory: ((HTTPResponse) -> (serializerName: String, reader: any IncrementalReader)?)?
    private(set) var body: [UInt8] = []
    private(set) var reader: (any IncrementalReader)?
    /// The name of the serializer whose reader is fed.
    private(set) var readerSerializerName: String?
    /// The reader's result or error, once the body ended.
    private(set) var incrementalResult: Result<Value?, SatchelError>?

    /// - Parameters:
    ///   - limits: `maxBodyBytes` bounds the body held in memory.
    ///   - readerFactory: Returns an incremental reader for a response head, or `nil` to
    ///     collect the body whole.
    init(limits: Limits, readerFactory: ((HTTPResponse) -> (serializerName: String, reader: any IncrementalReader)?)?) {
        self.limits = limits
        self.readerFactory = readerFactory
    }

    func begin(_ response: HTTPResponse) throws(SatchelError) {
        body = []
        reader = nil
        readerSerializerName = nil
        let declared = response.headerFields.combinedValue(.contentLength).flatMap { Int64($0) }
        if declared.map({ $0 > Self.incrementalThreshold }) ?? true, let chosen = readerFactory?(response) {
            reader = chosen.reader
            readerSerializerName = chosen.serializerName
        }
        guard reader == nil, let declared else { return }
        guard declared <= Int64(limits.maxBodyBytes) else {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limits.maxBodyBytes, "a response body of \(declared) bytes", offset: 0)
        }
        body.reserveCapacity(Int(declared))
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool {
        if let reader {
            if body.count < SatchelError.bodyCaptureLimit {
                body.append(contentsOf: bytes.prefix(SatchelError.bodyCaptureLimit - body.count))
            }
            do {
                try reader.feed(bytes)
            } catch {
                throw error as? SatchelError ?? SatchelError(.internal, "\(error)")
            }
            return true
        }
        guard body.count + bytes.count <= limits.maxBodyBytes else {
            throw SatchelError.limitExceeded(
                "maxBodyBytes", limits.maxBodyBytes, "a response body of more than \(limits.maxBodyBytes) bytes",
                offset: limits.maxBodyBytes)
        }
        body.append(contentsOf: bytes)
        return true
    }

    func finish(error: SatchelError?) {
        guard let reader, error == nil else { return }
        do {
            incrementalResult = .success(try reader.finish())
        } catch {
            incrementalResult = .failure(error as? SatchelError ?? SatchelError(.internal, "\(error)"))
        }
    }
}
