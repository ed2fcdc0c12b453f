// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// The Swift side of one libxml2 parse: the ``Limits`` it obeys, the first error, and for the
/// event form the handler and the text not yet delivered.
///
/// A context is attached to its parser context through `ctxt->_private` (libxml2 copies that
/// pointer into the parser contexts it creates for entity content), so every callback and the
/// structured error handler find it without global state: parses on other threads never meet.
/// A context is used by one thread at a time, the one driving its parser. The mutable parse
/// state is marked `@exclusivity(unchecked)`: it is only touched from libxml2's callbacks and
/// the session on that thread, one short access at a time (no access spans a call back into
/// libxml2), so the dynamic exclusivity checks — a measurable share of event parsing — cannot
/// fire.
final class XMLParseContext {
    /// What the SAX callbacks do with the content.
    enum Mode {
        /// libxml2's own SAX2 callbacks build a tree; ours only count depth and text.
        case document
        /// Our callbacks deliver each event as an ``XMLEventView`` and build nothing.
        case events((XMLEventView) throws -> Void)
        /// libxml2 builds the elements a selection matches, each freed once it is handed over
        /// (``XMLElementReader``); what lies outside them is freed as it ends.
        case elements(XMLElementSelection)
    }

    let limits: Limits
    let mode: Mode
    /// The event handler of ``Mode/events(_:)``, kept apart so delivering an event does not copy
    /// the enum.
    let handler: ((XMLEventView) throws -> Void)?
    /// The selection of ``Mode/elements(_:)``.
    let selection: XMLElementSelection?
    /// The first error: a libxml2 error, a ``Limits`` hit, or the event handler's failure.
    @exclusivity(unchecked) private(set) var failure: SatchelError?
    /// Whether ``failure`` is set: what every callback checks first (comparing the optional
    /// error with `nil` copied it, a measurable share of event parsing).
    @exclusivity(unchecked) private(set) var failed = false
    /// What the event handler threw, when it stopped the parse: ``XMLEventReader`` rethrows it
    /// as it is, while ``failure`` carries it as its underlying error.
    @exclusivity(unchecked) var handlerFailure: (any Error)?
    /// Bytes of input fed so far, to tell an error at the very end (truncation) from others.
    @exclusivity(unchecked) var inputLength = 0
    /// The document's parser context (entity content is parsed by contexts libxml2 creates).
    var mainParser: xmlParserCtxtPtr?
    /// Whether the input has ended (set before the final, terminating parse): an error found
    /// then, before the root element started or while it is open, is truncation.
    var inputEnded = false
    /// The first error libxml2 raised without a parser context (``XMLCallbacks/contextlessError``).
    @exclusivity(unchecked) var contextlessError: SatchelError?
    /// Whether an element has started.
    @exclusivity(unchecked) var sawElement = false
    /// Elements open now.
    @exclusivity(unchecked) var depth = 0
    /// Bytes in the current run of text (or CDATA), entity expansions included.
    @exclusivity(unchecked) var textRun = 0
    /// Entity references expanded so far, nested ones included.
    @exclusivity(unchecked) var expansions = 0
    /// Bytes produced by entity expansion so far.
    @exclusivity(unchecked) var expandedBytes = 0
    /// Where the last entity reference was charged, so that a second look-up is not charged.
    @exclusivity(unchecked) var lastReference: (position: Int, entity: xmlEntityPtr?) = (-1, nil)
    /// What expanding each entity costs, by name (see ``XMLEntityBudget``).
    @exclusivity(unchecked) var entityBudget = XMLEntityBudget()

