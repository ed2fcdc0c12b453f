// SPDX-License-Identifier: Apache-2.0
/// A `Content-Range` header value for bytes (RFC 9110 §14.4): `bytes 0-499/1234`,
/// `bytes 500-999/*`, or `bytes */1234` for an unsatisfied range.
public struct ContentRange: Sendable, Hashable, CustomStringConvertible {
    /// The first and last byte positions, inclusive; `nil` for `bytes */length`.
    public var range: ClosedRange<Int64>?
    /// The length of the whole representation; `nil` when unknown (`*`).
    public var completeLength: Int64?

    /// Parses a header value.
    ///
    /// - Throws: ``SatchelError/Code/syntaxError`` naming the problem: another unit than
    ///   `bytes`, a missing `/`, a last position before the first, a range past the complete
    ///   length, or `*/*`.
    public init(parsing text: String) throws(SatchelError) {
        func fail(_ why: String) -> SatchelError {
            SatchelError(.syntaxError, "the Content-Range \"\(text)\" is invalid: \(why)")
        }
        let trimmed = text.trimmingASCIISpaces
        guard trimmed.lowercased().hasPrefix("bytes ") else { throw fail("the unit is not bytes") }
        let spec = trimmed.dropFirst(6).trimmingASCIISpaces
        let halves = spec.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard halves.count == 2 else { throw fail("there is no \"/\"") }
        if halves[1] == "*" {
            completeLength = nil
        } else {
            guard let length = Self.position(halves[1]) else { throw fail("the complete length is not a number") }
            completeLength = length
        }
        if halves[0] == "*" {
            guard completeLength != nil else { throw fail("both the range and the length are \"*\"") }
            range = nil
            return
        }
        let bounds = halves[0].split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard bounds.count == 2, let first = Self.position(bounds[0]), let last = Self.position(bounds[1]) else {
            throw fail("the range is not first-last")
        }
        guard first <= last else { throw fail("the last position is before the first") }
        if let completeLength, last >= completeLength { throw fail("the range ends past the complete length") }
        range = first...last
    }

    /// The number of bytes in the range, or `nil` for an unsatisfied range.
    public var count: Int64? { range.map { $0.upperBound - $0.lowerBound + 1 } }

    /// `bytes first-last/length` with `*` for what is unknown.
    public var description: String {
        "bytes " + (range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "*") + "/"
            + (completeLength.map(String.init) ?? "*")
    }

    /// A non-negative decimal of at most 18 digits (so it fits in Int64).
    private static func position(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.count <= 18, text.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int64(text)
    }
}

extension StringProtocol {
    /// The text without leading and trailing spaces and tabs.
    package var trimmingASCIISpaces: Substring {
        let text = self[...]
        let start = text.firstIndex { $0 != " " && $0 != "\t" } ?? text.endIndex
        let end = text.lastIndex { $0 != " " && $0 != "\t" }.map { text.index(after: $0) } ?? start
        return Substring(text[start..<Swift.max(start, end)])
    }
}
