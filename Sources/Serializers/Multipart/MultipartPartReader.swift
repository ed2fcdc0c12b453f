// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads a multipart body as it arrives and hands over each part, with its decoded value, as
/// soon as it is complete; parts are not kept (a large part's body spills to a temporary file,
/// as in a whole-body decode).
///
/// ```swift
/// let reader = MultipartPartReader(serializer: MultipartResponseSerializer(), contentType: type, limits: .default)
/// try reader.feed(chunk) { part in print(part.part.name ?? "-", part.value) }
/// try reader.finish { part in print(part.part.name ?? "-", part.value) }
/// ```
public final class MultipartPartReader {
    private let reader: MultipartIncrementalReader
    /// Parts completed by the chunk being fed, handed over once the parser returns.
    private var completed: [MultipartParts.Element] = []

    /// A reader of a body of `contentType` (its boundary) with `serializer`'s options.
    public init(serializer: MultipartResponseSerializer, contentType: MediaType?, limits: Limits) {
        reader = MultipartIncrementalReader(serializer: serializer, contentType: contentType, limits: limits)
        reader.retainsParts = false
        reader.onPart = { [unowned self] part in completed.append(part) }
    }

    /// Feeds the next chunk, handing `deliver` every part it completes.
    /// - Throws: ``SatchelError`` for a malformed body or one past the limits, after the parts
    ///   before the error; what `deliver` throws.
    public func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (MultipartParts.Element) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try handOver(deliver) { () throws(SatchelError) in try reader.feed(chunk) }
    }

    /// Ends the body, handing `deliver` the parts its end completes.
    /// - Throws: ``SatchelError`` for a body without its close delimiter.
    public func finish(into deliver: (MultipartParts.Element) throws(SatchelError) -> Void) throws(SatchelError) {
        try handOver(deliver) { () throws(SatchelError) in _ = try reader.finish() }
    }

    /// Runs a parser step, then hands over the parts it completed — also when it failed.
    private func handOver(
        _ deliver: (MultipartParts.Element) throws(SatchelError) -> Void, after step: () throws(SatchelError) -> Void
    ) throws(SatchelError) {
        defer { completed.removeAll(keepingCapacity: true) }
        do {
            try step()
        } catch {
            for part in completed { try deliver(part) }
            throw error
        }
        for part in completed { try deliver(part) }
    }
}
