// SPDX-License-Identifier: Apache-2.0
extension ImageOrientation {
    /// The orientation tag (0x0112) in the first IFD of an EXIF TIFF structure (the bytes after
    /// `Exif\0\0`), or `nil` when there is none or it is malformed. Every offset is bounds-checked:
    /// EXIF comes from untrusted files.
    ///
    /// - Complexity: O(entries in the first IFD), at most 65 535.
    init?(exif: UnsafeRawBufferPointer) {
        let littleEndian: Bool
        switch (exif.count >= 8 ? exif[0] : 0, exif.count >= 8 ? exif[1] : 0) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func uint16(at offset: Int) -> Int? {
            guard offset >= 0, offset <= exif.count - 2 else { return nil }
            let (first, second) = (Int(exif[offset]), Int(exif[offset + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func uint32(at offset: Int) -> Int? {
            guard let low = uint16(at: littleEndian ? offset : offset + 2),
                let high = uint16(at: littleEndian ? offset + 2 : offset)
            else { return nil }
            return high << 16 | low
        }
        guard uint16(at: 2) == 42, let directory = uint32(at: 4), let count = uint16(at: directory) else { return nil }
        for index in 0..<count {
            let entry = directory + 2 + 12 * index
            guard let tag = uint16(at: entry), let type = uint16(at: entry + 2), let values = uint32(at: entry + 4)
            else { return nil }
            if tag == 0x0112 {
                guard type == 3, values >= 1, let raw = uint16(at: entry + 8) else { return nil }
                self.init(rawValue: raw)
                return
            }
        }
        return nil
    }
}
