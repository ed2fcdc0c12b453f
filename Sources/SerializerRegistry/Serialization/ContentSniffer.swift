/// Recognises a body's format from its first bytes, for responses whose Content-Type is missing
/// or `application/octet-stream` (see ``DispatchingResponseSerializer``).
///
/// Only signatures that cannot be mistaken for text are used: the PNG, JPEG, GIF, WebP and TIFF
/// magic numbers, `bplist`, and — after an optional UTF-8 byte order mark and white space — `<`
/// (XML, or a property list when a `<plist` tag or `plist` DOCTYPE follows within the first
/// KiB) and `{` or `[` (JSON). A body that starts otherwise, such as a bare JSON number or plain
/// text, is not recognised.
public enum ContentSniffer {
    /// How far into an XML body to look for a `<plist` tag or DOCTYPE.
    static let plistSearchWindow = 1024

    /// The media type `body` looks like, or `nil` when no signature matches.
    ///
    /// - Complexity: O(1) for binary signatures; at most ``plistSearchWindow`` bytes for XML.
    public static func mediaType(of body: [UInt8]) -> MediaType? {
        if let type = binaryType(of: body) { return MediaType(type: type.0, subtype: type.1) }
        var start = 0
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        while start < body.count, [0x20, 0x09, 0x0A, 0x0D].contains(body[start]) { start += 1 }
        guard start < body.count else { return nil }
        switch body[start] {
        case UInt8(ascii: "<"):
            let window = body[start..<min(body.count, start + plistSearchWindow)]
            if contains(window, "<plist") || contains(window, "<!DOCTYPE plist") {
                return MediaType(type: "application", subtype: "x-plist")
            }
            return MediaType(type: "application", subtype: "xml")
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return MediaType(type: "application", subtype: "json")
        default:
            return nil
        }
    }

    /// The type and subtype of a binary signature at the start of `body`.
    private static func binaryType(of body: [UInt8]) -> (String, String)? {
        let signatures: [([UInt8?], String, String)] = [
            ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image", "png"),
            ([0xFF, 0xD8, 0xFF], "image", "jpeg"),
            (Array("GIF87a".utf8), "image", "gif"),
            (Array("GIF89a".utf8), "image", "gif"),
            (Array("RIFF".utf8) + [nil, nil, nil, nil] + Array("WEBP".utf8), "image", "webp"),
            ([0x49, 0x49, 0x2A, 0x00], "image", "tiff"),
            ([0x4D, 0x4D, 0x00, 0x2A], "image", "tiff"),
            (Array("bplist".utf8), "application", "x-plist"),
        ]
        for (signature, type, subtype) in signatures where body.count >= signature.count {
            if zip(signature, body).allSatisfy({ $0.0 == nil || $0.0 == $0.1 }) { return (type, subtype) }
        }
        return nil
    }

    /// Whether `bytes` contains the ASCII text `needle`.
    private static func contains(_ bytes: ArraySlice<UInt8>, _ needle: String) -> Bool {
        let needle = Array(needle.utf8)
        guard bytes.count >= needle.count else { return false }
        var index = bytes.startIndex
        while index + needle.count <= bytes.endIndex {
            if bytes[index..<index + needle.count].elementsEqual(needle) { return true }
            index += 1
        }
        return false
    }
}
