// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartReader {
    /// One part of a multipart body, as ``MultipartReader`` read it: headers as received, the
    /// Content-Disposition parameters, and the body in memory or in a ``TemporaryFile``.
    public struct Part: Sendable, Equatable {
        /// One header field as received: the name with its case kept, the value with surrounding
        /// whitespace removed and folded lines joined by one space, decoded as UTF-8 (or
        /// ISO-8859-1 when the bytes are not UTF-8). The same type the builder writes.
        public typealias Header = MultipartPart.Header

        /// Where a part's body is.
        public enum Body: Sendable, Equatable {
            /// In memory (at most ``MultipartReader/Options/memoryThreshold`` bytes).
            case bytes([UInt8])
            /// In a temporary file, removed when the last part referring to it is released.
            case file(TemporaryFile)
        }

        /// The part's index in its body, from 0.
        public let index: Int
        /// The byte offset of the part's first header byte in the body.
        public let offset: Int
        /// The byte offset of the part's first body byte.
        public let bodyOffset: Int
        /// The header fields in the order they arrived.
        public let headers: [Header]
        /// The body.
        public let body: Body
        /// The Content-Disposition type in lower case (`form-data`), if the part has the header.
        public let dispositionType: String?
        /// The `name` parameter of Content-Disposition.
        public let name: String?
        /// The `filename` parameter as sent, unquoted: a path stays a path (see ``safeFilename``).
        public let filename: String?
        /// The RFC 8187 `filename*` parameter, decoded from UTF-8 or ISO-8859-1.
        public let filenameStar: String?
        /// The Content-Type header's value as received, if any.
        public let contentType: String?

        init(head: PartHead, body: Body) {
            index = head.index
            offset = head.offset
            bodyOffset = head.bodyOffset
            headers = head.headers
            self.body = body
            dispositionType = head.disposition?.type
            name = head.disposition?.name
            filename = head.disposition?.filename
            filenameStar = head.disposition?.filenameStar
            contentType = head.contentType
        }

        /// The body's length in bytes.
        public var size: Int {
            switch body {
            case .bytes(let bytes): bytes.count
            case .file(let file): file.size
            }
        }

        /// Whether the body was spilled to a temporary file.
        public var isSpilled: Bool {
            if case .file = body { return true }
            return false
        }

        /// The parsed ``contentType``; `nil` when absent or not a valid media type.
        public var mediaType: MediaType? {
            contentType.flatMap { try? MediaType(parsing: $0) }
        }

        /// The value of the first header named `name`, compared without regard to case.
        public func header(_ name: String) -> String? {
            headers.first(named: name)?.value
        }

        /// The file name reduced to a name safe to create in a folder: ``filenameStar`` or else
        /// ``filename``, cut after its last `/` or `\`, with control characters removed; `nil` when
        /// nothing usable is left (no file name, an empty name, `.` or `..`).
        public var safeFilename: String? {
            guard let raw = filenameStar ?? filename else { return nil }
            let base =
                raw.split(omittingEmptySubsequences: false) { $0 == "/" || $0 == "\\" }.last.map(String.init) ?? ""
            var cleaned = String.UnicodeScalarView()
            for scalar in base.unicodeScalars where !(scalar.value < 0x20 || scalar.value == 0x7F) {
                cleaned.append(scalar)
            }
            let name = String(cleaned)
            if name.isEmpty || name == "." || name == ".." { return nil }
            return name
        }

        /// The body's bytes, read from the temporary file for a spilled part.
        ///
        /// - Throws: ``SatchelError/Code/limitExceeded`` when the body is larger than `limit`;
        ///   ``SatchelError/Code/io`` when the file cannot be read.
        public func bytes(limit: Int = .max) throws -> [UInt8] {
            switch body {
            case .bytes(let bytes): bytes
            case .file(let file): try file.readAll(limit: limit)
            }
        }

        /// A rewindable stream over the body (which keeps a spilled body's file alive).
        public func makeBodyStream() throws -> any BodyStream {
            switch body {
            case .bytes(let bytes): ByteBodyStream(bytes)
            case .file(let file): try file.makeBodyStream()
            }
        }
    }
}

extension MultipartReader.Part {
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
