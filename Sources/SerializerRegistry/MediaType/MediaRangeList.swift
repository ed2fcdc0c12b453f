// SPDX-License-Identifier: Apache-2.0
/// A weighted list of media ranges, as in an `Accept` header (RFC 9110 §12.5.1).
///
/// Used both to negotiate (`quality(for:)`) and as a serializer's set of acceptable content
/// types. A range with `q=0` marks a type as *not acceptable*, even when a broader range accepts
/// it: the most specific matching range decides.
public struct MediaRangeList: Sendable, Hashable, CustomStringConvertible {
    /// One media range and its weight.
    public struct Range: Sendable, Hashable {
        /// The media type or pattern (`text/*`, `*/*`, `application/*+json`).
        public var mediaType: MediaType
        /// The weight from 0 (not acceptable) to 1.
        public var quality: Double

        /// Creates a range.
        public init(_ mediaType: MediaType, quality: Double = 1) {
            self.mediaType = mediaType
            self.quality = quality
        }
    }

    /// The ranges in their order.
    public var ranges: [Range]

    /// Creates a list from ranges.
    public init(_ ranges: [Range] = []) {
        self.ranges = ranges
    }

    /// Creates a list accepting each media type with weight 1.
    public init(accepting mediaTypes: [MediaType]) {
        self.ranges = mediaTypes.map { Range($0) }
    }

    /// Parses an `Accept`-style list: comma-separated media ranges, each with an optional weight.
    ///
    /// - Throws: ``SatchelError/Code/invalidMediaType`` for a malformed range or a weight that
    ///   is not a number from 0 to 1 with at most three decimals.
    public init(parsing text: String) throws(SatchelError) {
        var scanner = MediaTypeParser.Scanner(text, what: "media range list")
        var ranges: [Range] = []
        while true {
            scanner.skipWhitespace()
            guard let byte = scanner.current else { break }
            if byte == UInt8(ascii: ",") {  // empty list elements are allowed
                scanner.index += 1
                continue
            }
            let (type, subtype) = try scanner.essence()
            var valueOffsets: [Int] = []
            var parameters = try scanner.parameters(stopAtComma: true, valueOffsets: &valueOffsets)
            var quality = 1.0
            if let qIndex = parameters.firstIndex(where: { $0.name == "q" }) {
                guard let weight = Self.weight(parameters[qIndex].value) else {
                    scanner.index = valueOffsets[qIndex]
                    throw scanner.failure(
                        "weight \"\(parameters[qIndex].value)\" is not a number from 0 to 1 with at most three decimals"
                    )
                }
                quality = weight
                parameters.removeSubrange(qIndex...)  // what follows q are accept extensions
            }
            ranges.append(Range(MediaType(type: type, subtype: subtype, parameters: parameters), quality: quality))
        }
        self.ranges = ranges
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`
    static func weight(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        guard bytes.count <= 5 else { return nil }
        var thousandths = first == UInt8(ascii: "1") ? 1000 : 0
        if bytes.count > 1 {
            guard bytes[1] == UInt8(ascii: ".") else { return nil }
            var scale = 100
            for byte in bytes[2...] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                thousandths += Int(byte - UInt8(ascii: "0")) * scale
                scale /= 10
            }
        }
        guard thousandths <= 1000 else { return nil }
        return Double(thousandths) / 1000
    }

    /// The weight of `mediaType`: that of the most specific range matching it, 0 when none does.
    public func quality(for mediaType: MediaType) -> Double {
        var best: Range?
        for range in ranges where range.mediaType.matches(mediaType) {
            if let current = best, current.mediaType.specificity >= range.mediaType.specificity { continue }
            best = range
        }
        return best?.quality ?? 0
    }

    /// Whether `mediaType` has a weight above zero.
    public func accepts(_ mediaType: MediaType) -> Bool {
        quality(for: mediaType) > 0
    }

    /// The list as an `Accept` header value; weights of 1 are left out.
    public var description: String {
        ranges.map { range in
            let text = range.mediaType.text(parameterSeparator: ";")
            guard range.quality < 1 else { return text }
            return "\(text);q=\(String(format3: range.quality))"
        }.joined(separator: ", ")
    }
}

extension String {
    /// A weight with at most three decimals and no trailing zeros (`0.9`, `0.25`, `0`).
    ///
    /// The weight is clamped to 0...1 (NaN counts as 0), and a positive weight never rounds
    /// down to `0`, which would mean "not acceptable".
    init(format3 weight: Double) {
        let clamped = weight.isNaN ? 0 : Swift.min(Swift.max(weight, 0), 1)
        var thousandths = Int((clamped * 1000).rounded())
        if thousandths == 0 && clamped > 0 { thousandths = 1 }
        if thousandths % 1000 == 0 {
            self = "\(thousandths / 1000)"
            return
        }
        var fraction = String(thousandths % 1000)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        self = "\(thousandths / 1000).\(fraction)"
    }
}
