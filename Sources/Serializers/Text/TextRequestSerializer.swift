// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes a string as a `text/plain; charset=utf-8` body: the request side of
/// ``TextResponseSerializer``.
///
/// A ``Value/string(_:)`` is written as its UTF-8 bytes and ``Value/bytes(_:)`` as they are
/// (they are taken to be UTF-8 text already); anything else has no text form. The text is
/// always the body, whatever the method: a string has no query-string form.
///
/// ```swift
/// let request = try TextRequestSerializer().serialize("hello", into: head)   // body "hello"
/// ```
public struct TextRequestSerializer: RequestSerializer {
    /// `"text"`.
    public var name: String { "text" }
    /// `text/plain; charset=utf-8`.
    public var contentType: MediaType { MediaType.plainText.setting(parameter: "charset", to: "utf-8") }
    /// Headers set on every serialized request unless it already has them.
    public var headers: HTTPFields

    /// Creates a text serializer.
    public init(headers: HTTPFields = DefaultHeaders.standard) {
        self.headers = headers
    }

    /// The UTF-8 bytes of a string (or the bytes of ``Value/bytes(_:)``).
    /// - Throws: ``SatchelError/Code/unencodableValue`` for any other kind of value.
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        switch value {
        case .string(let text): Array(text.utf8)
        case .bytes(let bytes): bytes
        default: throw SatchelError(.unencodableValue, "a text body is a string, not \(value.kindName)")
        }
    }
}
