/// The libxml2 error behind a ``SatchelError``: its numeric code (`xmlParserErrors`) and domain
/// (`xmlErrorDomain`).
public struct XMLLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `xmlParserErrors` value, such as 76 for `XML_ERR_TAG_NAME_MISMATCH`.
    public var code: Int
    /// The `xmlErrorDomain` value, such as 1 for the parser.
    public var domain: Int

    /// `libxml2 error CODE (domain DOMAIN)`.
    public var description: String { "libxml2 error \(code) (domain \(domain))" }
}
