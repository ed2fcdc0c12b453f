// SPDX-License-Identifier: Apache-2.0
/// Strict base64 decoding for `<data>`: the standard alphabet, XML white space anywhere, whole
/// quads, `=` padding only at the end of the last quad.
enum PropertyListBase64 {
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
