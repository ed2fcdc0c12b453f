// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes JSON text straight into `Decodable` models, with the strategies of Foundation's
/// `JSONDecoder`.
///
/// ```swift
/// var decoder = JSONModelDecoder()
/// decoder.keyDecoding = .convertFromSnakeCase
/// decoder.dateDecoding = .secondsSince1970
/// let user = try decoder.decode(User.self, from: body)
/// ```
///
/// The text is validated as strictly as ``JSONReader`` validates it (the same errors, with byte
/// offset, line and column) and indexed in one pass; the model is then read from that index
/// without building a tree, converting only the values it asks for. A type mismatch, a missing
/// member or a number out of range names the key path and the byte offset of the value.
///
/// Reuse one decoder for many documents, such as the records of a stream: it keeps the buffers
/// of its index between decodes (up to a record's size; copies share them, and decodes on several
/// threads at once each get their own).
///
/// Numbers convert between kinds only when exact (`2.0` decodes as the `Int` 2, `2.5` does
/// not), integers are exact to 64 bits signed and unsigned, and `Decimal` reads the number's
/// digits. ``Value`` members decode as ``JSONReader`` reads them.
public struct JSONModelDecoder: Sendable {
    /// How a `Date` is read.
    public enum DateDecoding: Sendable {
        /// An ISO 8601 string, or a number of seconds since 1970 (the default, as
        /// ``ValueDecoder`` reads dates).
        case iso8601OrSecondsSince1970
        /// `Date`'s own `Decodable` form: seconds since 2001-01-01.
        case deferredToDate
        /// A number of seconds since 1970.
        case secondsSince1970
        /// A number of milliseconds since 1970.
        case millisecondsSince1970
        /// An ISO 8601 string (with or without fractions and a time zone offset).
        case iso8601
        /// A string read by a parser, such as a `DateFormatter`'s `date(from:)`; `nil` from the
        /// parser is a type mismatch naming the text.
        case formatted(@Sendable (String) -> Date?)
        /// The date a closure decodes from the value's decoder.
        case custom(@Sendable (any Decoder) throws -> Date)
    }

    /// How `Data` is read.
    public enum DataDecoding: Sendable {
        /// A base64 string (the default).
        case base64
        /// `Data`'s own `Decodable` form: an array of byte values.
        case deferredToData
        /// The data a closure decodes from the value's decoder.
        case custom(@Sendable (any Decoder) throws -> Data)
    }

    /// How a `Double` or `Float` is read from a string naming a value JSON numbers cannot express.
    public enum NonConformingFloatDecoding: Sendable, Hashable {
        /// Only numbers are numbers (the default).
        case `throw`
        /// These strings are positive infinity, negative infinity and NaN.
        case convertFromString(positiveInfinity: String, negativeInfinity: String, nan: String)
    }

    /// How member names map to coding keys.
    public var keyDecoding: KeyDecoding = .useDefaultKeys
    /// How dates are read.
    public var dateDecoding: DateDecoding = .iso8601OrSecondsSince1970
    /// How data is read.
    public var dataDecoding: DataDecoding = .base64
    /// How NaN and the infinities are read.
    public var nonConformingFloatDecoding: NonConformingFloatDecoding = .throw
    /// How the text is read: big integers, null members, top-level scalars.
    public var options: JSONReadingOptions
    /// The bounds to obey: body bytes, depth, string bytes, members per object.
    public var limits: Limits
    /// Values made available to `Decodable` implementations through `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// The scanner's buffers, kept between decodes: a decoder reused for the records of a
    /// stream does not allocate them per record. Copies of the decoder share them.
    private let scratch = JSONTapeScratch()

