// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// One libxml2 parse, fed whole or in chunks: owns the parser context (and, until it is handed
/// over, the document), and turns the outcome into a result or a ``SatchelError``.
///
/// Chunks go to libxml2's push parser (`xmlCreatePushParserCtxt`/`xmlParseChunk`); the bytes
/// up to the start of the root element (at least four, so that libxml2 can detect the encoding
/// from a byte order mark or UTF-16 whatever the chunk size) are held back and handed over in
/// one piece, because libxml2's push parser misreads a prolog cut at some points
/// (``XMLPrologScanner``), and so is a comment it would misread (``XMLCommentHoldBack``). A
/// whole body is one chunk.
final class XMLParseSession {
    let context: XMLParseContext
    private let encoding: String?
    private var parser: xmlParserCtxtPtr?
    private var head: [UInt8] = []
    private var prolog = XMLPrologScanner()
    /// How the body holds its markup, known from the first four bytes.
    private var units: XMLCodeUnits?
    private var holdBack = XMLCommentHoldBack()
    private var finished = false

    /// Creates a session.
    /// - Parameters:
    ///   - encoding: The charset from the Content-Type, which overrides the document's own
    ///     declaration (RFC 7303); `nil` or UTF-8 lets libxml2 detect it.
    init(mode: XMLParseContext.Mode, limits: Limits, encoding: String?) {
        context = XMLParseContext(limits: limits, mode: mode)
        let lowered = encoding?.lowercased()
        self.encoding = (lowered == "utf-8" || lowered == "utf8") ? nil : lowered
    }

    deinit {
        if let parser {
            if let document = parser.pointee.myDoc { xmlFreeDoc(document) }
            parser.pointee.myDoc = nil
            xmlFreeParserCtxt(parser)
        }
    }