    /// Event form: what libxml2 handed over for the event being delivered, which its
    /// ``XMLEventView`` reads (valid only during the handler's call).
    @exclusivity(unchecked) var currentEvent = CurrentEvent()
    /// Event form: changed before and after every delivery, so that a view kept past its handler's
    /// call is recognised (``XMLEventView``).
    @exclusivity(unchecked) var viewGeneration = 0
    /// Event form: the text (or CDATA) not yet delivered, so that one run is one event:
    /// ``pendingCount`` bytes at ``pendingStorage``, which grows by doubling and is freed with the
    /// context (an array's append and clear per run cost more than the copy itself).
    @exclusivity(unchecked) var pendingStorage: UnsafeMutablePointer<UInt8>?
    /// The bytes ``pendingStorage`` holds.
    @exclusivity(unchecked) var pendingCapacity = 0
    /// The bytes of pending text.
    @exclusivity(unchecked) var pendingCount = 0
    /// Whether the pending text is CDATA.
    @exclusivity(unchecked) var pendingIsCDATA = false
    /// Event form: strings for libxml2's interned names (the parser's dictionary keeps each name
    /// at one address for the whole parse), so a name is usually decoded once: a direct-mapped
    /// cache of 256 slots indexed by a multiplicative hash of the address (see ``interned(_:)``).
    /// Empty in document mode, which never looks a name up (one allocation less per parse).
    @exclusivity(unchecked) var names: [(key: UnsafeRawPointer?, name: String)] = []

    init(limits: Limits, mode: Mode) {
        self.limits = limits
        self.mode = mode
        if case .events(let handler) = mode {
            self.handler = handler
            names = Array(repeating: (nil, ""), count: 256)
        } else {
            handler = nil
        }
        if case .elements(let selection) = mode { self.selection = selection } else { selection = nil }
    }

    deinit {
        pendingStorage?.deallocate()
    }

    /// The options every parse uses: no network, no error printing (errors reach us through the
    /// structured handler), and libxml2's built-in ceilings lifted (`XML_PARSE_HUGE`) because
    /// ``Limits`` bounds depth, text and entity expansion instead.
    static let options = Int32(
        XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue
            | XML_PARSE_NOWARNING.rawValue | XML_PARSE_HUGE.rawValue)

    /// Attaches this context to `ctxt` and installs the callbacks of ``mode``; `self` must
    /// outlive the parser context.
    /// - Parameter ignoringDeclaredEncoding: Whether the document's encoding declaration is
    ///   ignored (`XML_PARSE_IGNORE_ENC`), because the caller set the encoding.
    func install(on ctxt: xmlParserCtxtPtr, ignoringDeclaredEncoding: Bool = false) {
        XMLLibrary.initialize()
        let ignoreDeclaration = ignoringDeclaredEncoding ? Int32(XML_PARSE_IGNORE_ENC.rawValue) : 0
        xmlCtxtUseOptions(ctxt, Self.options | ignoreDeclaration)
        // Internal entities are replaced by their content. The XML_PARSE_NOENT option would do
        // that too, but it also lets libxml2 load external entities; our getEntity callback
        // refuses those anyway, and leaving the option off keeps a second line of defence.
        ctxt.pointee.replaceEntities = 1
        ctxt.pointee.loadsubset = 0
        ctxt.pointee.validate = 0
        if mainParser == nil { mainParser = ctxt }
        ctxt.pointee._private = Unmanaged.passUnretained(self).toOpaque()
        guard let sax = ctxt.pointee.sax else { return }
        sax.pointee.serror = XMLCallbacks.structuredError
        sax.pointee.getEntity = XMLCallbacks.getEntity
        sax.pointee.getParameterEntity = XMLCallbacks.getParameterEntity
        sax.pointee.resolveEntity = XMLCallbacks.resolveEntity
        sax.pointee.externalSubset = XMLCallbacks.externalSubset
        switch mode {
        case .document:
            sax.pointee.startElementNs = XMLCallbacks.documentStartElement
            sax.pointee.endElementNs = XMLCallbacks.documentEndElement
            sax.pointee.characters = XMLCallbacks.documentCharacters
            sax.pointee.ignorableWhitespace = XMLCallbacks.documentCharacters
            sax.pointee.cdataBlock = XMLCallbacks.documentCDATA
        case .events:
            sax.pointee.startElementNs = XMLCallbacks.eventStartElement
            sax.pointee.endElementNs = XMLCallbacks.eventEndElement
            sax.pointee.characters = XMLCallbacks.eventCharacters
            sax.pointee.ignorableWhitespace = XMLCallbacks.eventCharacters
            sax.pointee.cdataBlock = XMLCallbacks.eventCDATA
            sax.pointee.comment = XMLCallbacks.eventComment
            sax.pointee.processingInstruction = XMLCallbacks.eventProcessingInstruction
            sax.pointee.reference = nil
        case .elements:
            sax.pointee.startElementNs = XMLCallbacks.elementsStartElement
            sax.pointee.endElementNs = XMLCallbacks.elementsEndElement
            sax.pointee.characters = XMLCallbacks.elementsCharacters
            sax.pointee.ignorableWhitespace = XMLCallbacks.elementsCharacters
            sax.pointee.cdataBlock = XMLCallbacks.elementsCDATA
            sax.pointee.comment = XMLCallbacks.elementsComment
            sax.pointee.processingInstruction = XMLCallbacks.elementsProcessingInstruction
        }
    }

