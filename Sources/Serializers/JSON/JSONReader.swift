// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads JSON text (RFC 8259) into a ``Value``, with json-c building the tree behind a strict
/// validator, or into a `Decodable` (``JSONModelDecoder``, from an index of the text).
///
/// Strict about everything RFC 8259 forbids — comments, `NaN`, leading zeros, trailing commas,
/// single quotes, unescaped control characters, invalid UTF-8, lone surrogates, trailing
/// garbage — with errors naming the byte offset, line and column. A leading UTF-8 byte order
/// mark is skipped (RFC 8259 §8.1 allows ignoring it).
public struct JSONReader: Sendable {
    /// How to read.
    public var options: JSONReadingOptions
    /// The bounds to obey: body bytes, depth, string bytes, members per object.
    public var limits: Limits

    /// Creates a reader.
    public init(options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Reads one JSON document.
    ///
    /// - Throws: ``SatchelError``: `syntaxError`, `truncatedInput`, `invalidEncoding`,
    ///   `numberOutOfRange` or `limitExceeded`, with offset, line and column.
    /// - Complexity: O(n) in the length of the text.
    public func read(_ bytes: [UInt8]) throws(SatchelError) -> Value {
        try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in try read(UnsafeRawBufferPointer(bytes)) }
    }

    /// Reads one JSON document from raw memory.
    public func read(_ buffer: UnsafeRawBufferPointer) throws(SatchelError) -> Value {
        try JSONIncrementalReader(options: options, limits: limits).readDocument(buffer)
    }

    /// Reads one JSON document straight into `T`, with ``JSONModelDecoder``'s default strategies.
    ///
    /// - Throws: the errors of ``read(_:)-([UInt8])``, then ``SatchelError/Code/typeMismatch``,
    ///   ``SatchelError/Code/valueNotFound`` or ``SatchelError/Code/numberOutOfRange`` with the
    ///   key path and byte offset where `T` did not fit.
    ///
    /// `T` is decoded from an index of the text, without building a tree.
    public func read<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(SatchelError) -> T {
        try JSONModelDecoder(options: options, limits: limits).decode(type, from: bytes)
    }

    /// Returns a reader fed the text in chunks.
    public func makeIncrementalReader() -> JSONIncrementalReader {
        JSONIncrementalReader(options: options, limits: limits)
    }
}

/// Reads JSON text fed in chunks of any size, validating each chunk as it arrives so an error
/// is reported as soon as its byte is seen.
public final class JSONIncrementalReader: IncrementalReader {
    private var lexer: JSONLexer
    private var parser: JSONCParser?
    private var setupError: SatchelError?
    private let limits: Limits
    private var prefix: [UInt8] = []  // up to three leading bytes, until a BOM is ruled out
    private var prefixSettled = false
    private var total = 0
    /// Whether every text read was short enough for the parser to be kept when this reader ends
    /// (``JSONCParser/maximumKeptText``).
    private var keepsParser = true
    /// The first error thrown; every later call throws it again, so text after an invalid byte
    /// can never complete a value.
    private var failure: SatchelError?
    /// For responses: the check of the rule that a blank body is no value (``BlankBody``);
    /// `nil` when a blank text is an error, as for a document read on its own.
    var blankBody: BlankBody?

    init(options: JSONReadingOptions, limits: Limits) {
        lexer = JSONLexer(options: options, limits: limits)
        self.limits = limits
        do {
            parser = try JSONCParser.make(depth: lexer.maxDepth + 2)
        } catch {
            setupError = error
        }
    }

    deinit {
        // `keep` takes only a parser that completed its text (JSONCParser.resetIfComplete).
        if let parser, keepsParser, failure == nil { JSONCParser.keep(parser) }
    }

