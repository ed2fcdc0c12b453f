// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads an `application/x-www-form-urlencoded` body or a query string back into an object.
///
/// Pairs are separated by `&` (empty ones are skipped) and split at their first `=`. `%XX`
/// escapes and `+` (a space) are decoded, and the result must be UTF-8. Values are always
/// strings; a key without `=` has the value ``Value/null``, `a=` the empty string.
///
/// Bracketed keys rebuild nesting with Rack's semantics (`normalize_params`):
/// - `a[b][c]=1` gives `{"a": {"b": {"c": "1"}}}`;
/// - `a[]=x&a[]=y` appends: `{"a": ["x", "y"]}`;
/// - `a[][b]=1&a[][c]=2&a[][b]=3` builds objects in an array, starting a new element when the
///   last one already has the key: `{"a": [{"b": "1", "c": "2"}, {"b": "3"}]}`;
/// - `a[0]=x&a[1]=y` gives an array when an object's keys are exactly `"0"` to `"n-1"`
///   (``Options/indexedKeysAsArrays``).
///
/// Keys whose brackets do not nest (`a[`, `a]b[`, `[a]`, `a[b]c`) are syntax errors, and a key
/// that needs a container where a string already is (`a=1&a[b]=2`) is a type mismatch. Every
/// error names its byte offset in the input, and the key or key path.
public struct FormReader: Sendable {
    /// What a key seen more than once does.
    public enum DuplicateKeys: Sendable, Hashable {
        /// The last value replaces earlier ones (Rack, PHP).
        case lastWins
        /// The values are collected into an array in their order (`a=1&a=2` gives
        /// `{"a": ["1", "2"]}`), as Go's `url.Values` and Python's `parse_qs` do.
        case collectIntoArray
    }

    /// How to read keys.
    public struct Options: Sendable, Hashable {
        /// What a repeated key ending in a name (`a`, `a[b]`) does; ``DuplicateKeys/lastWins`` by
        /// default. Keys ending in `[]` always append.
        public var duplicateKeys: DuplicateKeys
        /// Whether brackets in keys build nested objects and arrays (`true`), or keys are kept as
        /// they are (`false`).
        public var parsesNestedKeys: Bool
        /// Whether an object whose keys are exactly `"0"` to `"n-1"` becomes an array in index
        /// order (`true`). The top-level object always stays an object.
        public var indexedKeysAsArrays: Bool
        /// The charset of the percent-decoded bytes; UTF-8 by default. The form response
        /// serializer takes it from the Content-Type's `charset`.
        public var charset: Charset = .utf8

        /// Creates options; by default the last duplicate wins and keys nest.
        public init(
            duplicateKeys: DuplicateKeys = .lastWins, parsesNestedKeys: Bool = true, indexedKeysAsArrays: Bool = true
        ) {
            self.duplicateKeys = duplicateKeys
            self.parsesNestedKeys = parsesNestedKeys
            self.indexedKeysAsArrays = indexedKeysAsArrays
        }
    }

    /// How to read keys.
    public var options: Options

    /// The bounds to obey: ``Limits/maxBodyBytes`` on the input, ``Limits/maxPairs`` on the
    /// number of pairs, ``Limits/maxDepth`` on brackets in a key, ``Limits/maxStringBytes`` on any
    /// decoded key or value.
    public var limits: Limits

