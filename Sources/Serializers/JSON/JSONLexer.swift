// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A strict, resumable RFC 8259 validator that the JSON text streams through on its way to
/// json-c.
///
/// json-c builds the tree, but its strict mode accepts things RFC 8259 forbids (`NaN`, `[-01]`,
/// `[1.]`, `{'a':1}`, raw control characters in strings), replaces lone surrogates with U+FFFD
/// silently, clamps integers beyond 64 bits, cuts object keys at `\u0000`, checks UTF-8 only
/// loosely (and wrongly across chunks), and has no string-length bound. The lexer checks the
/// whole grammar itself, byte by byte and across chunk boundaries, so json-c only ever sees valid
/// text, and it reports every error with the byte offset where it was found.
///
/// It also rewrites the few tokens json-c cannot represent, without changing any other byte:
/// - an integer beyond 64 bits, with ``JSONReadingOptions/BigIntegers/double`` or `.string`,
///   becomes `N.0` or `"N"`;
/// - `\u0000` inside an object key becomes `\ufdd0` (a noncharacter), which the tree conversion
///   turns back (a key holding a real U+FDD0 as well is refused as ambiguous);
/// - an escaped surrogate pair for U+1D800–U+1DFFF, U+2D800–U+2DFFF and the like (json-c 0.16
///   decodes those to U+FFFD) becomes the character's UTF-8 bytes.
struct JSONLexer {
    /// What the lexer expects next outside a token.
    enum Expectation: UInt8 {
        case value, firstValueOrEnd, key, firstKeyOrEnd, colon, commaOrEnd, nothing
    }

    /// The token being read, if any.
    enum Token: UInt8 {
        case none, string, escape, unicodeEscape, lowSurrogateBackslash, lowSurrogateU
        case utf8Continuation, number, literal
    }

    /// Where a number is in its grammar: `-? int frac? exp?`.
    enum NumberPhase: UInt8 {
        case sign, zero, integer, fractionStart, fraction, exponentStart, exponentSign, exponent
    }

    let options: JSONReadingOptions
    let maxDepth: Int
    let maxStringBytes: Int

    // Structure.
    var expectation = Expectation.value
    var containers: [Bool] = []  // true for an object
    var topLevelIsScalar = false

    // The current token.
    var token = Token.none
    var tokenStart = 0  // absolute offset of the token's first byte
    var stringIsKey = false
    var stringBytes = 0
    var escapeDigits = 0
    var codeUnit: UInt32 = 0
    var highSurrogate: UInt32 = 0
    var highSurrogateOffset = 0
    var utf8Remaining = 0
    var utf8Lower: UInt8 = 0x80
    var utf8Upper: UInt8 = 0xBF
    var scalar: UInt32 = 0
    var numberPhase = NumberPhase.sign
    var numberNegative = false
    var numberMagnitude: UInt64 = 0
    var numberOverflow = false
    var literal: StaticString = "null"
    var literalIndex = 0

    // Rewriting and what the tree conversion must know.
    var heldBytes: [UInt8] = []
    var holdStart: Int?  // index in the current chunk where a held token starts
    var keyHasNullCharacter = false
    var keyHasNoncharacterFDD0 = false

    /// Bytes seen before the current chunk.
    var consumed = 0

    init(options: JSONReadingOptions, limits: Limits) {
        self.options = options
        self.maxDepth = max(0, min(limits.maxDepth, JSONReadingOptions.maximumSupportedDepth))
        self.maxStringBytes = limits.maxStringBytes
    }

    /// Whether a complete top-level value has been read.
    var isComplete: Bool { expectation == .nothing && token == .none }

    // MARK: Errors

    func failure(_ code: SatchelError.Code, _ message: String, at offset: Int) -> SatchelError {
        SatchelError(code, message, offset: offset)
    }

