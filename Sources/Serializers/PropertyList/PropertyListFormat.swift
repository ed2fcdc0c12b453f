// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// The two property-list encodings Satchel reads and writes.
public enum PropertyListFormat: String, Sendable, Hashable, CaseIterable {
    /// The XML form, `<plist version="1.0">` (Apple's `NSPropertyListXMLFormat_v1_0`).
    case xml
    /// The binary form, `bplist00` (Apple's `NSPropertyListBinaryFormat_v1_0`).
    case binary

    /// The format of `bytes`, told from their first bytes: `bplist00` is binary, a `<` (after an
    /// optional UTF-8 byte order mark and white space) is XML.
    ///
    /// - Throws: ``SatchelError/Code/unsupportedFormat`` for another binary version (`bplist01`,
    ///   `bplist15`), a UTF-16 or UTF-32 text, or an OpenStep text plist; ``SatchelError/Code/syntaxError``
    ///   for anything else.
    /// - Complexity: O(leading white space).
    public static func sniff(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> PropertyListFormat {
        let magic = Array("bplist".utf8)
        if bytes.count >= 6 && bytes.prefix(6).elementsEqual(magic) {
            if bytes.count >= 8 && bytes[6] == UInt8(ascii: "0") && bytes[7] == UInt8(ascii: "0") {
                return .binary
            }
            let version = String(decoding: bytes.dropFirst(6).prefix(2), as: UTF8.self)
            throw SatchelError(
                .unsupportedFormat, "binary property list version '\(version)' is not supported (only bplist00)",
                offset: 6)
        }
        if bytes.count >= 2 && (bytes[0] == 0xFE && bytes[1] == 0xFF || bytes[0] == 0xFF && bytes[1] == 0xFE) {
            throw SatchelError(.unsupportedFormat, "UTF-16 property lists are not supported (only UTF-8)", offset: 0)
        }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, bytes[index].isXMLWhiteSpace { index += 1 }
        guard index < bytes.count else {
            throw SatchelError(.truncatedInput, "the property list holds only white space", offset: index)
        }
        switch bytes[index] {
        case UInt8(ascii: "<"):
            return .xml
        case 0:
            throw SatchelError(
                .unsupportedFormat, "UTF-16 or UTF-32 property lists are not supported (only UTF-8)", offset: index)
        case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "\""):
            throw SatchelError(
                .unsupportedFormat, "OpenStep (old-style text) property lists are not supported, only XML and bplist00",
                offset: index)
        default:
            throw SatchelError(.syntaxError, "not a property list: neither bplist00 nor XML", offset: index)
        }
    }
}

extension UInt8 {
    /// Whether the byte is XML white space (space, tab, line feed, carriage return).
    @inline(__always)
    var isXMLWhiteSpace: Bool {
        self == 0x20 || self == 0x0A || self == 0x09 || self == 0x0D
    }
}
