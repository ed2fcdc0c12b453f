// SPDX-License-Identifier: Apache-2.0
/// Helpers for a serializer's ``ResponseSerializer/sniff(prefix:)``: matching a binary signature
/// and finding where a text body starts. Which formats are recognised is up to the registered
/// serializers (``Registry/sniff(_:)``); this type knows none.
///
/// ```swift
/// func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
///     ContentSniffer.firstSignificantByte(of: prefix) == UInt8(ascii: "{") ? .json : nil
/// }
/// ```
public enum ContentSniffer {
    /// Whether `prefix` starts with `signature`; a `nil` in the signature matches any byte.
    ///
    /// - Complexity: O(`signature.count`).
    public static func matches(_ signature: [UInt8?], at prefix: ArraySlice<UInt8>) -> Bool {
        prefix.count >= signature.count && zip(signature, prefix).allSatisfy { $0.0 == nil || $0.0 == $0.1 }
    }

    /// The index of the first byte of a text body after an optional UTF-8 byte order mark and
    /// white space (space, tab, CR, LF), or `nil` when there is none.
    ///
    /// - Complexity: O(n) in the leading white space.
    public static func firstSignificantIndex(of prefix: ArraySlice<UInt8>) -> Int? {
        var index = prefix.startIndex
        if prefix.starts(with: [0xEF, 0xBB, 0xBF]) { index += 3 }
        while index < prefix.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(prefix[index]) { index += 1 }
        return index < prefix.endIndex ? index : nil
    }

    /// The first byte of a text body after an optional UTF-8 byte order mark and white space.
    public static func firstSignificantByte(of prefix: ArraySlice<UInt8>) -> UInt8? {
        firstSignificantIndex(of: prefix).map { prefix[$0] }
    }

    /// Whether `bytes` contains the ASCII text `needle`.
    ///
    /// - Complexity: O(`bytes.count` × `needle.count`).
    public static func contains(_ needle: String, in bytes: ArraySlice<UInt8>) -> Bool {
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
