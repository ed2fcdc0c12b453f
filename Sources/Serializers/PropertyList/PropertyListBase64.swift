// SPDX-License-Identifier: Apache-2.0
/// Base64 for `<data>`: written on one line with `=` padding; read strictly (the standard
/// alphabet, XML white space anywhere, whole quads, `=` padding only at the end of the last quad).
enum PropertyListBase64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the base64 text of `data`, padded, on one line.
    /// - Complexity: O(n).
    static func encode(_ data: UnsafeRawBufferPointer, to output: inout PropertyListByteBuffer) {
        output.appendInPlace((data.count + 2) / 3 * 4) { text in
            Self.alphabet.withUnsafeBufferPointer { alphabet in
                var index = 0
                var position = 0
                while index < data.count {
                    let remaining = data.count - index
                    let first = UInt32(data[index]) << 16
                    let second = remaining > 1 ? UInt32(data[index + 1]) << 8 : 0
                    let third = remaining > 2 ? UInt32(data[index + 2]) : 0
                    let group = first | second | third
                    text[position] = alphabet[Int(group >> 18 & 0x3F)]
                    text[position + 1] = alphabet[Int(group >> 12 & 0x3F)]
                    text[position + 2] = remaining > 1 ? alphabet[Int(group >> 6 & 0x3F)] : UInt8(ascii: "=")
                    text[position + 3] = remaining > 2 ? alphabet[Int(group & 0x3F)] : UInt8(ascii: "=")
                    index += 3
                    position += 4
                }
            }
        }
    }

    /// The 6-bit value of each byte; 0xFF for bytes outside the alphabet.
    private static let values: [UInt8] = (0..<256).map { byte -> UInt8 in
        switch UInt8(byte) {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): UInt8(byte) - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): UInt8(byte) - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt8(byte) - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: 0xFF
        }
    }

    /// The bytes `text` encodes, or `nil` when it is not strict base64.
    /// - Complexity: O(n).
    static func decode(_ text: UnsafeRawBufferPointer) -> [UInt8]? {
        var output: [UInt8] = []
        output.reserveCapacity(text.count / 4 * 3)
        var quad: UInt32 = 0
        var count = 0
        var padding = 0
        var finished = false
        let values = Self.values
        for byte in text where !byte.isXMLWhiteSpace {
            guard !finished else { return nil }
            if byte == UInt8(ascii: "=") {
                guard count >= 2 else { return nil }
                padding += 1
                quad <<= 6
            } else {
                let value = values[Int(byte)]
                guard value != 0xFF, padding == 0 else { return nil }
                quad = quad << 6 | UInt32(value)
            }
            count += 1
            if count == 4 {
                output.append(UInt8(truncatingIfNeeded: quad >> 16))
                if padding < 2 { output.append(UInt8(truncatingIfNeeded: quad >> 8)) }
                if padding < 1 { output.append(UInt8(truncatingIfNeeded: quad)) }
                finished = padding > 0
                quad = 0
                count = 0
            }
        }
        return count == 0 ? output : nil
    }
}
