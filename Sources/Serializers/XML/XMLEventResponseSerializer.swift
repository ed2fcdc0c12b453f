// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes XML responses with libxml2's SAX push parser, without building a DOM
/// (AFNetworking's `AFXMLParserResponseSerializer`, streaming).
///
/// The value is the document's canonical form, `{"$xml": {"children": […]}}` as a plain
/// ``Value`` — the same canonical JSON ``XMLDocumentResponseSerializer`` gives, built straight
/// from the events. For the events themselves, use ``XMLEventReader``. Not in
/// `Registry.standard()` (the document form is the default there); register it to prefer it.
public struct XMLEventResponseSerializer: ResponseSerializer {
    /// `"xml-events"`.
    public var name: String { "xml-events" }
    /// The acceptable media types.
    public var acceptableContentTypes: MediaRangeList

    /// Creates a serializer; by default for the types of ``XMLDocumentResponseSerializer``.
    public init(acceptableContentTypes: MediaRangeList = XMLDocumentResponseSerializer.defaultContentTypes) {
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body.
    /// - Returns: The canonical value; `nil` for a blank body.
    /// - Throws: the errors of ``XMLEventReader``.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        let decoder = XMLIncrementalReader(eventsWith: limits, encoding: contentType?.charset)
        try body.withUnsafeBufferPointer { (body) throws(SatchelError) in try decoder.feed(UnsafeRawBufferPointer(body))
        }
        return try decoder.finish()
    }

    /// A decoder that feeds the push parser as the body arrives.
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        XMLIncrementalReader(eventsWith: limits, encoding: contentType?.charset)
    }
}
