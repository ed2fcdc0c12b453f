// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// One part of a multipart body: its disposition (field name, file name), media type, custom
/// headers and body.
///
/// Headers are written in a fixed order: Content-Disposition, Content-Type, then the custom
/// ``headers`` in their order. A custom header named Content-Disposition or Content-Type (in any
/// case) replaces the generated one, in the generated one's place.
public struct MultipartPart: Sendable {
    /// A header line: a part's custom header when building, a received header when parsing.
    public struct Header: Sendable, Hashable {
        /// The header name; when building, it must be an RFC 9110 token.
        public var name: String
        /// The header value; when building, it must not contain CR, LF or other control
        /// characters except tab.
        public var value: String

        /// Creates a header.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The field name (`name=` of Content-Disposition); required in `multipart/form-data`.
    public var name: String?

    /// The file name (`filename=`, and `filename*=` when it is not ASCII), or `nil` for a plain
    /// field.
    public var filename: String?

    /// The disposition type, such as `form-data`, `attachment` or `file`; `nil` picks
    /// `form-data` in a `multipart/form-data` body and, elsewhere, `attachment` when the part has
    /// a name or a file name and no Content-Disposition at all otherwise.
    public var dispositionType: String?

    /// The Content-Type; `nil` writes none for a field, and the type inferred from the file name
    /// (see ``MediaTypeTable``) for a part with a file name.
    public var mediaType: MediaType?

    /// Headers written after Content-Disposition and Content-Type, in this order.
    public var headers: [Header]

    /// Where the bytes come from.
    public var body: Body

    /// Creates a part.
    ///
    /// - Parameters:
    ///   - name: The field name; required in `multipart/form-data`.
    ///   - filename: The file name, if any.
    ///   - dispositionType: The disposition type; `nil` for the default (see ``dispositionType``).
    ///   - mediaType: The Content-Type; `nil` for none, or for the inferred one with a file name.
    ///   - headers: Custom headers.
    ///   - body: Where the bytes come from.
    public init(
        name: String? = nil,
        filename: String? = nil,
        dispositionType: String? = nil,
        mediaType: MediaType? = nil,
        headers: [Header] = [],
        body: Body
    ) {
        self.name = name
        self.filename = filename
        self.dispositionType = dispositionType
        self.mediaType = mediaType
        self.headers = headers
        self.body = body
    }

    /// How the part is named in error messages: `part 3 ("avatar")`, with indices from 0.
    static func label(index: Int, name: String?, filename: String?) -> String {
        if let name = name ?? filename {
            return "part \(index) (\(Value.string(name).canonicalJSON()))"
        }
        return "part \(index)"
    }
}

extension Sequence where Element == MultipartPart.Header {
    /// The first header named `name`, compared without regard to case.
    func first(named name: String) -> MultipartPart.Header? {
        let wanted = name.lowercased()
        return first { $0.name.lowercased() == wanted }
    }

    /// The values of every header named `name` (case-insensitive), in order.
    func values(named name: String) -> [String] {
        let wanted = name.lowercased()
        return filter { $0.name.lowercased() == wanted }.map(\.value)
    }
}
