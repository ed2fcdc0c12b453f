// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes parameters as `application/x-www-form-urlencoded` pairs, the way AFNetworking's
/// `AFQueryStringFromParameters` does.
///
/// The parameters are an object. Its keys are sorted (by default); a nested object `{"a": {"b": 1}}`
/// becomes `a[b]=1`; an array `{"a": [1, 2]}` becomes `a[]=1&a[]=2` with its elements in their
/// order; a null becomes the bare key `a`; an empty object or array writes nothing. Keys and values
/// are escaped with ``SpaceEncoding``.
///
/// Scalars are written as text: booleans `1`/`0` (or `true`/`false`), integers in decimal,
/// doubles without a fraction when integral and below 10^15 in magnitude (`1`, as `NSNumber`
/// does) and otherwise as Swift's shortest round-tripping text, strings as they are, bytes raw,
/// dates as ISO 8601 in UTC.
public struct FormWriter: Sendable {
    /// How array elements are named.
    public enum ArrayStyle: Sendable, Hashable {
        /// `a[]=1&a[]=2` (AFNetworking, Rack, PHP).
        case brackets
        /// `a=1&a=2` (Go's `url.Values`, Python's `urlencode(doseq=True)`).
        case noBrackets
        /// `a[0]=1&a[1]=2`.
        case indexed
    }

    /// How booleans are written.
    public enum BoolStyle: Sendable, Hashable {
        /// `1` and `0`, as `NSNumber` describes them (AFNetworking).
        case numeric
        /// `true` and `false`.
        case literal
    }

    /// How a space is written.
    public enum SpaceEncoding: Sendable, Hashable {
        /// `%20` (AFNetworking).
        case percent20
        /// `+` (HTML forms).
        case plus
    }

    /// How to write parameters.
    public struct Options: Sendable, Hashable {
        /// How array elements are named; ``ArrayStyle/brackets`` by default.
        public var arrayStyle: ArrayStyle
        /// How booleans are written; ``BoolStyle/numeric`` by default.
        public var boolStyle: BoolStyle
        /// How a space is written; ``SpaceEncoding/percent20`` by default.
        public var spaceEncoding: SpaceEncoding
        /// Whether object members are written in the order of their keys (`true`, AFNetworking)
        /// or in their insertion order. Array elements always keep their order.
        public var sortsKeys: Bool
        /// The deepest nesting of objects and arrays below the parameters object, which is the
        /// number of brackets in the longest key; ``Limits/maxDepth`` by default.
        public var maxDepth: Int
        /// The charset whose bytes are percent-encoded (AFNetworking's `stringEncoding`); UTF-8
        /// by default. UTF-16 and UTF-32 write UTF-8, as browsers do (they are not ASCII-based).
        public var charset: Charset
        /// What to write for a character ``charset`` cannot: `&#N;` by default, as browsers do
        /// when they submit a form in a legacy encoding.
        public var unencodableCharacters: Charset.UnencodableCharacters

        /// Creates options; every argument defaults to AFNetworking's behaviour.
        public init(
            arrayStyle: ArrayStyle = .brackets,
            boolStyle: BoolStyle = .numeric,
            spaceEncoding: SpaceEncoding = .percent20,
            sortsKeys: Bool = true,
            maxDepth: Int = Limits.default.maxDepth,
            charset: Charset = .utf8,
            unencodableCharacters: Charset.UnencodableCharacters = .characterReference
        ) {
            self.arrayStyle = arrayStyle
            self.boolStyle = boolStyle
            self.spaceEncoding = spaceEncoding
            self.sortsKeys = sortsKeys
            self.maxDepth = maxDepth
            self.charset = charset
            self.unencodableCharacters = unencodableCharacters
        }

        /// The charset written: ``charset``, or UTF-8 for UTF-16 and UTF-32.
        var effectiveCharset: Charset {
            switch charset {
            case .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian: .utf8
            default: charset
            }
        }
    }

