// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// The decoded value of a multipart body: its parts in order, each with its value.
///
/// Canonical JSON (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md):
/// `{"$multipart": [{"headers": [[name, value], …], "name": …, "filename": …, "filenameStar": …,
/// "contentType": …, "size": N, "value": …}]}`, with `null` for a missing name, file name or
/// Content-Type, header names as received, and `size` the body's length in bytes.
public final class MultipartParts: ValuePayload, Equatable, RandomAccessCollection {
    /// `"$multipart"`.
    public static let kind = "$multipart"

    /// One part and its value.
    public struct Element: Sendable, Equatable {
        /// The part as parsed.
        public let part: MultipartReader.Part
        /// The decoded body: the registry's value for the part's Content-Type, a string or
        /// bytes, nested ``MultipartParts``, a ``TemporaryFile`` for a spilled body, or a
        /// ``DecodingFailure``.
        public let value: Value

        /// Pairs a part with its value.
        public init(part: MultipartReader.Part, value: Value) {
            self.part = part
            self.value = value
        }
    }

    /// The parts in order.
    public let elements: [Element]
    /// The body's Content-Type (`multipart/related; start="<root>"`), when known.
    public let mediaType: MediaType?

    /// Creates the payload.
    ///
    /// - Parameters:
    ///   - elements: The parts in order.
    ///   - mediaType: The body's Content-Type, for ``root`` and ``preferred``.
    public init(_ elements: [Element], mediaType: MediaType? = nil) {
        self.elements = elements
        self.mediaType = mediaType
    }

    /// The position of the first part: 0.
    public var startIndex: Int { elements.startIndex }
    /// The position after the last part: the number of parts.
    public var endIndex: Int { elements.endIndex }
    /// The part at `position`, counting from 0 in the body's order.
    public subscript(position: Int) -> Element { elements[position] }

    /// The first part with the form field name `name`.
    public subscript(name: String) -> Element? {
        elements.first { $0.part.name == name }
    }

    /// Every part with the form field name `name`, in order.
    public func all(named name: String) -> [Element] {
        elements.filter { $0.part.name == name }
    }

    /// The parts as plain values (see the type's documentation).
    public var canonicalValue: Value {
        .array(elements.map(\.record))
    }

    /// Equal when the parts and values are (the media type is not compared).
    public static func == (lhs: MultipartParts, rhs: MultipartParts) -> Bool {
        lhs === rhs || lhs.elements == rhs.elements
    }
}

extension MultipartParts.Element {
    /// The part as one object — `headers` (name-value pairs), `name`, `filename`,
    /// `filenameStar`, `contentType`, `size` and the decoded `value` — the form `$multipart`
    /// lists and a record stream of parts yields (``MultipartResponseSerializer``).
    public var record: Value {
        .object([
            "headers": .array(part.headers.map { .array([.string($0.name), .string($0.value)]) }),
            "name": part.name.map(Value.string) ?? .null,
            "filename": part.filename.map(Value.string) ?? .null,
            "filenameStar": part.filenameStar.map(Value.string) ?? .null,
            "contentType": part.contentType.map(Value.string) ?? .null,
            "size": .integer(Int64(part.size)),
            "value": value,
        ])
    }
}
