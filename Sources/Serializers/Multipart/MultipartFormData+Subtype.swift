// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartFormData {
    /// A multipart subtype: the part after `multipart/` in the Content-Type.
    public struct Subtype: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The subtype in lower case, such as `form-data`.
        public let rawValue: String

        /// Creates a subtype; `nil` when `rawValue` is not a token.
        public init?(rawValue: String) {
            guard MultipartHeaderEscaping.isToken(rawValue) else { return nil }
            self.rawValue = rawValue.lowercased()
        }

        private init(known: String) {
            rawValue = known
        }

        /// `multipart/form-data` (RFC 7578): every part has a Content-Disposition with a name.
        public static let formData = Subtype(known: "form-data")
        /// `multipart/mixed` (RFC 2046): independent parts, such as several files of one field.
        public static let mixed = Subtype(known: "mixed")
        /// `multipart/related` (RFC 2387): a root part and the parts it refers to.
        public static let related = Subtype(known: "related")
        /// `multipart/alternative` (RFC 2046): the same content in several forms.
        public static let alternative = Subtype(known: "alternative")

        /// The subtype.
        public var description: String { rawValue }
    }
}
