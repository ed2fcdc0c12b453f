// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes a multipart body fed in chunks: parses with ``MultipartReader`` and decodes each part
/// as soon as it completes (see ``MultipartResponseSerializer``).
public final class MultipartIncrementalReader: IncrementalReader {
    private let parser: MultipartReader?
    private let setupError: SatchelError?
    private let values: PartValueReader
    private let mediaType: MediaType?
    private var elements: [MultipartParts.Element] = []
    private var fed = 0
    /// The first error thrown; every later call throws it again (a part's limit error leaves the
    /// parser itself healthy, and ``finish()`` would otherwise return the body without that part).
    private var failure: SatchelError?

    /// Called with each part and its value as soon as the part is complete.
    public var onPart: ((MultipartParts.Element) -> Void)?
    /// Whether completed parts are kept for the value ``finish()`` returns. Turn it off when
    /// parts are consumed as they arrive (``onPart``, ``makePartStream()``), so a body of any
    /// size is decoded in bounded memory; ``finish()`` then returns parts without elements.
    public var retainsParts = true
    /// The stream made by ``makePartStream()``, if any.
    private var stream: AsyncThrowingStream<MultipartParts.Element, any Error>.Continuation?

    /// Creates a decoder for a body of `contentType`; an invalid type is reported by the first
    /// ``feed(_:)``.
    public init(serializer: MultipartResponseSerializer, contentType: MediaType?, limits: Limits) {
        values = PartValueReader(
            options: serializer.options, rawParts: serializer.rawParts, registry: serializer.registry,
            limits: limits, depth: 1)
        mediaType = contentType
        do throws(SatchelError) {
            guard let contentType else {
                throw SatchelError(.invalidMediaType, "a multipart body needs a Content-Type with a boundary parameter")
            }
            parser = try MultipartReader(contentType: contentType, options: serializer.options, limits: limits)
            setupError = nil
        } catch {
            parser = nil
            setupError = error
        }
    }

    /// Feeds the next chunk, decoding the parts it completes.
    /// - Throws: ``SatchelError`` from the parser, or a ``Limits`` hit while decoding a part.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        if let failure { throw failure }
        fed += chunk.count
        guard let parser else {
            if chunk.isEmpty { return }
            throw setupError ?? SatchelError(.internal, "no multipart parser")
        }
        do throws(SatchelError) {
            let parts: [MultipartReader.Part]
            do {
                parts = try parser.feed(chunk)
            } catch {
                for part in parser.partsBeforeFailure { try emit(part) }  // complete before the error
                throw error
            }
            for part in parts { try emit(part) }
        } catch {
            failure = error
            elements = []
            stream?.finish(throwing: error)
            throw error
        }
    }

    /// Decodes a completed part and hands it over.
    private func emit(_ part: MultipartReader.Part) throws(SatchelError) {
        let element = MultipartParts.Element(part: part, value: try values.value(of: part))
        if retainsParts { elements.append(element) }
        onPart?(element)
        stream?.yield(element)
    }

    /// The parts as an asynchronous sequence, each delivered as soon as it is complete — the
    /// first part of a 2 GB batch is usable before the last has arrived. The sequence ends when
    /// ``finish()`` succeeds and throws the error that stops decoding. Parts are buffered until
    /// consumed; call this before the first ``feed(_:)``.
    public func makePartStream() -> AsyncThrowingStream<MultipartParts.Element, any Error> {
        let (parts, continuation) = AsyncThrowingStream<MultipartParts.Element, any Error>.makeStream()
        stream = continuation
        return parts
    }

    /// Ends the body.
    /// - Returns: ``MultipartParts``, or `nil` when no byte was fed.
    /// - Throws: ``SatchelError`` when the body is incomplete (see ``MultipartReader/finish()``).
    public func finish() throws(SatchelError) -> Value? {
        do throws(SatchelError) {
            let value = try finishBody()
            stream?.finish()
            return value
        } catch {
            stream?.finish(throwing: error)
            throw error
        }
    }

    private func finishBody() throws(SatchelError) -> Value? {
        if let failure { throw failure }
        if fed == 0 { return nil }
        guard let parser else { throw setupError ?? SatchelError(.internal, "no multipart parser") }
        try parser.finish()
        return .payload(MultipartParts(elements, mediaType: mediaType))
    }
}
