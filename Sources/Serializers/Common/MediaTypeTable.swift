// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Media types by file name extension, for file parts (Linux has no UTType).
///
/// A lookup tries the table shipped with Satchel (``builtIn``: common text, image, audio, video,
/// archive, office, font and data formats), then the system table (`/etc/mime.types`, when it
/// exists), then answers `application/octet-stream`. Extensions are compared without case.
public struct MediaTypeTable: Sendable {
    /// The extensions Satchel knows itself, in lower case, with their media types.
    public static let builtIn: [String: String] = [
        // Text and data
        "txt": "text/plain", "text": "text/plain", "log": "text/plain", "conf": "text/plain",
        "md": "text/markdown", "markdown": "text/markdown", "csv": "text/csv",
        "tsv": "text/tab-separated-values", "html": "text/html", "htm": "text/html",
        "css": "text/css", "js": "text/javascript", "mjs": "text/javascript", "ics": "text/calendar",
        "vcf": "text/vcard", "rtf": "application/rtf", "xml": "application/xml", "xsl": "application/xml",
        "xhtml": "application/xhtml+xml", "json": "application/json", "jsonld": "application/ld+json",
        "geojson": "application/geo+json", "ndjson": "application/x-ndjson", "yaml": "application/yaml",
        "yml": "application/yaml", "toml": "application/toml", "plist": "application/x-plist",
        "atom": "application/atom+xml", "rss": "application/rss+xml", "svg": "image/svg+xml",
        "wasm": "application/wasm", "pdf": "application/pdf", "ps": "application/postscript",
        "eps": "application/postscript", "sql": "application/sql", "sh": "application/x-sh",
        // Images
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "jpe": "image/jpeg",
        "gif": "image/gif", "webp": "image/webp", "avif": "image/avif", "heic": "image/heic",
        "heif": "image/heif", "bmp": "image/bmp", "ico": "image/vnd.microsoft.icon",
        "tif": "image/tiff", "tiff": "image/tiff", "jxl": "image/jxl", "apng": "image/apng",
        "psd": "image/vnd.adobe.photoshop",
        // Audio
        "mp3": "audio/mpeg", "m4a": "audio/mp4", "aac": "audio/aac", "wav": "audio/wav",
        "ogg": "audio/ogg", "oga": "audio/ogg", "opus": "audio/opus", "flac": "audio/flac",
        "mid": "audio/midi", "midi": "audio/midi", "weba": "audio/webm", "aif": "audio/aiff",
        "aiff": "audio/aiff",
        // Video
        "mp4": "video/mp4", "m4v": "video/mp4", "mov": "video/quicktime", "webm": "video/webm",
        "ogv": "video/ogg", "mkv": "video/x-matroska", "avi": "video/x-msvideo", "mpeg": "video/mpeg",
        "mpg": "video/mpeg", "3gp": "video/3gpp", "wmv": "video/x-ms-wmv", "ts": "video/mp2t",
        // Archives and compressed data
        "zip": "application/zip", "gz": "application/gzip", "tgz": "application/gzip",
        "tar": "application/x-tar", "bz2": "application/x-bzip2", "xz": "application/x-xz",
        "zst": "application/zstd", "7z": "application/x-7z-compressed", "rar": "application/vnd.rar",
        "br": "application/x-brotli", "jar": "application/java-archive",
        "deb": "application/vnd.debian.binary-package", "rpm": "application/x-rpm",
        "dmg": "application/x-apple-diskimage", "iso": "application/x-iso9660-image",
        "apk": "application/vnd.android.package-archive",
        // Office documents
        "doc": "application/msword",
        "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xls": "application/vnd.ms-excel",
        "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "ppt": "application/vnd.ms-powerpoint",
        "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        "odt": "application/vnd.oasis.opendocument.text",
        "ods": "application/vnd.oasis.opendocument.spreadsheet",
        "odp": "application/vnd.oasis.opendocument.presentation", "epub": "application/epub+zip",
        "pages": "application/vnd.apple.pages", "numbers": "application/vnd.apple.numbers",
        "key": "application/vnd.apple.keynote",
        // Fonts
        "woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
        "ttc": "font/collection", "eot": "application/vnd.ms-fontobject",
        // Binary data and keys
        "bin": "application/octet-stream", "exe": "application/octet-stream",
        "so": "application/octet-stream", "dll": "application/octet-stream",
        "protobuf": "application/x-protobuf", "cbor": "application/cbor",
        "msgpack": "application/msgpack", "pem": "application/x-pem-file",
        "crt": "application/x-x509-ca-cert", "der": "application/x-x509-ca-cert",
        "p12": "application/x-pkcs12", "pfx": "application/x-pkcs12",
        "torrent": "application/x-bittorrent", "swift": "text/x-swift", "c": "text/x-c",
        "h": "text/x-c", "py": "text/x-python",
    ]

    /// The default table: ``builtIn``, then `/etc/mime.types`, read once.
    public static let standard = MediaTypeTable()

    /// The system table's entries (extension to media type text), empty when it is absent.
    public let systemEntries: [String: String]

    /// Creates a table that falls back to the system table at `systemTablePath`.
    ///
    /// - Parameter systemTablePath: A file in the `mime.types` format (a media type followed by
    ///   its extensions on each line, `#` comments); `nil`, or a missing or unreadable file, for
    ///   none. `/etc/mime.types` by default.
    public init(systemTablePath: String? = "/etc/mime.types") {
        systemEntries = systemTablePath.map(Self.readSystemTable) ?? [:]
    }

    /// The media type for a file name extension (without the dot), `application/octet-stream`
    /// when neither table knows it.
    public func mediaType(forExtension fileExtension: String) -> MediaType {
        let key = fileExtension.lowercased()
        if let text = Self.builtIn[key] ?? systemEntries[key], let mediaType = MediaType(text) {
            return mediaType
        }
        return .octetStream
    }

    /// The media type for a file name or path, by its extension: the text after the last `.` of
    /// the last path component (none for `README` or `.profile`).
    public func mediaType(forPath path: String) -> MediaType {
        guard let fileExtension = Self.fileExtension(of: path) else { return .octetStream }
        return mediaType(forExtension: fileExtension)
    }

    /// The extension of the last path component of `path`, or `nil` when it has none.
    public static func fileExtension(of path: String) -> String? {
        let name = path.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let fileExtension = name[name.index(after: dot)...]
        return fileExtension.isEmpty ? nil : String(fileExtension)
    }

    /// Parses a `mime.types` file; the first media type listed for an extension wins.
    static func readSystemTable(at path: String) -> [String: String] {
        guard let file = fopen(path, "r") else { return [:] }
        defer { fclose(file) }
        var entries: [String: String] = [:]
        var line: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(line) }
        while getline(&line, &capacity, file) >= 0, let line {
            let text = String(cString: line)
            guard !text.hasPrefix("#") else { continue }
            let fields = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            guard let type = fields.first, MediaType(String(type)) != nil else { continue }
            for fileExtension in fields.dropFirst() {
                if fileExtension.hasPrefix("#") { break }
                let key = fileExtension.lowercased()
                if entries[key] == nil { entries[key] = String(type) }
            }
        }
        return entries
    }
}
