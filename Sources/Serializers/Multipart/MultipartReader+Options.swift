extension MultipartReader {
    /// How a ``MultipartReader`` reads a body.
    public struct Options: Sendable, Hashable {
        /// Accept what real clients get wrong, instead of failing: bare LF line endings (after
        /// boundaries, in headers, before a delimiter), a repeated Content-Disposition or
        /// Content-Type header (the first wins), a Content-Disposition of another type than
        /// `form-data`, a malformed `filename*` (ignored), a boundary outside RFC 2046's
        /// characters or length, and a quoted `filename*`. Default `false`: strict, CRLF only.
        public var lenient: Bool

        /// A part's body is held in memory up to this many bytes; a larger body is written to a
        /// temporary file (see ``TemporaryFile``). Default 1 MiB.
        public var memoryThreshold: Int

        /// The folder for spilled bodies; `nil` for `$TMPDIR`, or `/tmp` when that is unset.
        public var temporaryDirectory: String?

        /// Creates options; every argument defaults to strict parsing with a 1 MiB threshold.
        public init(lenient: Bool = false, memoryThreshold: Int = 1024 * 1024, temporaryDirectory: String? = nil) {
            self.lenient = lenient
            self.memoryThreshold = memoryThreshold
            self.temporaryDirectory = temporaryDirectory
        }
    }
}
