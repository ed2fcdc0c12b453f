// SPDX-License-Identifier: Apache-2.0
/// How the raw bytes of a document hold its markup characters, so that ``XMLPrologScanner`` and
/// ``XMLCommentHoldBack`` can find `<`, `!`, `-`, `?`, `>`, quotes and brackets without
/// decoding: in units of 1 byte (UTF-8, Latin-1 and the other ASCII-compatible encodings),
/// 2 (UTF-16) or 4 (UCS-4), big- or little-endian.
///
/// The width comes from the Content-Type's charset when there is one, otherwise from the first
/// four bytes, as libxml2 detects it (a byte order mark, or `<?` in UTF-16 or `<` in UCS-4).
struct XMLCodeUnits {
    /// Bytes per unit: 1, 2 or 4.
    let width: Int
    /// Whether a unit's most significant byte comes first.
    let bigEndian: Bool

    /// The units of a document.
    /// - Parameters:
    ///   - charset: The Content-Type's charset (lowercased), or `nil` to detect from the bytes.
    ///   - first: The document's first bytes (four are enough).
    init(charset: String?, first: some Collection<UInt8>) {
        let b = Array(first.prefix(4)) + Array(repeating: 0x01, count: max(0, 4 - first.count))
        let littleEndianMark = b[0] == 0xFF && b[1] == 0xFE
        if let charset {
            let name = charset.filter { $0.isLetter || $0.isNumber }
            if name.hasPrefix("utf16") || name.hasPrefix("ucs2") {
                width = 2
                bigEndian = name.hasSuffix("be") || (!name.hasSuffix("le") && !littleEndianMark)
            } else if name.hasPrefix("utf32") || name.hasPrefix("ucs4") {
                width = 4
                bigEndian = name.hasSuffix("be") || (!name.hasSuffix("le") && !littleEndianMark)
            } else {
                (width, bigEndian) = (1, true)
            }
            return
        }
        switch (b[0], b[1], b[2], b[3]) {
        case (0x00, 0x00, 0xFE, 0xFF), (0x00, 0x00, 0x00, 0x3C): (width, bigEndian) = (4, true)
        case (0xFF, 0xFE, 0x00, 0x00), (0x3C, 0x00, 0x00, 0x00): (width, bigEndian) = (4, false)
        case (0xFE, 0xFF, _, _), (0x00, 0x3C, 0x00, 0x3F): (width, bigEndian) = (2, true)
        case (0xFF, 0xFE, _, _), (0x3C, 0x00, 0x3F, 0x00): (width, bigEndian) = (2, false)
        default: (width, bigEndian) = (1, true)
        }
    }

    /// The ASCII character of the unit at `offset` (a multiple of ``width``; the whole unit must
    /// be in `bytes`); 0x80 for a unit that is not ASCII.
    @inline(__always)
    func ascii(in bytes: UnsafeRawBufferPointer, at offset: Int) -> UInt8 {
        if width == 1 { return bytes[offset] }
        var high: UInt32 = 0
        let last = offset + width - 1
        for index in offset..<last {
            high |= UInt32(bigEndian ? bytes[index] : bytes[last - (index - offset)])
        }
        let low = bigEndian ? bytes[last] : bytes[offset]
        return high == 0 && low < 0x80 ? low : 0x80
    }

    /// `count` rounded down to whole units.
    func wholeUnits(_ count: Int) -> Int {
        count - count % width
    }
}
