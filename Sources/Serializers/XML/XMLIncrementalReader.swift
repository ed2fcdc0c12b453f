import CSatchelLibXML2
import SerializerRegistry

/// Decodes an XML body fed in chunks, for both response serializers: to an
/// ``XMLDocumentPayload`` (document form) or to the canonical value built from events
/// (event form). A body of nothing but whitespace is no value.
final class XMLIncrementalReader: IncrementalReader {
    private let session: XMLParseSession
    private let builder: XMLTreeBuilder?
    private var sawContent = false

    /// A decoder building a libxml2 document.
    init(documentWith limits: Limits, encoding: String?) {
        session = XMLParseSession(mode: .document, limits: limits, encoding: encoding)
        builder = nil
    }

    /// A decoder building the canonical value from events.
    init(eventsWith limits: Limits, encoding: String?) {
        let builder = XMLTreeBuilder()
        session = XMLParseSession(mode: .events { builder.handle($0) }, limits: limits, encoding: encoding)
        self.builder = builder
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws {
        if !sawContent { sawContent = !XMLIncrementalReader.isBlank(chunk) }
        try session.feed(chunk)
    }

    func finish() throws -> Value? {
        guard sawContent else {
            try session.context.check()
            return nil
        }
        let document = try session.finish()
        if let builder { return builder.value }
        guard let document else { throw SatchelError(.syntaxError, "libxml2 produced no document") }
        return .payload(XMLDocumentPayload(document: document))
    }

    /// Whether `bytes` are only XML whitespace (space, tab, CR, LF).
    static func isBlank(_ bytes: UnsafeRawBufferPointer) -> Bool {
        bytes.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
