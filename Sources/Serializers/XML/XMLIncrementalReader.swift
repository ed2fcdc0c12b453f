// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Decodes an XML body fed in chunks, for both response serializers: to an
/// ``XMLDocumentPayload`` (document form) or to the canonical value built from events
/// (event form). A blank body is no value (``BlankBody``).
final class XMLIncrementalReader: IncrementalReader {
    private let session: XMLParseSession
    private let builder: XMLTreeBuilder?
    private var blankBody = BlankBody(ignoringWhiteSpace: true)

    /// A decoder building a libxml2 document.
    init(documentWith limits: Limits, encoding: String?) {
        session = XMLParseSession(mode: .document, limits: limits, encoding: encoding)
        builder = nil
    }

    /// A decoder building the canonical value from events.
    init(eventsWith limits: Limits, encoding: String?) {
        let builder = XMLTreeBuilder()
        session = XMLParseSession(mode: .events { builder.handle($0.event) }, limits: limits, encoding: encoding)
        self.builder = builder
    }

    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        blankBody.observe(chunk)
        try session.feed(chunk)
    }

    func finish() throws(SatchelError) -> Value? {
        guard !blankBody.isBlank else {
            try session.context.check()
            return nil
        }
        let document = try session.finish()
        if let builder { return builder.value }
        guard let document else { throw SatchelError(.syntaxError, "libxml2 produced no document") }
        return .payload(XMLDocumentPayload(document: document))
    }
}