    static func describe(_ byte: UInt8) -> String {
        switch byte {
        case 0x21...0x7E: "'\(Character(Unicode.Scalar(byte)))'"
        default: "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }
    }

    func unexpected(_ byte: UInt8, at offset: Int) -> SatchelError {
        let wanted: String
        switch expectation {
        case .value: wanted = "a value"
        case .firstValueOrEnd: wanted = "a value or ']'"
        case .key: wanted = "a quoted member name"
        case .firstKeyOrEnd: wanted = "a quoted member name or '}'"
        case .colon: wanted = "':' after the member name"
        case .commaOrEnd: wanted = containers.last == true ? "',' or '}'" : "',' or ']'"
        case .nothing: wanted = "nothing after the JSON value"
        }
        var message = "expected \(wanted), found \(Self.describe(byte))"
        if byte == UInt8(ascii: "'") { message += " (JSON strings use double quotes)" }
        if byte == UInt8(ascii: "N") || byte == UInt8(ascii: "I") { message += " (JSON has no NaN or Infinity)" }
        if byte == UInt8(ascii: "/") { message += " (JSON has no comments)" }
        return failure(.syntaxError, message, at: offset)
    }

    // MARK: Scanning

    /// Validates `chunk`, calling `emit` with the bytes to hand to json-c (the chunk itself,
    /// except for rewritten tokens).
    ///
    /// - Throws: ``SatchelError`` at the first invalid byte; nothing after it is emitted.
    mutating func scan(
        _ chunk: UnsafeBufferPointer<UInt8>, emit: (UnsafeBufferPointer<UInt8>) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        var index = 0
        var runStart = 0
        let count = chunk.count
        while index < count {
            switch token {
            case .none:
                // Structure and whitespace stay in this loop until a token starts.
                repeat {
                    let byte = chunk[index]
                    switch byte {
                    case 0x20, 0x0A, 0x0D, 0x09:
                        index += 1
                        while index < count {
                            let next = chunk[index]
                            guard next == 0x20 || next == 0x0A || next == 0x0D || next == 0x09 else { break }
                            index += 1
                        }
                    case UInt8(ascii: "\""):
                        guard
                            expectation == .value || expectation == .firstValueOrEnd
                                || expectation == .key || expectation == .firstKeyOrEnd
                        else { throw unexpected(byte, at: consumed + index) }
                        stringIsKey = expectation == .key || expectation == .firstKeyOrEnd
                        if containers.isEmpty { topLevelIsScalar = true }
                        token = .string
                        tokenStart = consumed + index
                        stringBytes = 0
                        index += 1
                    case UInt8(ascii: "{"), UInt8(ascii: "["):
                        guard expectation == .value || expectation == .firstValueOrEnd else {
                            throw unexpected(byte, at: consumed + index)
                        }
                        if containers.count >= maxDepth {
                            throw SatchelError.limitExceeded(
                                "maxDepth", maxDepth, "nesting", offset: consumed + index)
                        }
                        let isObject = byte == UInt8(ascii: "{")
                        containers.append(isObject)
                        expectation = isObject ? .firstKeyOrEnd : .firstValueOrEnd
                        index += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"):
                        let closesObject = byte == UInt8(ascii: "}")
                        let valid =
                            containers.last == closesObject
                            && (expectation == .commaOrEnd
                                || expectation == (closesObject ? .firstKeyOrEnd : .firstValueOrEnd))
                        guard valid else { throw unexpected(byte, at: consumed + index) }
                        containers.removeLast()
                        expectation = containers.isEmpty ? .nothing : .commaOrEnd
                        index += 1
                    case UInt8(ascii: ","):
                        guard expectation == .commaOrEnd else { throw unexpected(byte, at: consumed + index) }
                        expectation = containers.last == true ? .key : .value
                        index += 1
                    case UInt8(ascii: ":"):
                        guard expectation == .colon else { throw unexpected(byte, at: consumed + index) }
                        expectation = .value
                        index += 1
                    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                        guard expectation == .value || expectation == .firstValueOrEnd else {
                            throw unexpected(byte, at: consumed + index)
                        }
                        if containers.isEmpty { topLevelIsScalar = true }
                        token = .number
                        tokenStart = consumed + index
                        holdStart = index
                        numberNegative = byte == UInt8(ascii: "-")
                        numberMagnitude = 0
                        numberOverflow = false
                        if numberNegative {
                            numberPhase = .sign
                        } else {
                            numberPhase = byte == UInt8(ascii: "0") ? .zero : .integer
                            numberMagnitude = UInt64(byte &- UInt8(ascii: "0"))
                        }
                        index += 1
                    case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                        guard expectation == .value || expectation == .firstValueOrEnd else {
                            throw unexpected(byte, at: consumed + index)
                        }
                        if containers.isEmpty { topLevelIsScalar = true }
                        token = .literal
                        tokenStart = consumed + index
                        literal = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
                        literalIndex = 1
                        index += 1
                    default:
                        if byte == 0 || (consumed + index == 0 && (byte == 0xFE || byte == 0xFF)) {
                            throw failure(
                                .invalidEncoding,
                                "JSON text must be UTF-8 (RFC 8259 §8.1); this looks like UTF-16 or UTF-32",
                                at: consumed + index)
                        }
                        throw unexpected(byte, at: consumed + index)
                    }
                } while token == .none && index < count

            case .string:
                // The hot loop: ASCII eight bytes at a time, whole UTF-8 sequences validated in
                // place; anything else (a quote, an escape, a control byte, a sequence cut by the
                // chunk's end or an invalid one) leaves the loop for the byte-wise states below.
                guard let base = chunk.baseAddress else { break }
                var cursor = index
                while true {
                    while cursor &+ 8 <= count {
                        let word = UnsafeRawPointer(base + cursor).loadUnaligned(as: UInt64.self)
                        if Self.hasSpecialByte(word) { break }
                        cursor &+= 8
                    }
                    while cursor < count {
                        let byte = base[cursor]
                        if byte < 0x20 || byte == 0x22 || byte == 0x5C || byte >= 0x80 { break }
                        cursor &+= 1
                    }
                    guard cursor < count, base[cursor] >= 0x80 else { break }
                    let length = Self.validSequenceLength(base + cursor, available: count - cursor)
                    guard length > 0 else { break }
                    if stringIsKey && length == 3 && base[cursor] == 0xEF && base[cursor &+ 1] == 0xB7
                        && base[cursor &+ 2] == 0x90
                    {
                        try noteNoncharacterInKey(at: consumed + cursor)
                    }
                    cursor &+= length
                }
                stringBytes += cursor - index
                index = cursor
                if stringBytes > maxStringBytes { throw stringTooLong() }
                guard index < count else { break }
                let byte = chunk[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    token = .none
                    if stringIsKey {
                        expectation = .colon
                    } else {
                        expectation = containers.isEmpty ? .nothing : .commaOrEnd
                    }
                case UInt8(ascii: "\\"):
                    // Held from its backslash until the escape ends, so that it can be rewritten.
                    token = .escape
                    holdStart = index - 1
                case 0x80...0xFF:
                    try beginUTF8(byte, at: consumed + index - 1)
                    stringBytes += 1
                default:
                    throw failure(
                        .syntaxError,
                        "unescaped control character \(Self.describe(byte)) in a string (write it as \\u\(Self.hex4(UInt32(byte))))",
                        at: consumed + index - 1)
                }

            case .utf8Continuation:
                let byte = chunk[index]
                guard byte >= utf8Lower && byte <= utf8Upper else {
                    throw failure(
                        .invalidEncoding, "invalid UTF-8: \(Self.describe(byte)) cannot continue the sequence",
                        at: consumed + index)
                }
                scalar = scalar << 6 | UInt32(byte & 0x3F)
                utf8Lower = 0x80
                utf8Upper = 0xBF
                utf8Remaining -= 1
                stringBytes += 1
                index += 1
                if utf8Remaining == 0 {
                    token = .string
                    if scalar == 0xFDD0 && stringIsKey { try noteNoncharacterInKey(at: consumed + index - 3) }
                }

            case .escape:
                let byte = chunk[index]
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                    UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                    token = .string
                    stringBytes += 1
                    try releaseHeld(in: chunk, upTo: index + 1, runStart: &runStart, replacement: nil, emit: emit)
                case UInt8(ascii: "u"):
                    token = .unicodeEscape
                    escapeDigits = 0
                    codeUnit = 0
                default:
                    throw failure(
                        .syntaxError, "invalid escape \\\(Character(Unicode.Scalar(byte)))", at: consumed + index - 1)
                }
                index += 1

            case .unicodeEscape:
                let byte = chunk[index]
                guard let digit = Self.hexValue(byte) else {
                    throw failure(
                        .syntaxError, "\\u must be followed by four hexadecimal digits, found \(Self.describe(byte))",
                        at: consumed + index)
                }
                codeUnit = codeUnit << 4 | digit
                escapeDigits += 1
                index += 1
                guard escapeDigits == 4 else { break }
                token = .string
                stringBytes += 3
                if highSurrogate != 0 {
                    guard (0xDC00...0xDFFF).contains(codeUnit) else {
                        throw failure(
                            .invalidEncoding,
                            "lone surrogate \\u\(Self.hex4(highSurrogate)): the next escape \\u\(Self.hex4(codeUnit)) is not a low surrogate",
                            at: highSurrogateOffset)
                    }
                    let scalar = JSONTape.scalar(high: highSurrogate, low: codeUnit)
                    highSurrogate = 0
                    if scalar & 0xF800 == 0xD800 {
                        // json-c 0.16 takes a decoded scalar whose low 16 bits look like a
                        // surrogate (U+1D800–U+1DFFF, U+2D800–U+2DFFF, …) for one and writes
                        // U+FFFD: hand it the scalar's UTF-8 bytes instead of the escape pair.
                        var bytes: [UInt8] = []
                        JSONTape.appendUTF8(of: scalar, to: &bytes)
                        try releaseHeld(in: chunk, upTo: index, runStart: &runStart, replacement: bytes, emit: emit)
                        continue
                    }
                } else if (0xD800...0xDBFF).contains(codeUnit) {
                    highSurrogate = codeUnit
                    highSurrogateOffset = consumed + index - 6
                    token = .lowSurrogateBackslash
                } else if (0xDC00...0xDFFF).contains(codeUnit) {
                    throw failure(
                        .invalidEncoding, "lone surrogate \\u\(Self.hex4(codeUnit))", at: consumed + index - 6)
                } else if stringIsKey && codeUnit == 0 {
                    try noteNullCharacterInKey(at: consumed + index - 6)
                    try releaseHeld(
                        in: chunk, upTo: index, runStart: &runStart, replacement: Array("\\ufdd0".utf8), emit: emit)
                    continue
                } else if stringIsKey && codeUnit == 0xFDD0 {
                    try noteNoncharacterInKey(at: consumed + index - 6)
                }
                if token == .string {
                    try releaseHeld(in: chunk, upTo: index, runStart: &runStart, replacement: nil, emit: emit)
                }

            case .lowSurrogateBackslash, .lowSurrogateU:
                let byte = chunk[index]
                let wanted = token == .lowSurrogateBackslash ? UInt8(ascii: "\\") : UInt8(ascii: "u")
                guard byte == wanted else {
                    throw failure(
                        .invalidEncoding,
                        "lone surrogate \\u\(Self.hex4(highSurrogate)) (a high surrogate must be followed by a \\u escape of a low surrogate)",
                        at: highSurrogateOffset)
                }
                index += 1
                if token == .lowSurrogateBackslash {
                    token = .lowSurrogateU
                } else {
                    token = .unicodeEscape
                    escapeDigits = 0
                    codeUnit = 0
                }

            case .number:
                while index < count {
                    let byte = chunk[index]
                    let isDigit = byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
                    switch numberPhase {
                    case .sign:
                        guard isDigit else { throw numberError("a digit after '-'", found: byte, at: index) }
                        numberPhase = byte == UInt8(ascii: "0") ? .zero : .integer
                        numberMagnitude = UInt64(byte &- UInt8(ascii: "0"))
                    case .zero, .integer:
                        if isDigit {
                            guard numberPhase == .integer else {
                                throw failure(.syntaxError, "a number cannot have a leading zero", at: tokenStart)
                            }
                            var magnitude = numberMagnitude
                            var overflow = numberOverflow
                            repeat {
                                let digit = chunk[index] &- UInt8(ascii: "0")
                                if digit >= 10 { break }
                                let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
                                let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
                                overflow = overflow || overflow1 || overflow2
                                magnitude = sum
                                index += 1
                            } while index < count
                            numberMagnitude = magnitude
                            numberOverflow = overflow
                            // Runs of digits skip the per-byte check below; a long integer is
                            // held and may become a string (`bigIntegers = .string`).
                            if consumed + index - tokenStart > maxStringBytes { throw stringTooLong() }
                            continue
                        } else if byte == UInt8(ascii: ".") {
                            numberPhase = .fractionStart
                        } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                            numberPhase = .exponentStart
                        } else {
                            try endNumber(in: chunk, at: index, runStart: &runStart, emit: emit)
                            break
                        }
                    case .fractionStart:
                        guard isDigit else { throw numberError("a digit after '.'", found: byte, at: index) }
                        numberPhase = .fraction
                    case .fraction:
                        if isDigit {
                            index += 1
                            while index < count && chunk[index] &- UInt8(ascii: "0") < 10 { index += 1 }
                            if consumed + index - tokenStart > maxStringBytes { throw stringTooLong() }
                            continue
                        }
                        if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                            numberPhase = .exponentStart
                        } else if !isDigit {
                            try endNumber(in: chunk, at: index, runStart: &runStart, emit: emit)
                            break
                        }
                    case .exponentStart:
                        if byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") {
                            numberPhase = .exponentSign
                        } else {
                            guard isDigit else { throw numberError("a digit in the exponent", found: byte, at: index) }
                            numberPhase = .exponent
                        }
                    case .exponentSign:
                        guard isDigit else { throw numberError("a digit in the exponent", found: byte, at: index) }
                        numberPhase = .exponent
                    case .exponent:
                        if !isDigit {
                            try endNumber(in: chunk, at: index, runStart: &runStart, emit: emit)
                            break
                        }
                    }
                    if token != .number { break }
                    index += 1
                    if consumed + index - tokenStart > maxStringBytes { throw stringTooLong() }
                }

