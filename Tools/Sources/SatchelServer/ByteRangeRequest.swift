// SPDX-License-Identifier: Apache-2.0
/// A `Range: bytes=…` request header with exactly one range (RFC 9110 §14.1.2), resolved
/// against a representation's length.
enum ByteRangeRequest: Equatable {
    /// The bytes to send.
    case satisfiable(Range<Int64>)
    /// No byte of the range exists (a 416).
    case unsatisfiable
    /// The header is not one valid byte range (several ranges, another unit, bad syntax):
    /// RFC 9110 lets a server ignore it and send the whole representation.
    case ignored

    /// Resolves `header` against a representation of `length` bytes: `a-b` (clamped to the
    /// end), `a-`, and the suffix `-n` (the last n bytes).
    init(header: String, length: Int64) {
        let text = header.trimmingCharacters(in: " \t")
        guard text.lowercased().hasPrefix("bytes=") else { self = .ignored; return }
        let spec = text.dropFirst(6).trimmingCharacters(in: " \t")
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { self = .ignored; return }
        let firstText = spec[..<dash], lastText = spec[spec.index(after: dash)...]
        if firstText.isEmpty {
            guard let suffix = Self.position(lastText) else { self = .ignored; return }
            guard suffix > 0, length > 0 else { self = .unsatisfiable; return }
            self = .satisfiable(max(0, length - suffix)..<length)
            return
        }
        guard let first = Self.position(firstText) else { self = .ignored; return }
        var end = length
        if !lastText.isEmpty {
            guard let last = Self.position(lastText), last >= first else { self = .ignored; return }
            end = min(length, last + 1)
        }
        self = first < length ? .satisfiable(first..<end) : .unsatisfiable
    }

    /// A decimal of at most 18 digits.
    private static func position(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int64(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing characters from `set`.
    fileprivate func trimmingCharacters(in set: String) -> Substring {
        let trimmedStart = drop { set.contains($0) }
        var end = trimmedStart.endIndex
        while end > trimmedStart.startIndex, set.contains(trimmedStart[trimmedStart.index(before: end)]) {
            end = trimmedStart.index(before: end)
        }
        return Substring(trimmedStart[trimmedStart.startIndex..<end])
    }
}
