// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A streaming XML parser (libxml2's push parser) that hands each ``XMLEvent`` to a handler as
/// chunks of the document are fed, without building a tree.
///
/// Safe by default, like every Satchel XML parser: no network, no external entities or DTDs
/// (a reference to one is an ``SatchelError/Code/unsupportedFormat`` error), entity expansion
/// bounded by ``Limits/maxEntityExpansions``, nesting by ``Limits/maxDepth``, one text run or
/// attribute value by ``Limits/maxStringBytes``, the input by ``Limits/maxBodyBytes``.
///
/// ```swift
/// let parser = XMLEventReader { event in if case .startElement(let name, _, _) = event { print(name) } }
/// try parser.feed(chunk)   // as often as bytes arrive, any chunk size
/// try parser.finish()
/// ```
///
/// A parser is used from one thread at a time; it is not `Sendable`.
public final class XMLEventReader {
    private let session: XMLParseSession

    /// Creates a parser.
    /// - Parameters:
    ///   - limits: The bounds to obey.
    ///   - encoding: A charset (from a Content-Type) that overrides the document's declaration;
    ///     `nil` lets libxml2 detect it.
    ///   - handler: Called with each event in document order; what it throws stops the parse and
    ///     is rethrown by ``feed(_:)-([UInt8])`` or ``finish()``.
    public init(limits: Limits = .default, encoding: String? = nil, handler: @escaping (XMLEvent) throws -> Void) {
        session = XMLParseSession(mode: .events { view in try handler(view.event) }, limits: limits, encoding: encoding)
    }

    /// Creates a parser that hands each event over as an ``XMLEventView``: nothing is made until
    /// the handler asks for it (a name, an attribute's value, the text). The faster form when a
    /// handler reads only part of each event.
    /// - Parameters:
    ///   - limits: The bounds to obey.
    ///   - encoding: A charset (from a Content-Type) that overrides the document's declaration;
    ///     `nil` lets libxml2 detect it.
    ///   - viewHandler: Called with each event in document order; the view is valid only during
    ///     the call. What it throws stops the parse and is rethrown by ``feed(_:)-([UInt8])`` or
    ///     ``finish()``.
    ///
    /// A trailing closure that either form would take, such as `{ event in print(event) }`, goes
    /// to ``init(limits:encoding:handler:)``: pass this one by its label, or name the type of the
    /// closure's parameter (`{ (view: XMLEventView) in … }`).
    @_disfavoredOverload  // Keeps `XMLEventReader { event in … }` meaning what it always has.
    public init(
        limits: Limits = .default, encoding: String? = nil, viewHandler: @escaping (XMLEventView) throws -> Void
    ) {
        session = XMLParseSession(mode: .events(viewHandler), limits: limits, encoding: encoding)
    }

    /// Parses the next chunk, delivering the events it completes.
    /// - Throws: ``SatchelError`` (with line, column and byte offset) as soon as the bytes so far
    ///   cannot begin a well-formed document, a ``Limits`` hit, or what the handler threw.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws {
        try passingHandlerErrors { () throws(SatchelError) in try session.feed(chunk) }
    }

    /// Parses the next chunk (see ``feed(_:)``).
    public func feed(_ chunk: [UInt8]) throws {
        try passingHandlerErrors { () throws(SatchelError) in
            try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in
                try session.feed(UnsafeRawBufferPointer(chunk))
            }
        }
    }

    /// Ends the document and delivers the last events.
    /// - Throws: ``SatchelError/Code/truncatedInput`` when the document is incomplete, and the
    ///   errors of ``feed(_:)-([UInt8])``.
    public func finish() throws {
        _ = try passingHandlerErrors { () throws(SatchelError) in try session.finish() }
    }

    /// Runs a step of the parse; when the handler stopped it, what the handler threw, as it is
    /// (this is why these methods throw untyped errors).
    private func passingHandlerErrors<T>(_ step: () throws(SatchelError) -> T) throws -> T {
        do {
            return try step()
        } catch {
            throw session.context.handlerFailure ?? error
        }
    }
}
