// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry
import Synchronization

/// A parsed XML document (libxml2's tree): the value of the ``XMLDocumentResponseSerializer``,
/// queried with XPath (``nodes(xpath:namespaces:)``, ``string(xpath:namespaces:)``) and
/// converted to a plain ``Value`` (``canonicalValue``, canonical JSON `{"$xml": …}`, see
/// Sources/Satchel/Satchel.docc/RegistryAndSerializers.md).
///
/// The payload owns its `xmlDocPtr` and frees it when the last reference goes away. Nothing
/// changes the tree after parsing: XPath runs in a fresh context per query, under a lock, and
/// never orders or annotates the tree (no `xmlXPathOrderDocElems`).
// @unchecked Sendable: the only state is the document pointer, set once; after parsing the tree
// is only read (conversion, serialization), and XPath evaluation — the one libxml2 operation
// that keeps per-query state — runs under `queryLock`, with its own context each time.
public final class XMLDocumentPayload: ValuePayload, Equatable, @unchecked Sendable {
    /// `"$xml"`.
    public static let kind = "$xml"

    let document: xmlDocPtr
    let queryLock = Mutex(())

    /// Takes ownership of `document`.
    init(document: xmlDocPtr) {
        self.document = document
    }

    deinit {
        xmlFreeDoc(document)
    }

    /// Parses a whole document.
    ///
    /// - Parameters:
    ///   - bytes: The document.
    ///   - encoding: A charset that overrides the document's declaration; `nil` detects it.
    ///   - limits: The bounds to obey.
    /// - Throws: ``SatchelError`` with line, column and byte offset: `syntaxError`,
    ///   `truncatedInput`, `invalidEncoding`, `limitExceeded` naming the ``Limits`` property,
    ///   `unsupportedFormat` for a reference to an external entity.
    /// - Complexity: O(n), like `xmlReadMemory`.
    public convenience init(
        parsing bytes: [UInt8], encoding: String? = nil, limits: Limits = .default
    ) throws(SatchelError) {
        let parsed = try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in
            try Self.parse(UnsafeRawBufferPointer(bytes), encoding: encoding, limits: limits)
        }
        self.init(document: parsed)
    }

    /// Parses a document from raw memory (a C caller's buffer), without copying it.
    /// - Parameters:
    ///   - buffer: The document's bytes, read during the call only.
    ///   - encoding: The charset of the Content-Type, if any.
    ///   - limits: The bounds to obey.
    /// - Throws: As ``init(parsing:encoding:limits:)-([UInt8],_,_)``.
    public convenience init(
        parsing buffer: UnsafeRawBufferPointer, encoding: String? = nil, limits: Limits = .default
    ) throws(SatchelError) {
        self.init(document: try Self.parse(buffer, encoding: encoding, limits: limits))
    }

    private static func parse(
        _ buffer: UnsafeRawBufferPointer, encoding: String?, limits: Limits
    ) throws(SatchelError) -> xmlDocPtr {
        let session = XMLParseSession(mode: .document, limits: limits, encoding: encoding)
        guard let parsed = try session.parseWhole(buffer) else {
            throw SatchelError(.syntaxError, "libxml2 produced no document")
        }
        return parsed
    }

    /// The qualified name of the root element, if there is one.
    public var rootElementName: String? {
        guard let root = xmlDocGetRootElement(document) else { return nil }
        return XMLDocumentPayload.qualifiedName(of: root)
    }

    /// The document as XML text (UTF-8, with an XML declaration).
    public var xmlBytes: [UInt8] {
        var buffer: UnsafeMutablePointer<xmlChar>?
        var size: Int32 = 0
        xmlDocDumpFormatMemoryEnc(document, &buffer, &size, "UTF-8", 0)
        guard let buffer else { return [] }
        defer { XMLLibrary.free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(size)))
    }

    /// Equal when the canonical values are.
    public static func == (lhs: XMLDocumentPayload, rhs: XMLDocumentPayload) -> Bool {
        lhs === rhs || lhs.canonicalValue == rhs.canonicalValue
    }
}
