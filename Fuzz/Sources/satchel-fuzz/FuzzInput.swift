// SPDX-License-Identifier: Apache-2.0
/// One fuzzer input, with the knobs derived from it: a hash that picks options and the chunk
/// sizes an incremental parser is fed with, and a split into a first line and the rest.
struct FuzzInput {
    /// The bytes libFuzzer produced.
    let bytes: [UInt8]
    /// FNV-1a of the bytes: a deterministic source for option choices and chunk boundaries, so a
    /// saved input reproduces exactly.
    let hash: UInt64

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        self.hash = hash
    }

    /// Bit `index` of ``hash``: a yes/no knob.
    func flag(_ index: Int) -> Bool {
        hash >> UInt64(index & 63) & 1 == 1
    }

    /// The text before the first LF (a CR before it dropped) and the bytes after it; the whole
    /// input as the rest when there is no LF.
    func splitFirstLine() -> (line: String, rest: [UInt8]) {
        guard let newline = bytes.firstIndex(of: 0x0A) else { return ("", bytes) }
        var end = newline
        if end > 0 && bytes[end - 1] == 0x0D { end -= 1 }
        return (String(decoding: bytes[..<end], as: UTF8.self), Array(bytes[(newline + 1)...]))
    }

    /// `body` cut into chunks of 0 to 64 bytes (empty chunks included, since a feed of nothing
    /// must be harmless), sizes drawn from an xorshift generator seeded with ``hash``.
    func chunks(of body: [UInt8]) -> [ArraySlice<UInt8>] {
        var state = hash | 1
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        while start < body.count {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            // Mostly small chunks (every boundary condition), sometimes one byte at a time.
            let size = state % 8 == 0 ? Int((state >> 8) % 2) : Int((state >> 16) % 65)
            let end = min(body.count, start + size)
            result.append(body[start..<end])
            start = end
        }
        return result
    }
}
