import SerializerRegistry

extension MultipartParser.Part {
    /// The `Content-ID` header (`<item1@example.com>`), as received.
    public var contentID: String? { header("Content-ID") }

    /// The parsed `Content-Range` of a `multipart/byteranges` part, or `nil` when the part has
    /// none.
    /// - Throws: ``SatchelError/Code/syntaxError`` when the header is malformed.
    public var contentRange: ContentRange? {
        get throws(SatchelError) {
            try header("Content-Range").map { text throws(SatchelError) in try ContentRange(parsing: text) }
        }
    }
}
