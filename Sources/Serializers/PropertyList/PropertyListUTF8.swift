// SPDX-License-Identifier: Apache-2.0
/// UTF-8 validation for plist text, specialised for raw buffers (the standard library's
/// `String(validating:as:)` is generic and, called across modules, spends most of its time
/// looking up metadata).
enum PropertyListUTF8 {
    /// The string of `bytes`, or `nil` when they are not well-formed UTF-8 (overlong forms,
    /// surrogates and code points above U+10FFFF are refused, as Unicode requires).
    /// - Complexity: O(n).
    static func string(_ bytes: UnsafeRawBufferPointer) -> String? {
        isValid(bytes) ? String(decoding: bytes, as: UTF8.self) : nil
    }

    /// Whether `bytes` are well-formed UTF-8.
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            // Eight ASCII bytes at a time: none has its high bit set.
            if count - index >= 8,
                bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0
            {
                index += 8
                continue
            }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return false
            }
            guard count - index >= length else { return false }
            let second = bytes[index + 1]
            guard second >= lower && second <= upper else { return false }
            for offset in 2..<length where bytes[index + offset] & 0xC0 != 0x80 { return false }
            index += length
        }
        return true
    }

    /// The string of `count` big-endian UTF-16 code units in `bytes`, or `nil` for a lone
    /// surrogate.
    /// - Complexity: O(n).
    static func string(bigEndianUTF16 bytes: UnsafeRawBufferPointer, count: Int) -> String? {
        var utf8: [UInt8] = []
        utf8.reserveCapacity(count * 3)
        var index = 0
        while index < count {
            let unit = UInt32(bytes[2 * index]) << 8 | UInt32(bytes[2 * index + 1])
            index += 1
            var scalar = unit
            if unit & 0xF800 == 0xD800 {
                guard unit < 0xDC00, index < count else { return nil }
                let low = UInt32(bytes[2 * index]) << 8 | UInt32(bytes[2 * index + 1])
                guard low & 0xFC00 == 0xDC00 else { return nil }
                index += 1
                scalar = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            }
            switch scalar {
            case ..<0x80:
                utf8.append(UInt8(scalar))
            case ..<0x800:
                utf8.append(UInt8(0xC0 | scalar >> 6))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            case ..<0x10000:
                utf8.append(UInt8(0xE0 | scalar >> 12))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            default:
                utf8.append(UInt8(0xF0 | scalar >> 18))
                utf8.append(UInt8(0x80 | scalar >> 12 & 0x3F))
                utf8.append(UInt8(0x80 | scalar >> 6 & 0x3F))
                utf8.append(UInt8(0x80 | scalar & 0x3F))
            }
        }
        return String(decoding: utf8, as: UTF8.self)
    }
}