    /// Feeds the next chunk.
    /// - Throws: ``SatchelError`` at the first invalid byte or past ``Limits/maxBodyBytes``.
    public func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        if let failure { throw failure }
        do {
            try feedChunk(chunk)
        } catch {
            failure = error
            throw error
        }
    }

    private func feedChunk(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        if let setupError { throw setupError }
        total += chunk.count
        try limits.checkBody(count: total)
        if total > JSONCParser.maximumKeptText { keepsParser = false }
        blankBody?.observe(chunk)
        var bytes = chunk.bindMemory(to: UInt8.self)
        if !prefixSettled {
            // Hold up to three bytes to recognise a UTF-8 byte order mark across chunks.
            let needed = min(3 - prefix.count, bytes.count)
            prefix.append(contentsOf: bytes.prefix(needed))
            bytes = UnsafeBufferPointer(rebasing: bytes[needed...])
            let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
            if prefix == bom {
                lexer.consumed = 3
                prefix = []
                prefixSettled = true
            } else if !bom.starts(with: prefix) || prefix.count == 3 {
                prefixSettled = true
                let held = prefix
                prefix = []
                try held.withUnsafeBufferPointer { (held) throws(SatchelError) in try scan(held) }
            } else {
                return
            }
        }
        try scan(bytes)
    }

    private func scan(_ bytes: UnsafeBufferPointer<UInt8>) throws(SatchelError) {
        guard !bytes.isEmpty, let parser else { return }
        try lexer.scan(bytes) { (text) throws(SatchelError) in try parser.feed(text) }
    }

    /// Ends the text and returns the value (`nil` only for a blank body of a response,
    /// ``BlankBody``).
    /// - Throws: ``SatchelError/Code/truncatedInput`` when the text stops inside a value.
    public func finish() throws(SatchelError) -> Value? {
        if let failure { throw failure }
        if blankBody?.isBlank == true { return nil }
        return try readValue()
    }

    func readValue() throws(SatchelError) -> Value {
        let tree = try finishTree()
        return try tree.converter.value(of: tree.root)
    }

    /// Reads `buffer` as one whole document, errors located in it (line, column), after
    /// readying this reader for a new text: a reader reused for many small documents (the
    /// lines of JSON Lines) makes its json-c tokener once.
    func readDocument(_ buffer: UnsafeRawBufferPointer) throws(SatchelError) -> Value {
        reset()
        do {
            try feed(buffer)
            return try readValue()
        } catch var error {
            if let offset = error.offset { error.locate(offset: offset, in: buffer) }
            throw error
        }
    }

    /// Readies the reader for a new text; the tokener is kept.
    private func reset() {
        guard total > 0 || failure != nil || parser?.isComplete == true else { return }
        lexer = JSONLexer(options: lexer.options, limits: limits)
        if let parser, !parser.resetIfComplete() {
            // Cut off mid-text: a parser that starts clean instead.
            do {
                self.parser = try JSONCParser.make(depth: parser.depth)
            } catch {
                self.parser = nil
                setupError = error
            }
        }
        prefix = []
        prefixSettled = false
        total = 0
        failure = nil
    }

    /// Ends the text and returns json-c's tree, which lives as long as this reader, and the
    /// converter that turns its nodes into values.
    func finishTree() throws(SatchelError) -> (root: OpaquePointer?, converter: JSONTree) {
        if let failure { throw failure }
        do {
            return try finishTreeOnce()
        } catch {
            failure = error
            throw error
        }
    }

    private func finishTreeOnce() throws(SatchelError) -> (root: OpaquePointer?, converter: JSONTree) {
        if let setupError { throw setupError }
        guard let parser else { throw SatchelError(.internal, "no json-c parser") }
        if !prefixSettled {
            prefixSettled = true
            let held = prefix
            prefix = []
            try held.withUnsafeBufferPointer { (held) throws(SatchelError) in try scan(held) }
        }
        try lexer.finish { (text) throws(SatchelError) in try parser.feed(text) }
        try parser.finish()
        let converter = JSONTree(
            options: lexer.options, maxPairs: limits.maxPairs, restoresNullCharacters: lexer.keyHasNullCharacter)
        return (parser.root, converter)
    }
}
