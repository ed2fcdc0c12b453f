// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads XML (`<plist version="1.0">`) and binary (`bplist00`) property lists into ``Value``s,
/// telling the format from the bytes.
///
/// Mapping: dict → ``Value/object(_:)`` (keys in file order), array → ``Value/array(_:)``,
/// string, integer (``Value/integer(_:)``, or ``Value/unsignedInteger(_:)`` at and above 2^63),
/// real → ``Value/double(_:)``, true/false, date → ``Value/date(_:)``, data → ``Value/bytes(_:)``,
/// and the binary-only UID → ``PropertyListUID``. Binary sets, ordered sets, null and fill
/// objects are ``SatchelError/Code/unsupportedFormat`` errors.
///
/// Both readers obey ``Limits``: `maxBodyBytes`, `maxDepth`, `maxStringBytes` and `maxPairs`.
public struct PropertyListReader: Sendable {
    /// The bounds to obey.
    public var limits: Limits

    /// Creates a reader.
    public init(limits: Limits = .default) {
        self.limits = limits
    }

    /// Reads a property list; `nil` for a `nil` body (no value), as AFNetworking's plist serializer.
    ///
    /// - Throws: ``SatchelError``: ``SatchelError/Code/truncatedInput`` for an empty body;
    ///   otherwise see ``read(_:)-(UnsafeRawBufferPointer)``.
    public func read(_ body: [UInt8]?) throws(SatchelError) -> Value? {
        guard let body else { return nil }
        return try body.withUnsafeBufferPointer { (bytes) throws(SatchelError) in
            try read(UnsafeRawBufferPointer(bytes))
        }
    }

    /// Reads a property list.
    ///
    /// - Throws: ``SatchelError`` with the byte offset (and, for XML, line, column) and key path:
    ///   `truncatedInput` for an empty or cut input, `syntaxError` for malformed structure
    ///   (offsets or references out of range, reference cycles, unknown elements, bad base64 or
    ///   dates), `numberOutOfRange`, `invalidEncoding`, `unsupportedFormat` (other versions,
    ///   UTF-16 text, sets, DTD subsets) and `limitExceeded`.
    /// - Complexity: O(n) in the input's size.
    public func read(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Value {
        try limits.checkBody(count: bytes.count)
        guard !bytes.isEmpty else {
            throw SatchelError(.truncatedInput, "an empty body is not a property list", offset: 0)
        }
        switch try PropertyListFormat.sniff(bytes) {
        case .binary:
            var reader = try BinaryPropertyListReader(bytes, limits: limits)
            return try reader.read()
        case .xml:
            var reader = XMLPropertyListReader(bytes, limits: limits)
            return try reader.read()
        }
    }

    /// Reads a property list straight into `T`: a binary one from its object table (no ``Value``
    /// tree is built), an XML one through its value.
    ///
    /// - Throws: The errors of ``read(_:)-(UnsafeRawBufferPointer)``, then `typeMismatch`,
    ///   `valueNotFound` or `numberOutOfRange` with the key path where `T` did not fit.
    public func read<T: Decodable>(_ type: T.Type, from bytes: [UInt8]) throws(SatchelError) -> T {
        try bytes.withUnsafeBufferPointer { (buffer) throws(SatchelError) in
            let buffer = UnsafeRawBufferPointer(buffer)
            try limits.checkBody(count: buffer.count)
            guard !buffer.isEmpty else {
                throw SatchelError(.truncatedInput, "an empty body is not a property list", offset: 0)
            }
            guard try PropertyListFormat.sniff(buffer) == .binary else {
                return try ValueDecoder().decode(type, from: try read(buffer))
            }
            let reader = try BinaryPropertyListReader(buffer, limits: limits)
            let root = BinaryPropertyListDecodingNode(
                context: .init(reader: reader), index: reader.topObject, depth: 0, parent: nil, key: nil)
            return try SatchelError.decoding(type) { try root.decodeValue(type) }
        }
    }
}