    /// One unescaped key-value pair.
    public struct Pair: Sendable, Hashable {
        /// The key with its brackets, such as `a[b][]`.
        public var key: String
        /// The value's bytes (UTF-8 text, or the raw bytes of a ``Value/bytes(_:)``), or `nil`
        /// for a null, which is written as the bare key.
        public var value: [UInt8]?

        /// Creates a pair.
        public init(key: String, value: [UInt8]?) {
            self.key = key
            self.value = value
        }
    }

    /// How to write.
    public var options: Options

    /// Creates an encoder.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Flattens `parameters` into unescaped pairs, in the order they are written.
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for no parameters.
    /// - Returns: The pairs; empty for null or an empty object.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when `parameters` is neither an object nor
    ///   null; ``SatchelError/Code/unencodableValue`` (with the key path) for a payload or a
    ///   non-finite double; ``SatchelError/Code/limitExceeded`` (`maxDepth`) for nesting deeper
    ///   than ``Options/maxDepth``.
    public func pairs(from parameters: Value) throws(SatchelError) -> [Pair] {
        var pairs: [Pair] = []
        try forEachPair(in: parameters) { key, value in
            pairs.append(Pair(key: key, value: value))
        }
        return pairs
    }

    /// Writes `parameters` as a query string or form body, such as `a=1&b%5B%5D=x`.
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for no parameters.
    /// - Returns: The escaped pairs joined by `&`; empty for null or an empty object.
    /// - Throws: As ``pairs(from:)``.
    public func queryString(from parameters: Value) throws(SatchelError) -> String {
        String(decoding: try write(parameters), as: UTF8.self)
    }

    /// Writes `parameters` as the bytes of a form body.
    ///
    /// - Parameter parameters: An object, or ``Value/null`` for no parameters.
    /// - Returns: The ASCII bytes of ``queryString(from:)-(Value)``.
    /// - Throws: As ``pairs(from:)``.
    public func write(_ parameters: Value) throws(SatchelError) -> [UInt8] {
        var output: [UInt8] = []
        var failure: SatchelError?
        try forEachPair(in: parameters) { key, value in
            do throws(SatchelError) {
                try append(key: key, value: value, to: &output)
            } catch {
                failure = failure ?? error
            }
        }
        if let failure { throw failure }
        return output
    }

    /// Writes `pairs` as they are, in their order, as a query string such as `q=a%20b&page=2`
    /// (for query items a caller has already named, like httpie's `name==value`).
    ///
    /// - Parameter pairs: The unescaped pairs (values as UTF-8 text or raw bytes).
    /// - Returns: The escaped pairs joined by `&`; empty for no pairs.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for a key ``Options/charset`` cannot
    ///   write, with ``Options/unencodableCharacters`` set to fail.
    public func queryString(from pairs: [Pair]) throws(SatchelError) -> String {
        var output: [UInt8] = []
        for pair in pairs { try append(key: pair.key, value: pair.value, to: &output) }
        return String(decoding: output, as: UTF8.self)
    }

    /// `text` in the charset written.
    private func bytes(of text: String) throws(SatchelError) -> [UInt8] {
        let charset = options.effectiveCharset
        if charset == .utf8 { return Array(text.utf8) }
        return try charset.encode(text, unencodable: options.unencodableCharacters)
    }

    /// Appends `&` (after the first pair), the escaped key and, unless `value` is `nil`, `=` and
    /// the escaped value.
    private func append(key: String, value: [UInt8]?, to output: inout [UInt8]) throws(SatchelError) {
        if !output.isEmpty { output.append(UInt8(ascii: "&")) }
        PercentEncoding.append(escaping: try bytes(of: key), spaceEncoding: options.spaceEncoding, to: &output)
        if let value {
            output.append(UInt8(ascii: "="))
            PercentEncoding.append(escaping: value, spaceEncoding: options.spaceEncoding, to: &output)
        }
    }

