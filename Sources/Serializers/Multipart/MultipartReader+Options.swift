// SPDX-License-Identifier: Apache-2.0
extension MultipartReader {
    /// How a ``MultipartReader`` reads a body.
    ///
    /// The defaults read what browsers, curl, Python's requests and hand-written senders send
    /// and refuse what lets two parsers see two different bodies (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md has the
    /// table of what is accepted and why).
    public struct Options: Sendable, Hashable {
        /// Accept further deviations that real clients produce, instead of failing: a repeated
        /// Content-Disposition or Content-Type header (the first wins), a Content-Disposition
        /// of another type than `form-data`, a malformed `filename*` (ignored), a boundary
        /// outside RFC 2046's characters or length, a quoted `filename*`, and a part body that
        /// starts with the boundary (an empty part). Default `false`.
        public var lenient: Bool

        /// Which line breaks end header lines, boundary lines and part bodies. Default
        /// ``LineEndings/crlfOrLF``.
        public var lineEndings: LineEndings

        /// A part's body is held in memory up to this many bytes; a larger body is written to a
        /// temporary file (see ``TemporaryFile``). Default 1 MiB.
        public var memoryThreshold: Int

        /// The folder for spilled bodies; `nil` for `$TMPDIR`, or `/tmp` when that is unset.
        public var temporaryDirectory: String?

        /// Creates options; every argument defaults as its property says.
        public init(
            lenient: Bool = false, lineEndings: LineEndings = .crlfOrLF, memoryThreshold: Int = 1024 * 1024,
            temporaryDirectory: String? = nil
        ) {
            self.lenient = lenient
            self.lineEndings = lineEndings
            self.memoryThreshold = memoryThreshold
            self.temporaryDirectory = temporaryDirectory
        }
    }

    /// The line breaks a ``MultipartReader`` accepts.
    public enum LineEndings: Sendable, Hashable {
        /// CRLF or a bare LF, mixed freely within one body, as werkzeug reads bodies. A delimiter is then `LF--boundary` (a CR before it belongs to the
        /// delimiter), so part content that holds `LF--boundary` ends the part: safe, since a
        /// sender that knows the boundary can end a part anyway. The default.
        case crlfOrLF
        /// CRLF only, as RFC 2046 and RFC 7578 write bodies, and as python-multipart and Python's
        /// `multipart` read them: a bare LF after a boundary or in the headers is an error, and
        /// `LF--boundary` inside a part is content.
        case crlf
    }
}
