// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// Reads one large XML document as it arrives and hands over the elements a path matches as
/// records, each as soon as its end tag has arrived: an Atom or RSS feed's entries, a sitemap's
/// URLs, a dump's pages, in memory bounded by the largest element, not by the document.
///
/// Paths are element names separated by `/` (a child) or `//` (any descendant): `/feed/entry`,
/// `/urlset/url`, `//item`. A bare name matches that local name in any namespace;
/// `prefix:name` matches the namespace `namespaces` gives the prefix; `*` matches any name.
/// Matches do not nest: an element inside a matched one is part of its record.
///
/// Each record is the element's canonical ``Value`` (`{"name", "namespace", "namespaces",
/// "attributes", "children"}`, as in a whole document's), or a `Decodable` decoded by
/// ``XMLModelDecoder``'s mapping with the element as its root. Nothing outside the matched
/// elements is kept: the rest of the document is parsed and checked, then freed as each of its
/// elements ends.
///
/// The document is parsed as safely as every Satchel XML parser parses one (no network, no
/// external entities, entity expansion, depth and text bounded by ``Limits``), with no bound on
/// its size; each matched element is bounded by ``Limits/maxRecordBytes`` of input, and their
/// number by ``Limits/maxRecords``. A malformed document hands over the elements before the
/// error, then throws it with its line, column and byte offset, naming the element it was in
/// (`/feed/entry[42]: …`) or the last one before it (`after /feed/entry[41]: …`). A path that
/// matches nothing is ``SatchelError/Code/valueNotFound`` at the end.
///
/// ```swift
/// let reader = try XMLElementReader(path: "/feed/entry")
/// for chunk in chunks {
///     try reader.feed(chunk, as: Entry.self) { entry in print(entry.title) }
/// }
/// try reader.finish(as: Entry.self) { entry in print(entry.title) }
/// ```
public final class XMLElementReader: ElementRecordReader {
    /// The path the records match, as given.
    public var path: String { selection.path.text }
    /// Records handed over so far.
    public private(set) var recordCount = 0
    /// Always `nil`: nothing outside the matched elements is kept.
    public var rest: Value? { nil }
    private let selection: XMLElementSelection
    private let session: XMLParseSession
    private let limits: Limits
    private let modelContext: XMLModelContext
    private var failure: SatchelError?

    /// Creates a reader of the elements `path` matches.
    /// - Parameters:
    ///   - path: See the type's documentation.
    ///   - namespaces: The prefixes the path uses, each to its namespace URI.
    ///   - limits: The bounds to obey (``Limits/maxBodyBytes`` aside: the document may be any size).
    ///   - encoding: A charset from a Content-Type, overriding the document's declaration.
    ///   - modelDecoder: The mapping of typed records (its own limits are not used).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path it cannot read or a prefix
    ///   `namespaces` lacks.
    public init(
        path: String, namespaces: [String: String] = [:], limits: Limits = .default, encoding: String? = nil,
        modelDecoder: XMLModelDecoder = XMLModelDecoder()
    ) throws(SatchelError) {
        selection = XMLElementSelection(path: try XMLElementPath(path, namespaces: namespaces))
        var documentLimits = limits
        documentLimits.maxBodyBytes = .max
        session = XMLParseSession(mode: .elements(selection), limits: documentLimits, encoding: encoding)
        self.limits = limits
        modelContext = XMLModelContext(decoder: modelDecoder)
    }

    public func feed(
        _ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try run({ node throws(SatchelError) in XMLDocumentPayload.element(node) }, deliver) { () throws(SatchelError) in
            try session.feed(chunk)
        }
    }

    public func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try run({ node throws(SatchelError) in XMLDocumentPayload.element(node) }, deliver) { () throws(SatchelError) in
            try end()
        }
    }

    /// Feeds the next chunk, decoding every element it completes into a `T` for `deliver`.
    /// - Throws: ``SatchelError``: see the type's documentation; where `T` does not fit, with the
    ///   element and the key path; what `deliver` throws.
    public func feed<T: Decodable>(
        _ chunk: UnsafeRawBufferPointer, as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try run(model(T.self), deliver) { () throws(SatchelError) in try session.feed(chunk) }
    }

    /// Ends the document, decoding the elements its end completes into `T`s.
    public func finish<T: Decodable>(
        as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try run(model(T.self), deliver) { () throws(SatchelError) in try end() }
    }

    private func model<T: Decodable>(_ type: T.Type) -> (xmlNodePtr) throws(SatchelError) -> T {
        let (decoder, context) = (XMLModelDecoder(), modelContext)
        return { node throws(SatchelError) in try decoder.decode(T.self, element: node, context: context) }
    }

    private func end() throws(SatchelError) {
        _ = try session.finish()
        guard selection.matches > 0 else {
            throw SatchelError(
                .valueNotFound, "XML path \"\(path)\" matches no element of the document",
                offset: session.context.inputLength)
        }
    }

    /// Runs `step` of the parse with each matched element made into a record by `make` and
    /// handed to `deliver`.
    private func run<Record>(
        _ make: @escaping (xmlNodePtr) throws(SatchelError) -> Record,
        _ deliver: (Record) throws(SatchelError) -> Void, _ step: () throws(SatchelError) -> Void
    ) throws(SatchelError) {
        if let failure { throw failure }
        let outcome = withoutActuallyEscaping(deliver) { deliver in
            selection.deliver = { [unowned self] node in
                let index = recordCount + 1
                guard recordCount < limits.maxRecords else {
                    throw SatchelError.limitExceeded("maxRecords", limits.maxRecords, "\(path)[\(index)]")
                }
                let record: Record
                do throws(SatchelError) {
                    record = try make(node)
                } catch {
                    throw error.naming("\(path)[\(index)]")
                }
                recordCount += 1
                try deliver(record)
            }
            defer { selection.deliver = nil }
            return Result { () throws(SatchelError) in try step() }
        }
        guard case let .failure(error) = outcome else { return }
        let failure = (session.context.handlerFailure as? SatchelError) ?? locate(error)
        self.failure = failure
        throw failure
    }

    /// A parse error, naming the element it was in or the last one before it.
    private func locate(_ error: SatchelError) -> SatchelError {
        if selection.isInsideMatch { return error.naming("\(path)[\(recordCount + 1)]") }
        return recordCount > 0 ? error.naming("after \(path)[\(recordCount)]") : error
    }
}