    // MARK: - Flattening

    private typealias Emit = (_ key: String, _ value: [UInt8]?) -> Void

    private func forEachPair(in parameters: Value, _ emit: Emit) throws(SatchelError) {
        switch parameters {
        case .null:
            return
        case .object(let members):
            var path: [KeyPathComponent] = []
            for (key, value) in ordered(members) {
                path.append(.key(key))
                try flatten(value, key: key, depth: 0, path: &path, emit)
                path.removeLast()
            }
        default:
            throw SatchelError(
                .invalidArgument, "form parameters must be an object (or null for none), not \(parameters.kindName)")
        }
    }

    /// Emits the pairs of `value` named `key`; `depth` is the number of brackets in `key`.
    private func flatten(
        _ value: Value, key: String, depth: Int, path: inout [KeyPathComponent], _ emit: Emit
    ) throws(SatchelError) {
        switch value {
        case .null:
            emit(key, nil)
        case .bool(let flag):
            switch options.boolStyle {
            case .numeric: emit(key, flag ? [UInt8(ascii: "1")] : [UInt8(ascii: "0")])
            case .literal: emit(key, Array((flag ? "true" : "false").utf8))
            }
        case .integer(let number):
            emit(key, Array(String(number).utf8))
        case .unsignedInteger(let number):
            emit(key, Array(String(number).utf8))
        case .double(let number):
            emit(key, Array(try Self.text(of: number, path: path).utf8))
        case .string(let string):
            emit(key, try bytes(of: string))
        case .bytes(let bytes):
            emit(key, bytes)
        case .date(let date):
            emit(key, Array(Self.text(of: date).utf8))
        case .payload(let payload):
            throw SatchelError(
                .unencodableValue, "a form cannot express a \(type(of: payload).kind) payload",
                keyPath: KeyPathComponent.render(path))
        case .object(let members):
            try checkDepth(depth + 1, path: path)
            for (member, element) in ordered(members) {
                path.append(.key(member))
                try flatten(element, key: "\(key)[\(member)]", depth: depth + 1, path: &path, emit)
                path.removeLast()
            }
        case .array(let elements):
            try checkDepth(depth + 1, path: path)
            for (index, element) in elements.enumerated() {
                path.append(.index(index))
                let elementKey =
                    switch options.arrayStyle {
                    case .brackets: "\(key)[]"
                    case .noBrackets: key
                    case .indexed: "\(key)[\(index)]"
                    }
                try flatten(element, key: elementKey, depth: depth + 1, path: &path, emit)
                path.removeLast()
            }
        }
    }

    private func ordered(_ members: ValueObject) -> [(key: String, value: Value)] {
        options.sortsKeys ? members.elements.sorted { $0.key < $1.key } : Array(members.elements)
    }

    private func checkDepth(_ depth: Int, path: [KeyPathComponent]) throws(SatchelError) {
        if depth > options.maxDepth {
            throw SatchelError.limitExceeded(
                "maxDepth", options.maxDepth, "nesting \(depth) levels deep", keyPath: KeyPathComponent.render(path))
        }
    }

    // MARK: - Scalars

    /// An integral double below 10^15 in magnitude without a fraction (`3`, not `3.0`), anything
    /// else as Swift's shortest round-tripping description (`0.1`, `1e+20`).
    static func text(of number: Double, path: [KeyPathComponent]) throws(SatchelError) -> String {
        guard number.isFinite else {
            throw SatchelError(
                .unencodableValue, "a form cannot express the number \(number)", keyPath: KeyPathComponent.render(path))
        }
        if number.rounded(.towardZero) == number && number.magnitude < 1e15 {
            return String(Int64(number))
        }
        return number.description
    }

    /// ISO 8601 in UTC, the same text canonical JSON uses.
    static func text(of date: Date) -> String {
        ISO8601.string(from: date)
    }
}
