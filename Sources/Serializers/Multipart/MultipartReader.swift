// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A streaming parser of multipart bodies (RFC 2046), `multipart/form-data` (RFC 7578) by default.
///
/// Feed it chunks of any size, down to one byte: ``feed(_:)-(UnsafeRawBufferPointer)`` returns the
/// parts the chunk completed, and ``finish()`` checks that the body ended with its closing
/// boundary. The parser keeps no more of the input than a delimiter's length across chunks; a
/// part's body is held in memory up to ``Options/memoryThreshold`` bytes and written to a
/// ``TemporaryFile`` beyond it, so a body of any size is parsed in small memory.
///
/// It handles a preamble and an epilogue, transport padding after a boundary, folded header
/// lines (obs-fold, joined with one space), header names in any case (kept as received), quoted
/// and unquoted parameters, `filename` and RFC 8187 `filename*`, and empty parts.
///
/// Every error is a ``SatchelError`` whose message names the part (indices start at 0, as in the
/// `$multipart` array) and whose ``SatchelError/offset`` is the byte offset in the body:
/// ``SatchelError/Code/syntaxError`` for malformed input, ``SatchelError/Code/truncatedInput``
/// for a body that ends early, ``SatchelError/Code/limitExceeded`` for ``Limits/maxParts``,
/// ``Limits/maxPartHeaderBytes``, ``Limits/maxBodyBytes`` and ``Limits/maxDepth``. After an
/// error the parser throws the same error again.
public final class MultipartReader {
    /// The boundary, without the leading `--`.
    public let boundary: String
    /// Whether parts must carry `Content-Disposition: form-data` with a `name` (RFC 7578).
    public let isFormData: Bool
    /// How the body is read.
    public let options: Options
    /// The bounds obeyed.
    public let limits: Limits
    /// How deep this body is nested: 1 for a body, 2 for a multipart inside one of its parts.
    public let depth: Int
    /// The offset of this body's first byte in the outermost body (for a nested body), added
    /// to every offset reported.
    public let baseOffset: Int

    enum State {
        case preamble
        case boundaryLine(BoundaryLine)
        case headers
        case body
        case epilogue
    }

    /// Where the parser is on the line that a delimiter started.
    enum BoundaryLine {
        case start, dash, padding, carriageReturn
    }

    /// `LF--boundary` (a CR before it is dropped), or `CRLF--boundary` when only CRLF ends a line.
    let delimiter: [UInt8]
    /// Whether a bare LF ends a line (``Options/lineEndings`` is ``LineEndings/crlfOrLF``).
    let acceptsBareLineFeeds: Bool
    /// How many bytes of ``delimiter`` the input seen so far ends with.
    var matched: Int
    /// How many of the ``matched`` bytes were not in the input: the line break assumed before
    /// the first byte of the body and of each part's body, so that a boundary there is found.
    var assumed: Int
    /// With bare line feeds: a CR held back from the body because a delimiter may follow it.
    var pendingCarriageReturn = false
    var state = State.preamble
    /// Bytes fed so far.
    var consumed = 0
    /// The index of the part being read; also how many parts were completed.
    var partIndex = 0
    var section = HeaderSection(start: 0)
    var head: PartHead?
    var accumulator: PartBodyAccumulator?
    var completed: [Part] = []
    var failure: SatchelError?
    var isFinished = false
    /// The start of the body, to quote when the boundary never appears.
    var firstLine: [UInt8] = []
    var firstLineComplete = false

    /// Creates a parser for a body with the given boundary.
    ///
    /// - Parameters:
    ///   - boundary: The `boundary` parameter of the Content-Type.
    ///   - isFormData: Whether every part must have `Content-Disposition: form-data; name=…`.
    ///   - options: Strict or lenient, and where large bodies go.
    ///   - limits: The bounds to obey.
    ///   - depth: The nesting level of this body; 1 unless it is a part of another multipart.
    ///   - baseOffset: Added to every offset reported (the offset of a nested body).
    /// - Throws: ``SatchelError/Code/invalidMediaType`` for an invalid boundary;
    ///   ``SatchelError/Code/limitExceeded`` when `depth` exceeds ``Limits/maxDepth``.
    public init(
        boundary: String, isFormData: Bool = true, options: Options = Options(), limits: Limits = .default,
        depth: Int = 1, baseOffset: Int = 0
    ) throws(SatchelError) {
        try Self.validate(boundary: boundary, lenient: options.lenient)
        if depth > limits.maxDepth {
            throw SatchelError.limitExceeded(
                "maxDepth", limits.maxDepth, "a multipart body nested \(depth) deep", offset: baseOffset)
        }
        self.boundary = boundary
        self.isFormData = isFormData
        self.options = options
        self.limits = limits
        self.depth = depth
        self.baseOffset = baseOffset
        acceptsBareLineFeeds = options.lineEndings == .crlfOrLF
        delimiter = Array((acceptsBareLineFeeds ? "\n--" : "\r\n--").utf8) + Array(boundary.utf8)
        // The body starts as if after a line break, so a boundary on its first line is found.
        matched = acceptsBareLineFeeds ? 1 : 2
        assumed = matched
    }

    /// Creates a parser for a body of the given multipart Content-Type: its boundary, and
    /// form-data rules for `multipart/form-data`.
    ///
    /// - Throws: ``SatchelError/Code/invalidMediaType`` when the type is not multipart or has a
    ///   missing or invalid boundary, and as ``init(boundary:isFormData:options:limits:depth:baseOffset:)``.
    public convenience init(
        contentType: MediaType, options: Options = Options(), limits: Limits = .default,
        depth: Int = 1, baseOffset: Int = 0
    ) throws(SatchelError) {
        let boundary = try Self.boundary(of: contentType, lenient: options.lenient)
        try self.init(
            boundary: boundary, isFormData: contentType.subtype == "form-data", options: options,
            limits: limits, depth: depth, baseOffset: baseOffset)
    }