    /// Creates a decoder.
    public init(options: JSONReadingOptions = JSONReadingOptions(), limits: Limits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Decodes a `T` from JSON text.
    ///
    /// - Throws: ``SatchelError``: the errors of ``JSONReader/read(_:)-([UInt8])`` for text that
    ///   is not valid JSON; ``SatchelError/Code/typeMismatch``,
    ///   ``SatchelError/Code/valueNotFound`` or ``SatchelError/Code/numberOutOfRange`` with the
    ///   key path, byte offset, line and column where `T` did not fit; errors thrown by `T`
    ///   itself with their coding path.
    /// - Complexity: O(n) in the length of the text, plus the model's work.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(SatchelError) -> T {
        try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in
            try decode(type, from: UnsafeRawBufferPointer(bytes))
        }
    }

    /// Decodes a `T` from JSON text in raw memory (read in place; copied only when the model
    /// keeps its decoder).
    public func decode<T: Decodable>(_ type: T.Type, from buffer: UnsafeRawBufferPointer) throws(SatchelError) -> T {
        try limits.checkBody(count: buffer.count)
        let text = buffer.bindMemory(to: UInt8.self)
        var tape = scratch.take()
        defer { scratch.keep(&tape) }
        try scan(text, into: &tape)
        do {
            return try decodeRoot(type, text, tape.entries)
        } catch var error {
            if let offset = error.offset { error.locate(offset: offset, in: buffer) }
            throw error
        }
    }

    /// Decodes the root value; the document and its decoders end with this call unless the model
    /// keeps one (the tape's entries are then the document's, and the next scan makes new ones).
    @inline(never)
    private func decodeRoot<T: Decodable>(
        _ type: T.Type, _ text: UnsafeBufferPointer<UInt8>, _ entries: [JSONTape.Entry]
    ) throws(SatchelError) -> T {
        var document = JSONTapeDocument(
            borrowing: text, entries: entries, options: options, maxPairs: limits.maxPairs,
            strategies: Strategies(self))
        // A model that kept a decoder (or a container) keeps the document: it gets its own copy
        // of the text before the caller's buffer may go away.
        defer { if !isKnownUniquelyReferenced(&document) { document.ownText() } }
        let decoder = JSONTapeDecoder(document: document, index: 0, parent: nil, key: nil)
        return try SatchelError.decoding(type) { try decoder.decodeValue(type) }
    }

    /// Scans the text into `tape`; for text the scanner refuses, the error ``JSONReader`` gives.
    private func scan(_ text: UnsafeBufferPointer<UInt8>, into tape: inout JSONTape) throws(SatchelError) {
        let scanned = JSONTapeScanner(options: options, limits: limits).scan(text, into: &tape)
        if scanned && !tape.needsLexerVerdict { return }
        _ = try JSONReader(options: options, limits: limits).read(UnsafeRawBufferPointer(text))
        guard scanned else {
            throw SatchelError(.internal, "the JSON index refused text that the JSON reader accepts")
        }
    }

    /// What the decoders of one decode share.
    struct Strategies {
        let keyDecoding: KeyDecoding
        let dateDecoding: DateDecoding
        let dataDecoding: DataDecoding
        let nonConformingFloatDecoding: NonConformingFloatDecoding
        let userInfo: [CodingUserInfoKey: any Sendable]

        init(_ decoder: JSONModelDecoder) {
            keyDecoding = decoder.keyDecoding
            dateDecoding = decoder.dateDecoding
            dataDecoding = decoder.dataDecoding
            nonConformingFloatDecoding = decoder.nonConformingFloatDecoding
            userInfo = decoder.userInfo
        }

        /// The non-conforming value `text` names, if any.
        func nonConformingFloat(_ text: String) -> Double? {
            guard case .convertFromString(let positive, let negative, let nan) = nonConformingFloatDecoding else {
                return nil
            }
            switch text {
            case positive: return .infinity
            case negative: return -.infinity
            case nan: return .nan
            default: return nil
            }
        }
    }
}

/// A ``JSONTape`` kept for the next decode, with the capacity of its arrays; a decode that finds
/// it taken (another thread decoding with a copy of the same decoder) scans into a new one.
final class JSONTapeScratch: Sendable {
    /// The largest tape kept (entries of 16 bytes): what a record or a small response needs;
    /// a large document's tape is freed with its decode.
    static let maximumKeptEntries = 1 << 14

    private let slot = Mutex<JSONTape?>(nil)

    /// The kept tape, or an empty one.
    func take() -> JSONTape {
        slot.withLock { $0.take() } ?? JSONTape()
    }

    /// Keeps `tape` for the next decode unless it is large.
    func keep(_ tape: inout JSONTape) {
        guard tape.entries.capacity <= Self.maximumKeptEntries else { return }
        let kept = tape
        tape = JSONTape()
        slot.withLock { $0 = kept }
    }
}