    /// The context attached to a parser context, if any.
    static func of(_ ctx: UnsafeMutableRawPointer?) -> (XMLParseContext, xmlParserCtxtPtr)? {
        guard let ctx else { return nil }
        let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let raw = ctxt.pointee._private else { return nil }
        return (Unmanaged<XMLParseContext>.fromOpaque(raw).takeUnretainedValue(), ctxt)
    }

    /// Calls `body` with the context attached to a parser context, without retaining it (the
    /// session that drives the parser holds it for the whole parse); does nothing without one.
    @inline(__always)
    static func with(_ ctx: UnsafeMutableRawPointer?, _ body: (XMLParseContext, xmlParserCtxtPtr) -> Void) {
        guard let ctx else { return }
        let ctxt = ctx.assumingMemoryBound(to: xmlParserCtxt.self)
        guard let raw = ctxt.pointee._private else { return }
        Unmanaged<XMLParseContext>.fromOpaque(raw)._withUnsafeGuaranteedRef { body($0, ctxt) }
    }

    /// Records `error` (the first one wins) and stops the parser.
    func fail(_ error: SatchelError, stopping ctxt: xmlParserCtxtPtr) {
        if !failed {
            failure = error
            failed = true
        }
        ctxt.pointee.wellFormed = 0
        xmlStopParser(ctxt)
    }

    /// A ``Limits`` error located at the parser's current position.
    func limitError(_ limit: String, _ bound: Int, _ what: String, at ctxt: xmlParserCtxtPtr) -> SatchelError {
        var error = SatchelError.limitExceeded(limit, bound, what)
        locate(&error, ctxt: ctxt)
        return error
    }

    /// Adds `count` bytes of text to the current run.
    /// - Returns: `false` (after recording the error) when the run exceeds `maxStringBytes`.
    func addText(_ count: Int, ctxt: xmlParserCtxtPtr) -> Bool {
        textRun += count
        if textRun > limits.maxStringBytes {
            fail(
                limitError("maxStringBytes", limits.maxStringBytes, "a text node of \(textRun) bytes", at: ctxt),
                stopping: ctxt)
            return false
        }
        return true
    }

    /// Enters an element. - Returns: `false` (after recording the error) past `maxDepth`.
    func enterElement(ctxt: xmlParserCtxtPtr) -> Bool {
        depth += 1
        textRun = 0
        sawElement = true
        if depth > limits.maxDepth {
            fail(limitError("maxDepth", limits.maxDepth, "element nesting", at: ctxt), stopping: ctxt)
            return false
        }
        return true
    }

    /// Throws the recorded failure, if any.
    func check() throws(SatchelError) {
        if let failure { throw failure }
    }
}