            case .literal:
                let byte = chunk[index]
                let expected = literal.withUTF8Buffer { $0[literalIndex] }
                guard byte == expected else {
                    throw failure(
                        .syntaxError, "invalid literal: expected \"\(literal)\", found \(Self.describe(byte))",
                        at: consumed + index)
                }
                index += 1
                literalIndex += 1
                if literalIndex == literal.utf8CodeUnitCount {
                    token = .none
                    expectation = containers.isEmpty ? .nothing : .commaOrEnd
                }
            }
        }

        // Emit what was scanned; hold back a token that may still be rewritten.
        if let start = holdStart {
            if start > runStart { try emit(UnsafeBufferPointer(rebasing: chunk[runStart..<start])) }
            heldBytes.append(contentsOf: chunk[max(start, runStart)..<count])
            holdStart = 0
            runStart = count
        } else if runStart < count {
            try emit(UnsafeBufferPointer(rebasing: chunk[runStart..<count]))
        }
        consumed += count
    }

    /// Ends the input.
    /// - Throws: ``SatchelError/Code/truncatedInput`` when the text stops inside a value.
    mutating func finish(emit: (UnsafeBufferPointer<UInt8>) throws(SatchelError) -> Void) throws(SatchelError) {
        if token == .number {
            try [UInt8]().withUnsafeBufferPointer { (empty) throws(SatchelError) in
                var runStart = 0
                holdStart = 0
                try endNumber(in: empty, at: 0, runStart: &runStart, emit: emit)
            }
        }
        guard isComplete else {
            let what: String
            switch token {
            case .string, .escape, .unicodeEscape, .lowSurrogateBackslash, .lowSurrogateU, .utf8Continuation:
                what = "inside a string that starts at byte offset \(tokenStart)"
            case .literal: what = "inside the literal \"\(literal)\""
            case .number: what = "inside a number"
            case .none:
                if consumed == 0 || (expectation == .value && containers.isEmpty) {
                    throw failure(.truncatedInput, "no JSON value (the text is empty or only whitespace)", at: consumed)
                }
                what = "inside \(containers.count) unclosed \(containers.count == 1 ? "container" : "containers")"
            }
            throw failure(.truncatedInput, "the JSON text ends \(what)", at: consumed)
        }
        if topLevelIsScalar && !options.allowsTopLevelScalars {
            throw failure(
                .syntaxError, "the top-level value is not an object or array (allowsTopLevelScalars is off)", at: 0)
        }
    }

    // MARK: Token helpers

    private mutating func beginUTF8(_ lead: UInt8, at offset: Int) throws(SatchelError) {
        switch lead {
        case 0xC2...0xDF:
            utf8Remaining = 1; scalar = UInt32(lead & 0x1F)
        case 0xE0:
            utf8Remaining = 2; utf8Lower = 0xA0; scalar = 0
        case 0xE1...0xEC, 0xEE...0xEF:
            utf8Remaining = 2; scalar = UInt32(lead & 0x0F)
        case 0xED:
            utf8Remaining = 2; utf8Upper = 0x9F; scalar = 0xD
        case 0xF0:
            utf8Remaining = 3; utf8Lower = 0x90; scalar = 0
        case 0xF1...0xF3:
            utf8Remaining = 3; scalar = UInt32(lead & 0x07)
        case 0xF4:
            utf8Remaining = 3; utf8Upper = 0x8F; scalar = 4
        default:
            throw failure(
                .invalidEncoding, "invalid UTF-8: \(Self.describe(lead)) cannot start a character", at: offset)
        }
        token = .utf8Continuation
    }

    private func stringTooLong() -> SatchelError {
        .limitExceeded(
            "maxStringBytes", maxStringBytes, "a string longer than \(maxStringBytes) bytes", offset: tokenStart)
    }

    private func numberError(_ wanted: String, found byte: UInt8, at index: Int) -> SatchelError {
        failure(.syntaxError, "invalid number: expected \(wanted), found \(Self.describe(byte))", at: consumed + index)
    }

    private mutating func noteNullCharacterInKey(at offset: Int) throws(SatchelError) {
        keyHasNullCharacter = true
        if keyHasNoncharacterFDD0 { throw ambiguousKeys(at: offset) }
    }

    private mutating func noteNoncharacterInKey(at offset: Int) throws(SatchelError) {
        keyHasNoncharacterFDD0 = true
        if keyHasNullCharacter { throw ambiguousKeys(at: offset) }
    }

    private func ambiguousKeys(at offset: Int) -> SatchelError {
        failure(
            .invalidArgument,
            "member names containing both U+0000 and U+FDD0 are not supported (json-c cannot hold U+0000 in a name)",
            at: offset)
    }

    /// Ends the number whose delimiter is at `index` (exclusive end), rewriting it when it is an
    /// integer beyond 64 bits.
    private mutating func endNumber(
        in chunk: UnsafeBufferPointer<UInt8>, at index: Int, runStart: inout Int,
        emit: (UnsafeBufferPointer<UInt8>) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        switch numberPhase {
        case .sign, .fractionStart, .exponentStart, .exponentSign:
            throw failure(.syntaxError, "invalid number: it ends before its digits", at: consumed + index)
        default:
            break
        }
        token = .none
        expectation = containers.isEmpty ? .nothing : .commaOrEnd
        let isInteger = numberPhase == .zero || numberPhase == .integer
        let limit: UInt64 = numberNegative ? UInt64(Int64.max) + 1 : UInt64.max
        guard isInteger && (numberOverflow || numberMagnitude > limit) else {
            if heldBytes.isEmpty {
                holdStart = nil  // the number is part of the chunk's run: nothing to emit apart
            } else {
                try releaseHeld(in: chunk, upTo: index, runStart: &runStart, replacement: nil, emit: emit)
            }
            return
        }
        var text = heldBytes
        if let start = holdStart { text.append(contentsOf: chunk[start..<index]) }
        switch options.bigIntegers {
        case .throw:
            let shown =
                text.count > 40
                ? String(decoding: text.prefix(40), as: UTF8.self) + "… (\(text.count) digits)"
                : String(decoding: text, as: UTF8.self)
            throw failure(
                .numberOutOfRange, "the integer \(shown) is outside the 64-bit range (bigIntegers is .throw)",
                at: tokenStart)
        case .double:
            try releaseHeld(
                in: chunk, upTo: index, runStart: &runStart, replacement: text + Array(".0".utf8), emit: emit)
        case .string:
            try releaseHeld(
                in: chunk, upTo: index, runStart: &runStart,
                replacement: [UInt8(ascii: "\"")] + text + [UInt8(ascii: "\"")], emit: emit)
        }
    }

    /// Ends a held token at `index` (exclusive): emits the bytes before it, then either the
    /// held bytes unchanged (`replacement == nil`) or the replacement.
    private mutating func releaseHeld(
        in chunk: UnsafeBufferPointer<UInt8>, upTo index: Int, runStart: inout Int, replacement: [UInt8]?,
        emit: (UnsafeBufferPointer<UInt8>) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        guard let start = holdStart else { return }
        holdStart = nil
        let heldFromEarlierChunk = !heldBytes.isEmpty
        if let replacement {
            if !heldFromEarlierChunk && start > runStart {
                try emit(UnsafeBufferPointer(rebasing: chunk[runStart..<start]))
            }
            // A held escape keeps its leading backslash in `heldBytes` or the chunk; the replacement
            // covers the whole token, so drop what was held and what the chunk has of it.
            heldBytes.removeAll(keepingCapacity: true)
            try replacement.withUnsafeBufferPointer { (bytes) throws(SatchelError) in try emit(bytes) }
            runStart = index
        } else if heldFromEarlierChunk {
            try heldBytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in try emit(bytes) }
            heldBytes.removeAll(keepingCapacity: true)
        }
    }

    /// Whether any of the eight bytes is a quote, a backslash, a control byte or non-ASCII.
    @inline(__always)
    static func hasSpecialByte(_ word: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quote = word ^ 0x2222_2222_2222_2222
        let backslash = word ^ 0x5C5C_5C5C_5C5C_5C5C
        let control = (word &- 0x2020_2020_2020_2020) & ~word
        let quotes = (quote &- ones) & ~quote
        let backslashes = (backslash &- ones) & ~backslash
        return (word | control | quotes | backslashes) & high != 0
    }

    /// The length of the valid UTF-8 sequence (RFC 3629, Unicode table 3-7) starting at `start`,
    /// or 0 when it is invalid or not wholly within `available` bytes.
    @inline(__always)
    static func validSequenceLength(_ start: UnsafePointer<UInt8>, available: Int) -> Int {
        let lead = start[0]
        func continuation(_ offset: Int, _ lower: UInt8 = 0x80, _ upper: UInt8 = 0xBF) -> Bool {
            let byte = start[offset]
            return byte >= lower && byte <= upper
        }
        switch lead {
        case 0xC2...0xDF:
            return available >= 2 && continuation(1) ? 2 : 0
        case 0xE0:
            return available >= 3 && continuation(1, 0xA0) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF:
            return available >= 3 && continuation(1) && continuation(2) ? 3 : 0
        case 0xED:
            return available >= 3 && continuation(1, 0x80, 0x9F) && continuation(2) ? 3 : 0
        case 0xF0:
            return available >= 4 && continuation(1, 0x90) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3:
            return available >= 4 && continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4:
            return available >= 4 && continuation(1, 0x80, 0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default:
            return 0
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    static func hex4(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: false)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