    /// Feeds the next chunk.
    /// - Throws: ``SatchelError`` as soon as the input cannot be a valid document, a ``Limits``
    ///   hit, or the event handler's failure (its error underlying, and in
    ///   ``XMLParseContext/handlerFailure``).
    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        try context.check()
        guard !finished else { throw SatchelError(.invalidArgument, "the XML parser was fed after finish()") }
        context.inputLength += chunk.count
        try context.limits.checkBody(count: context.inputLength)
        if let units, parser != nil {
            return try holdBack.take(chunk, units: units) { (bytes) throws(SatchelError) in
                try push(bytes, terminate: false)
            }
        }
        head.append(contentsOf: chunk)
        guard head.count >= 4 else { return }
        let units = self.units ?? XMLCodeUnits(charset: encoding, first: head)
        self.units = units
        guard head.withUnsafeBytes({ prolog.scan($0, units: units) }) else { return }
        try start()
    }

    /// Ends the input.
    /// - Returns: The document (the caller owns it) in document mode; `nil` in event mode.
    /// - Throws: ``SatchelError`` when the document is incomplete or invalid.
    func finish() throws(SatchelError) -> xmlDocPtr? {
        try context.check()
        guard !finished else { throw SatchelError(.invalidArgument, "finish() was called twice") }
        if parser == nil { try start() }
        try holdBack.flush { (bytes) throws(SatchelError) in try push(bytes, terminate: false) }
        context.inputEnded = true
        try push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: true)
        finished = true
        return try takeDocument()
    }

    /// Parses a whole body at once: fed to the push parser, then ended, so that an error only
    /// the end of the input reveals is reported as truncation.
    /// - Returns: The document (the caller owns it) in document mode; `nil` in event mode.
    /// - Throws: as ``finish()``.
    func parseWhole(_ body: UnsafeRawBufferPointer) throws(SatchelError) -> xmlDocPtr? {
        try feed(body)
        return try finish()
    }

    /// Creates the push parser with the held-back bytes (those the comment hold-back lets go).
    private func start() throws(SatchelError) {
        let units = self.units ?? XMLCodeUnits(charset: encoding, first: head)
        self.units = units
        let held = head
        head = []
        // The hold-back passes on one prefix, usually all of it (then no copy is made).
        var passed: [UInt8]?
        try held.withUnsafeBufferPointer { (all) throws(SatchelError) in
            try holdBack.take(UnsafeRawBufferPointer(all), units: units) { prefix in
                passed = prefix.count == all.count ? held : Array(prefix)
            }
        }
        let bytes = passed ?? []
        // Creating with the first bytes detects their encoding, before our handlers are in.
        let created: xmlParserCtxtPtr? = withContextlessErrors {
            if encoding == nil {
                bytes.withUnsafeBufferPointer { buffer in
                    buffer.withMemoryRebound(to: CChar.self) {
                        xmlCreatePushParserCtxt(nil, nil, $0.baseAddress, Int32($0.count), nil)
                    }
                }
            } else {
                xmlCreatePushParserCtxt(nil, nil, nil, 0, nil)
            }
        }
        guard let created else { throw SatchelError(.internal, "libxml2 could not create a push parser context") }
        parser = created
        // A charset from the Content-Type is authoritative (RFC 7303 §3.2): the document's
        // encoding declaration must not switch the decoder again.
        context.install(on: created, ignoringDeclaredEncoding: encoding != nil)
        if encoding != nil {
            try switchEncoding(created)
            try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in
                try push(UnsafeRawBufferPointer(bytes), terminate: false)
            }
        } else {
            // The creation only stores the first bytes; an empty chunk parses them.
            try push(UnsafeRawBufferPointer(start: nil, count: 0), terminate: false)
        }
    }

    /// Makes libxml2 read the input in ``encoding``.
    private func switchEncoding(_ parser: xmlParserCtxtPtr) throws(SatchelError) {
        guard let encoding else { return }
        guard let handler = xmlFindCharEncodingHandler(encoding) else {
            throw SatchelError(.unsupportedFormat, "the charset '\(encoding)' is not supported")
        }
        if xmlSwitchToEncoding(parser, handler) != 0 {
            throw SatchelError(.invalidEncoding, "libxml2 cannot read the charset '\(encoding)'")
        }
    }

    /// Pushes bytes to the push parser, in pieces libxml2's `int` sizes can hold.
    private func push(_ chunk: UnsafeRawBufferPointer, terminate: Bool) throws(SatchelError) {
        guard let parser else { return }
        let piece = 1 << 30
        var start = 0
        repeat {
            let count = min(piece, chunk.count - start)
            let base = chunk.baseAddress.map { UnsafeRawPointer($0 + start).assumingMemoryBound(to: CChar.self) }
            let last = terminate && start + count == chunk.count
            // The converter's name, while it exists: a halt frees the input buffer with it.
            let encoder = parser.pointee.input?.pointee.buf?.pointee.encoder?.pointee.name.map { String(cString: $0) }
            withContextlessErrors { _ = satchel_xml_parse_chunk(parser, base, Int32(count), last ? 1 : 0) }
            try context.check()
            // libxml2 halts without reporting an error when bytes do not convert (returning -1
            // or XML_ERR_INVALID_ENCODING); a halt frees the input buffer, nothing else does.
            let halted = parser.pointee.input?.pointee.buf == nil
            if let failure = context.inputFailure(parser, halted: halted, encoder: encoder) { throw failure }
            start += count
        } while start < chunk.count
    }

    /// Calls libxml2 with its structured error handler pointed at ``context``, so that errors
    /// it raises without a parser context reach ``XMLParseContext/noteContextless(_:)`` rather
    /// than stderr; the caller's handler is restored after. libxml2 keeps that handler per
    /// thread and it is ours only during the call, so parses on other threads, or interleaved
    /// on this one, never see each other's errors.
    private func withContextlessErrors<Result>(_ body: () -> Result) -> Result {
        let savedHandler = __xmlStructuredError().pointee
        let savedContext = __xmlStructuredErrorContext().pointee
        xmlSetStructuredErrorFunc(Unmanaged.passUnretained(context).toOpaque(), XMLCallbacks.contextlessError)
        defer { xmlSetStructuredErrorFunc(savedContext, savedHandler) }
        return body()
    }

    /// The outcome after the last byte: the first failure, or the document (document mode).
    private func takeDocument() throws(SatchelError) -> xmlDocPtr? {
        try context.check()
        guard let parser else { return nil }
        // Warnings also set errNo; only a document that is not well-formed fails.
        if parser.pointee.wellFormed == 0 {
            throw SatchelError(.syntaxError, "libxml2 rejected the document (error \(parser.pointee.errNo))")
        }
        // libxml2 can stop without an error (input it took for UCS-4 that does not convert)
        // before any element: that is no document, however it was chunked.
        if !context.sawElement {
            throw SatchelError(.syntaxError, "the document has no root element", offset: context.inputLength)
        }
        let document = parser.pointee.myDoc
        parser.pointee.myDoc = nil
        if case .document = context.mode { return document }
        if let document { xmlFreeDoc(document) }
        return nil
    }
}