    /// Parses a whole body.
    public static func read(
        _ body: [UInt8], boundary: String, isFormData: Bool = true, options: Options = Options(),
        limits: Limits = .default
    ) throws(SatchelError) -> [Part] {
        let parser = try MultipartReader(boundary: boundary, isFormData: isFormData, options: options, limits: limits)
        let parts = try parser.feed(body)
        try parser.finish()
        return parts
    }

    /// How many bytes were fed so far.
    public var bytesConsumed: Int { consumed }

    /// How many parts were completed so far.
    public var partCount: Int { partIndex }

    /// Whether the closing boundary was seen (what follows it is the epilogue).
    public var isComplete: Bool {
        if case .epilogue = state { return true }
        return false
    }

    /// Feeds the next chunk.
    @discardableResult
    public func feed(_ chunk: [UInt8]) throws(SatchelError) -> [Part] {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in try feed(UnsafeRawBufferPointer(chunk)) }
    }

    /// Feeds the next chunk of the body.
    ///
    /// - Returns: The parts whose closing delimiter is in this chunk, in order.
    /// - Throws: ``SatchelError`` as soon as the bytes so far cannot start a valid body.
    @discardableResult
    public func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) -> [Part] {
        if let failure { throw failure }
        if isFinished { throw SatchelError(.invalidArgument, "the multipart parser was fed after finish()") }
        defer { completed = [] }
        do throws(SatchelError) {
            if chunk.count > limits.maxBodyBytes - consumed {
                throw SatchelError.limitExceeded(
                    "maxBodyBytes", limits.maxBodyBytes,
                    "a multipart body of more than \(limits.maxBodyBytes) bytes (in \(partName))",
                    offset: baseOffset + limits.maxBodyBytes)
            }
            let bytes = chunk.bindMemory(to: UInt8.self)
            if let start = bytes.baseAddress, !bytes.isEmpty {
                try process(start, count: bytes.count)
            }
            return completed
        } catch {
            partsBeforeFailure = completed
            fail(error)
            throw error
        }
    }

    /// The parts the chunk that failed had completed before the error, which ``feed(_:)-([UInt8])``
    /// could not return (a reader that hands parts over still owes them to its caller).
    public private(set) var partsBeforeFailure: [Part] = []

    /// Ends the body.
    ///
    /// - Throws: ``SatchelError/Code/truncatedInput`` when the body ended before its closing
    ///   boundary (inside the headers or body of a part, or right after a boundary);
    ///   ``SatchelError/Code/syntaxError`` when the boundary never appeared.
    public func finish() throws(SatchelError) {
        if let failure { throw failure }
        isFinished = true
        let end = baseOffset + consumed
        let error: SatchelError
        switch state {
        case .epilogue:
            return
        case .preamble where consumed == 0:
            error = SatchelError(.truncatedInput, "the multipart body is empty", offset: end)
        case .preamble:
            let start = String(decoding: firstLine, as: UTF8.self)
            error = SatchelError(
                .syntaxError,
                "the boundary \(delimiterText) never appears in the \(consumed) bytes of the body "
                    + "(wrong boundary?); its first line is \(Value.string(start).canonicalJSON())",
                offset: end)
        case .boundaryLine:
            let boundary = partIndex == 0 ? "its first boundary" : "the boundary that ends part \(partIndex - 1)"
            error = SatchelError(
                .truncatedInput,
                "missing final boundary: the body ends after \(boundary) without \"--\" (expected \(closingDelimiterText))",
                offset: end)
        case .headers where section.byteCount == 0:
            error = SatchelError(
                .truncatedInput,
                "missing final boundary: the body ends after the boundary that opens \(partName) "
                    + "(expected \(closingDelimiterText))",
                offset: end)
        case .headers:
            error = SatchelError(.truncatedInput, "the body ends inside the headers of \(partName)", offset: end)
        case .body:
            error = SatchelError(
                .truncatedInput,
                "the body ends inside the body of \(partName): no delimiter \(delimiterText) closes it",
                offset: end)
        }
        fail(error)
        throw error
    }

    /// The absolute offset of `index` in the chunk being processed.
    func offset(of index: Int) -> Int { baseOffset + consumed + index }

    private func fail(_ error: SatchelError) {
        failure = error
        accumulator = nil  // removes a temporary file being written
        head = nil
        completed = []
    }

    func recordFirstLine(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) {
        var index = start
        while !firstLineComplete && index < end && firstLine.count < 80 {
            if bytes[index] == 0x0A || bytes[index] == 0x0D {
                firstLineComplete = true
            } else {
                firstLine.append(bytes[index])
            }
            index += 1
        }
    }

    // MARK: - Messages

    /// "part N", the part being read.
    var partName: String { "part \(partIndex)" }

    /// `"--boundary"`, quoted for a message.
    var delimiterText: String { "\"--\(boundary)\"" }

    /// `"--boundary--"`, quoted for a message.
    var closingDelimiterText: String { "\"--\(boundary)--\"" }

    func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x0D: return "CR"
        case 0x0A: return "LF"
        case 0x21..<0x7F: return "'\(Character(Unicode.Scalar(byte)))'"
        default: return "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }
}
