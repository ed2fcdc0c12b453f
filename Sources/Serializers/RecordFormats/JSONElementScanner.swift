// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Splits a JSON document fed in chunks into the elements of the array at a ``JSONPointer`` and
/// the rest (the *envelope*), without parsing either: it follows the structure only as far as
/// it needs to find the array and each element's end.
///
/// Validation is left to whoever reads the segments (``JSONElementReader``): the envelope's
/// bytes go to a strict reader as they come, each element's to the element decoders. Where the
/// structure it follows is broken, the scanner hands the envelope up to the offending byte over
/// first, so the strict reader names the error, and only then throws its own.
struct JSONElementScanner {
    /// A piece of a chunk; pieces come in document order.
    enum Segment {
        /// Bytes outside the matched arrays' elements (their `[` and `]` included).
        case envelope(Range<Int>)
        /// Bytes of the element `index` (counted over every match), which starts at document
        /// offset `offset`.
        case element(Range<Int>, Piece, index: Int, offset: Int)
    }

    /// Which part of an element a segment holds.
    enum Piece {
        case whole, first, middle, last
    }

    private enum Expect {
        case value, firstValueOrClose, keyOrClose, key, colon, commaOrClose, end
    }

    private enum Token {
        case none, string, key, scalar
    }

    private enum ElementKind {
        case container, string, scalar
    }

    private struct Frame {
        var isObject: Bool
        /// Whether this container is the value at the pointer's first `depth` tokens.
        var onPath: Bool
        var index = 0
        /// In an object on the path: whether the member being read is named by the next token.
        var memberMatches = false
    }

    let pointer: JSONPointer
    private let maxDepth: Int
    private let maxRecordBytes: Int
    private let maxKeyBytes: Int
    /// The document offset of the next chunk's first byte.
    private(set) var consumed = 0
    /// How many arrays the pointer matched so far.
    private(set) var matches = 0
    /// How many elements were found so far.
    private(set) var elementCount = 0

    private var frames: [Frame] = []
    private var expect = Expect.value
    private var token = Token.none
    private var escaped = false
    private var key: [UInt8] = []

    private var inElements = false
    /// Between elements: whether an element (after `,`) must come, or `]` may.
    private var elementRequired = false
    private var afterElement = false
    private var inElement = false
    private var elementKind = ElementKind.scalar
    private var closers: [UInt8] = []
    private var elementInString = false
    private var elementOffset = 0
    private var elementStartedInChunk = false

    init(pointer: JSONPointer, limits: Limits) {
        self.pointer = pointer
        maxDepth = limits.maxDepth
        maxRecordBytes = limits.maxRecordBytes
        maxKeyBytes = limits.maxStringBytes
    }

