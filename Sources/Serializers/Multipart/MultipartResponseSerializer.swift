// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Decodes multipart bodies — `multipart/form-data` (responses, and request bodies for a
/// server), `mixed`, `related`, `alternative`, `byteranges` and any other subtype — into
/// ``MultipartParts``, streaming with ``MultipartReader``.
///
/// Only `multipart/form-data` requires `Content-Disposition: form-data; name=…` on every part.
/// ``MultipartParts/root`` finds the `start` part of `multipart/related`,
/// ``MultipartParts/preferred`` the best alternative, ``MultipartReader/Part/contentRange`` each
/// range of `multipart/byteranges`, and ``MultipartParts/response(answering:)`` the answer to a
/// batch request by Content-ID.
///
/// Each part's body is decoded by the part's own Content-Type through ``registry`` (a JSON part
/// becomes a JSON value); a nested multipart part is parsed in turn, at most
/// ``Limits/maxDepth`` deep. With ``rawParts`` a part whose Content-Type is `text/*` or absent
/// and whose bytes are valid UTF-8 is a string of exactly those bytes (a byte order mark
/// included), and any other part is bytes. When no serializer accepts the part's type, such a
/// part is a string when its bytes are valid text in the charset ``TextDecoding`` resolves. A part that
/// fails to decode gets a ``DecodingFailure`` (`{"$error": …}`) as its value and the other parts
/// still decode; only a ``Limits`` hit fails the whole body. A spilled part (larger than
/// ``MultipartReader/Options/memoryThreshold``) is not decoded: its value is its
/// ``TemporaryFile`` (`{"$file": {"path": …, "size": N}}`).
public struct MultipartResponseSerializer: TypedResponseSerializer, RecordReadingSerializer {
    /// `"multipart"`.
    public var name: String { "multipart" }
    /// The acceptable media types; `multipart/*` by default.
    public var acceptableContentTypes: MediaRangeList
    /// How bodies are parsed: line endings, leniency, the memory threshold.
    public var options: MultipartReader.Options
    /// Whether part bodies are left undecoded: strings of their exact bytes or bytes.
    public var rawParts: Bool
    /// The registry that decodes part bodies by their Content-Type; held weakly, so a registry
    /// can hold this serializer. Without one, parts are strings (text in its charset) or bytes.
    public weak var registry: Registry?

    /// `multipart/*`.
    public static let defaultContentTypes = MediaRangeList(accepting: [MediaType(type: "multipart", subtype: "*")])

    /// Creates a serializer.
    ///
    /// - Parameters:
    ///   - options: How bodies are parsed; strict with a 1 MiB memory threshold by default.
    ///   - rawParts: Leave part bodies undecoded.
    ///   - registry: Decodes part bodies by their Content-Type (held weakly).
    ///   - acceptableContentTypes: The media types accepted.
    public init(
        options: MultipartReader.Options = MultipartReader.Options(), rawParts: Bool = false,
        registry: Registry? = nil, acceptableContentTypes: MediaRangeList = defaultContentTypes
    ) {
        self.options = options
        self.rawParts = rawParts
        self.registry = registry
        self.acceptableContentTypes = acceptableContentTypes
    }

    /// Decodes a whole body.
    ///
    /// - Returns: ``Value/payload(_:)`` with ``MultipartParts``, or `nil` for an empty body.
    /// - Throws: ``SatchelError``: `invalidMediaType` for a Content-Type without a valid boundary,
    ///   and the errors of ``MultipartReader`` naming the part and the byte offset.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        if body.isEmpty { return nil }
        let decoder = MultipartIncrementalReader(serializer: self, contentType: contentType, limits: limits)
        try decoder.feed(body)
        return try decoder.finish()
    }

    /// A decoder fed the body as it arrives; parts are decoded as they complete.
    public func makeIncrementalReader(contentType: MediaType?, limits: Limits) -> (any IncrementalReader)? {
        MultipartIncrementalReader(serializer: self, contentType: contentType, limits: limits)
    }

    /// A reader that hands over each part as a record (``MultipartParts/Element/record``) as
    /// soon as it is complete, decoded by its own Content-Type; parts are not kept, so a body of
    /// any size streams in bounded memory. (A whole-body decode still returns ``MultipartParts``.)
    public func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader {
        MultipartRecordReader(MultipartPartReader(serializer: self, contentType: contentType, limits: limits))
    }

    /// Decodes a `multipart/form-data` body straight into a model (``TypedResponseSerializer``):
    /// each field by its name — text fields read as a form's are (numbers, booleans, ISO 8601
    /// dates from their text, also when spilled to disk, up to ``Limits/maxStringBytes``), a file
    /// part as `Data` (its bytes) or, when it was spilled to disk, as a ``TemporaryFile``
    /// property; a name given more than once is an array. Parts are not
    /// decoded by their Content-Type on this path. `nil` for an empty body.
    /// - Throws: The body's errors, and the key path where the model does not fit.
    public func decode<T: Decodable>(
        _ type: T.Type, from body: [UInt8], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> T? {
        if body.isEmpty { return nil }
        var raw = self
        raw.rawParts = true
        guard let parts = try raw.decode(body, contentType: contentType, limits: limits)?.multipartParts else {
            return nil
        }
        return try Self.decode(type, fromFields: parts, limits: limits)
    }

    /// Decodes the parts a value holds (a body parsed as it arrived) into `T` as from the bytes,
    /// except that each part arrives decoded by its Content-Type (a JSON part as its value, an
    /// image as an image), where the bytes path gives the model each part's text or bytes.
    /// Fields without a Content-Type or of a `text/*` one, and file parts read as bytes or
    /// spilled to disk, decode the same on both paths.
    /// - Throws: `typeMismatch` for a value that holds no parts, and the key path where the
    ///   model does not fit.
    public func decode<T: Decodable>(_ type: T.Type, from value: Value, limits: Limits) throws(SatchelError) -> T {
        guard let parts = value.multipartParts else {
            throw SatchelError(
                .typeMismatch, "expected multipart parts to decode \(T.self) from, found \(value.kindName)")
        }
        return try Self.decode(type, fromFields: parts, limits: limits)
    }

    /// `parts` as the fields of a model: each by its name, a name given more than once as an
    /// array, text read as a form's is.
    private static func decode<T: Decodable>(
        _ type: T.Type, fromFields parts: MultipartParts, limits: Limits
    ) throws(SatchelError) -> T {
        var fields = ValueObject()
        for element in parts {
            guard let name = element.part.name else { continue }
            var value = element.value
            // A field (no file name) that was spilled to disk is still text for the model.
            if element.part.filename == nil, case .payload(let payload) = value, let file = payload as? TemporaryFile {
                let bytes = try file.readAll(limit: limits.maxStringBytes)
                value = String(validating: bytes, as: UTF8.self).map(Value.string) ?? .bytes(bytes)
            }
            switch fields[name] {
            case nil: fields[name] = value
            case .array(var values)?:
                values.append(value)
                fields[name] = .array(values)
            case let first?: fields[name] = .array([first, value])
            }
        }
        var decoder = ValueDecoder()
        decoder.textualScalars = ValueDecoder.TextualScalars(
            date: TextDateDecoding.iso8601.reader, bytes: TextDataDecoding.base64.reader)
        return try decoder.decode(type, from: .object(fields))
    }
}