    /// Creates a decoder.
    ///
    /// - Parameters:
    ///   - options: How to read keys.
    ///   - limits: The bounds to obey; the secure defaults.
    public init(options: Options = Options(), limits: Limits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Decodes a query string (without its `?`).
    ///
    /// - Parameter query: The text, such as `a=1&b%5B%5D=2`.
    /// - Returns: An ``Value/object(_:)``; empty for empty input.
    /// - Throws: As ``read(_:)-([UInt8])``.
    public func read(_ query: String) throws(SatchelError) -> Value {
        try limits.checkBody(count: query.utf8.count)
        return try read(Array(query.utf8))
    }

    /// Decodes a form body.
    ///
    /// - Parameter body: The bytes.
    /// - Returns: An ``Value/object(_:)``; empty for an empty body.
    /// - Throws: ``SatchelError/Code/syntaxError`` for a malformed `%` escape or key;
    ///   ``SatchelError/Code/invalidEncoding`` when decoded bytes are not UTF-8;
    ///   ``SatchelError/Code/typeMismatch`` for keys that conflict;
    ///   ``SatchelError/Code/limitExceeded`` naming the limit. Each error carries the byte
    ///   offset where the problem is.
    public func read(_ body: [UInt8]) throws(SatchelError) -> Value {
        try limits.checkBody(count: body.count)
        return try body.withUnsafeBufferPointer { (input) throws(SatchelError) -> Value in
            try decodePairs(in: input)
        }
    }

    private func decodePairs(in input: UnsafeBufferPointer<UInt8>) throws(SatchelError) -> Value {
        var tree = Tree(duplicateKeys: options.duplicateKeys)
        var pairCount = 0
        var start = 0
        while start < input.count {
            var end = start
            var equals: Int?
            while end < input.count && input[end] != UInt8(ascii: "&") {
                if equals == nil && input[end] == UInt8(ascii: "=") { equals = end }
                end += 1
            }
            if end > start {
                pairCount += 1
                if pairCount > limits.maxPairs {
                    throw SatchelError.limitExceeded(
                        "maxPairs", limits.maxPairs, "pair number \(pairCount)", offset: start)
                }
                try decodePair(input, start..<end, equals: equals, into: &tree)
            }
            start = end + 1
        }
        return tree.value(indexedKeysAsArrays: options.indexedKeysAsArrays)
    }

    private func decodePair(
        _ input: UnsafeBufferPointer<UInt8>, _ pair: Range<Int>, equals: Int?, into tree: inout Tree
    ) throws(SatchelError) {
        let keyRange = pair.lowerBound..<(equals ?? pair.upperBound)
        let keyBytes = try PercentEncoding.unescape(input, keyRange, what: "key", maxBytes: limits.maxStringBytes)
        let key = try string(keyBytes, input, keyRange, what: "key")
        var value = Value.null
        if let equals {
            let valueRange = (equals + 1)..<pair.upperBound
            let valueBytes = try PercentEncoding.unescape(
                input, valueRange, what: "value", maxBytes: limits.maxStringBytes)
            value = try .string(string(valueBytes, input, valueRange, what: "value"))
        }
        let segments: [KeySegment]
        if options.parsesNestedKeys {
            let parser = KeyParser(key: keyBytes, maxDepth: limits.maxDepth)
            do {
                segments = try parser.parse()
            } catch {
                var failure = error.reason
                failure.offset = PercentEncoding.rawOffset(ofDecoded: error.index, in: input, keyRange)
                throw failure
            }
        } else {
            segments = [.key(key)]
        }
        try tree.insert(value, at: segments, key: key, offset: pair.lowerBound)
    }

    /// Validates decoded bytes as UTF-8.
    ///
    /// - Throws: ``SatchelError/Code/invalidEncoding`` at the offset in `input` where the first
    ///   invalid sequence starts.
    private func string(
        _ bytes: [UInt8], _ input: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, what: String
    ) throws(SatchelError) -> String {
        if options.charset != .utf8 {
            do {
                return try options.charset.decode(bytes[...])
            } catch {
                var failure = error
                failure.message = "the \(what) is not valid \(options.charset.rawValue) after percent-decoding"
                failure.offset = PercentEncoding.rawOffset(ofDecoded: error.offset ?? 0, in: input, range)
                throw failure
            }
        }
        if let string = String(validating: bytes, as: UTF8.self) { return string }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var index = 0
        parsing: while true {
            switch parser.parseScalar(from: &iterator) {
            case .valid(let scalar): index += scalar.count
            case .error: break parsing
            case .emptyInput: break parsing
            }
        }
        let culprit = index < bytes.count ? " (byte 0x\(String(bytes[index], radix: 16, uppercase: true)))" : ""
        throw SatchelError(
            .invalidEncoding, "the \(what) is not valid UTF-8 after percent-decoding\(culprit)",
            offset: PercentEncoding.rawOffset(ofDecoded: index, in: input, range))
    }
}