    /// Scans the next chunk, handing `emit` its segments in order.
    /// - Throws: ``SatchelError``: the pointer's value is not an array
    ///   (``SatchelError/Code/typeMismatch``); an element past ``Limits/maxRecordBytes`` or
    ///   ``Limits/maxDepth``; broken structure; what `emit` throws.
    mutating func scan(
        _ chunk: UnsafeBufferPointer<UInt8>, _ emit: (Segment) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        let count = chunk.count
        var index = 0
        var envelopeStart: Int? = inElements ? nil : 0
        var elementStart = 0
        while index < count {
            if inElement {
                index = try scanElement(chunk, from: index)
                if !inElement {
                    try checkSize(end: consumed + index)
                    try emit(
                        .element(
                            elementStart..<index, elementStartedInChunk ? .whole : .last, index: elementCount - 1,
                            offset: elementOffset))
                }
                continue
            }
            let byte = chunk[index]
            if inElements {
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D:
                    break
                case UInt8(ascii: ","):
                    guard afterElement else { throw syntaxError("unexpected ','", at: index) }
                    afterElement = false
                    elementRequired = true
                case UInt8(ascii: "]"):
                    guard !elementRequired else {
                        throw syntaxError("an element must follow ',' (a trailing comma)", at: index)
                    }
                    inElements = false
                    envelopeStart = index
                    closeValue()
                default:
                    guard !afterElement else {
                        throw syntaxError(
                            "expected ',' or ']' after \(pointer.appending(index: elementCount - 1))", at: index)
                    }
                    try beginElement(byte, at: index)
                    elementRequired = false
                    elementStart = index
                    if elementKind == .scalar { continue }  // scanElement reads its first byte
                }
                index += 1
                continue
            }
            switch token {
            case .string, .key:
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    if token == .key {
                        let depth = frames.count - 1
                        frames[depth].memberMatches = frames[depth].onPath && Self.name(key) == pointer.tokens[depth]
                        expect = .colon
                    } else {
                        closeValue()
                    }
                    token = .none
                    index += 1
                    continue
                }
                if token == .key && frames[frames.count - 1].onPath {
                    guard key.count < maxKeyBytes else {
                        throw try failure(
                            .limitExceeded("maxStringBytes", maxKeyBytes, "a member name"), envelopeStart, index, emit)
                    }
                    key.append(byte)
                }
                index += 1
                continue
            case .scalar:
                switch byte {
                case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    token = .none
                    closeValue()
                default:
                    index += 1
                }
                continue
            case .none:
                break
            }
            if consumed + index < 3 && frames.isEmpty && expect == .value && byte >= 0xBB {
                index += 1  // a byte order mark's (0xEF 0xBB 0xBF); the envelope's reader checks it
                continue
            }
            switch (byte, expect) {
            case (0x20, _), (0x09, _), (0x0A, _), (0x0D, _):
                break
            case (UInt8(ascii: "]"), .firstValueOrClose), (UInt8(ascii: "]"), .commaOrClose),
                (UInt8(ascii: "}"), .keyOrClose), (UInt8(ascii: "}"), .commaOrClose):
                guard frames.last?.isObject == (byte == UInt8(ascii: "}")) else {
                    throw try failure(
                        syntaxError("unexpected '\(Character(Unicode.Scalar(byte)))'", at: index), envelopeStart, index,
                        emit)
                }
                frames.removeLast()
                closeValue()
            case (_, .value), (_, .firstValueOrClose):
                if isTarget {
                    guard byte == UInt8(ascii: "[") else {
                        throw try failure(
                            SatchelError(
                                .typeMismatch,
                                "\(pointer.description.isEmpty ? "the document" : pointer.description) is \(Self.kind(of: byte)), not an array",
                                offset: consumed + index), envelopeStart, index, emit)
                    }
                    try emit(.envelope((envelopeStart ?? index)..<(index + 1)))
                    envelopeStart = nil
                    inElements = true
                    elementRequired = false
                    afterElement = false
                    matches += 1
                } else {
                    try beginEnvelopeValue(byte, at: index, envelopeStart, emit)
                }
            case (UInt8(ascii: "\""), .keyOrClose), (UInt8(ascii: "\""), .key):
                token = .key
                key.removeAll(keepingCapacity: true)
            case (UInt8(ascii: ":"), .colon):
                expect = .value
            case (UInt8(ascii: ","), .commaOrClose):
                if frames[frames.count - 1].isObject {
                    expect = .key
                } else {
                    frames[frames.count - 1].index += 1
                    expect = .value
                }
            default:
                throw try failure(
                    syntaxError("unexpected '\(Character(Unicode.Scalar(byte)))'", at: index), envelopeStart, index,
                    emit)
            }
            index += 1
        }
        if inElement {
            try checkSize(end: consumed + count)
            try emit(
                .element(
                    elementStart..<count, elementStartedInChunk ? .first : .middle, index: elementCount - 1,
                    offset: elementOffset))
            elementStartedInChunk = false
        }
        if let envelopeStart, envelopeStart < count { try emit(.envelope(envelopeStart..<count)) }
        consumed += count
    }

    /// Checks that the document did not end inside the matched array.
    /// - Throws: ``SatchelError/Code/truncatedInput`` when it did.
    func finish() throws(SatchelError) {
        guard inElements else { return }
        let cut =
            inElement
            ? "inside \(pointer.appending(index: elementCount - 1))"
            : "inside \(pointer.description.isEmpty ? "the array" : pointer.description)"
        throw SatchelError(
            .truncatedInput, "the document ends \(cut), after \(elementCount - (inElement ? 1 : 0)) whole elements",
            offset: consumed)
    }

    /// Whether a value starting now is the one the pointer names.
    private var isTarget: Bool {
        guard let frame = frames.last else { return pointer.tokens.isEmpty }
        guard frame.onPath, frames.count == pointer.tokens.count else { return false }
        return frame.isObject ? frame.memberMatches : pointer.tokens[frames.count - 1] == String(frame.index)
    }

    /// Whether a container starting now lies on the way to the pointer's value.
    private var leadsToTarget: Bool {
        guard let frame = frames.last else { return !pointer.tokens.isEmpty }
        guard frame.onPath, frames.count < pointer.tokens.count else { return false }
        return frame.isObject ? frame.memberMatches : pointer.tokens[frames.count - 1] == String(frame.index)
    }

    private mutating func beginEnvelopeValue(
        _ byte: UInt8, at index: Int, _ envelopeStart: Int?, _ emit: (Segment) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            guard frames.count < maxDepth else {
                throw try failure(
                    .limitExceeded("maxDepth", maxDepth, "the document's nesting", offset: consumed + index),
                    envelopeStart, index, emit)
            }
            let isObject = byte == UInt8(ascii: "{")
            frames.append(Frame(isObject: isObject, onPath: leadsToTarget))
            expect = isObject ? .keyOrClose : .firstValueOrClose
        case UInt8(ascii: "\""):
            token = .string
        case UInt8(ascii: "]"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"):
            throw try failure(
                syntaxError("unexpected '\(Character(Unicode.Scalar(byte)))'", at: index), envelopeStart, index, emit)
        default:
            token = .scalar
        }
    }

    private mutating func beginElement(_ byte: UInt8, at index: Int) throws(SatchelError) {
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            elementKind = .container
            closers.removeAll(keepingCapacity: true)
            closers.append(byte + 2)  // '{' + 2 is '}', '[' + 2 is ']'
            elementInString = false
            escaped = false
        case UInt8(ascii: "\""):
            elementKind = .string
            escaped = false
        case UInt8(ascii: "}"), UInt8(ascii: ":"):
            throw syntaxError(
                "unexpected '\(Character(Unicode.Scalar(byte)))' where an element should start", at: index)
        default:
            elementKind = .scalar
        }
        inElement = true
        elementStartedInChunk = true
        elementOffset = consumed + index
        elementCount += 1
    }

    /// Reads the element from `start` until its end (returned, with `inElement` cleared) or
    /// the end of the chunk.
    private mutating func scanElement(_ chunk: UnsafeBufferPointer<UInt8>, from start: Int) throws(SatchelError) -> Int
    {
        var index = start
        let count = chunk.count
        switch elementKind {
        case .scalar:
            while index < count {
                switch chunk[index] {
                case 0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ","), UInt8(ascii: "]"), UInt8(ascii: "}"):
                    inElement = false
                    afterElement = true
                    return index
                default:
                    index += 1
                }
            }
        case .string:
            var escaped = self.escaped
            defer { self.escaped = escaped }
            while index < count {
                let byte = chunk[index]
                index += 1
                if escaped {
                    escaped = false
                } else if byte == 0x5C {
                    escaped = true
                } else if byte == 0x22 {
                    inElement = false
                    afterElement = true
                    return index
                }
            }
        case .container:
            var escaped = self.escaped
            var inString = elementInString
            defer {
                self.escaped = escaped
                elementInString = inString
            }
            while index < count {
                let byte = chunk[index]
                index += 1
                if inString {
                    if escaped {
                        escaped = false
                    } else if byte == 0x5C {
                        escaped = true
                    } else if byte == 0x22 {
                        inString = false
                    }
                    continue
                }
                switch byte {
                case 0x22:
                    inString = true
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    guard closers.count < maxDepth else {
                        throw SatchelError.limitExceeded(
                            "maxDepth", maxDepth, "\(pointer.appending(index: elementCount - 1))'s nesting",
                            offset: consumed + index - 1)
                    }
                    closers.append(byte + 2)
                case UInt8(ascii: "}"), UInt8(ascii: "]"):
                    guard closers.last == byte else {
                        throw syntaxError(
                            "unexpected '\(Character(Unicode.Scalar(byte)))' in \(pointer.appending(index: elementCount - 1))",
                            at: index - 1)
                    }
                    closers.removeLast()
                    if closers.isEmpty {
                        inElement = false
                        afterElement = true
                        return index
                    }
                default:
                    break
                }
            }
        }
        return index
    }

    /// A member name as read (its escapes decoded when it has any).
    private static func name(_ raw: [UInt8]) -> String {
        guard raw.contains(0x5C) else { return String(decoding: raw, as: UTF8.self) }
        guard case let .string(name)? = try? JSONReader().read([0x22] + raw + [0x22]) else { return "" }
        return name
    }

    private mutating func closeValue() {
        expect = frames.isEmpty ? .end : .commaOrClose
    }

    private func checkSize(end: Int) throws(SatchelError) {
        guard end - elementOffset > maxRecordBytes else { return }
        throw SatchelError.limitExceeded(
            "maxRecordBytes", maxRecordBytes, pointer.appending(index: elementCount - 1), offset: elementOffset)
    }

    private func syntaxError(_ message: String, at index: Int) -> SatchelError {
        SatchelError(.syntaxError, message, offset: consumed + index)
    }

    /// `error`, after the envelope up to and including the byte at `index` went to `emit`: the
    /// envelope's reader names a broken document first.
    private func failure(
        _ error: SatchelError, _ envelopeStart: Int?, _ index: Int, _ emit: (Segment) throws(SatchelError) -> Void
    ) throws(SatchelError) -> SatchelError {
        try emit(.envelope((envelopeStart ?? index)..<(index + 1)))
        return error
    }

    /// What a value starting with `byte` is, for an error.
    private static func kind(of byte: UInt8) -> String {
        switch byte {
        case UInt8(ascii: "{"): "an object"
        case UInt8(ascii: "\""): "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): "a boolean"
        case UInt8(ascii: "n"): "null"
        default: "a number"
        }
    }
}
