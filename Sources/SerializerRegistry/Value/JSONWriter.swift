// SPDX-License-Identifier: Apache-2.0
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a ``Value`` as UTF-8 JSON text (RFC 8259).
///
/// Used by the JSON request serializer and for canonical JSON output. Bytes become base64
/// strings and dates ISO-8601 strings; payloads are written in their canonical form.
public struct JSONWriter: Sendable {
    /// How to write.
    public struct Options: Sendable, Hashable {
        /// What to do with NaN and infinities, which JSON cannot express.
        public enum NonFiniteNumbers: Sendable, Hashable {
            /// Throw ``SatchelError/Code/unencodableValue``.
            case `throw`
            /// Write `null`.
            case null
        }

        /// Indent nested values with two spaces, one member per line.
        public var prettyPrinted = false
        /// Write object members sorted by key instead of in their order.
        public var sortedKeys = false
        /// Write `/` as `\/` (Foundation's default).
        public var escapesSlashes = true
        /// NaN and infinities.
        public var nonFiniteNumbers = NonFiniteNumbers.throw
        /// Deepest nesting written before ``SatchelError/Code/limitExceeded``.
        public var maxDepth = Limits.default.maxDepth

        /// Default options: compact, members in order, `/` escaped.
        public init() {}
    }

    /// The options in force.
    public var options: Options

    /// Creates a writer.
    public init(options: Options = Options()) {
        self.options = options
    }

    /// Returns the JSON text of `value`.
    ///
    /// - Throws: ``SatchelError/Code/unencodableValue`` for a non-finite double (unless
    ///   ``Options/nonFiniteNumbers`` is `.null`); ``SatchelError/Code/limitExceeded`` past
    ///   ``Options/maxDepth``.
    /// - Complexity: O(n) in the size of the output.
    public func write(_ value: Value) throws(SatchelError) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        try write(value, into: &output)
        return output
    }

    /// Appends the JSON text of `value` to `output`.
    public func write(_ value: Value, into output: inout [UInt8]) throws(SatchelError) {
        var path: [KeyPathComponent] = []
        try write(value, into: &output, depth: 0, path: &path)
    }

    private func write(
        _ value: Value, into output: inout [UInt8], depth: Int, path: inout [KeyPathComponent]
    ) throws(SatchelError) {
        switch value {
        case .null:
            output.append(contentsOf: "null".utf8)
        case .bool(let flag):
            output.append(contentsOf: flag ? "true".utf8 : "false".utf8)
        case .integer(let number):
            Self.appendInteger(number, to: &output)
        case .unsignedInteger(let number):
            Self.appendUnsigned(number, negative: false, to: &output)
        case .double(let number):
            try appendDouble(number, to: &output, path: path)
        case .string(let string):
            appendString(string, to: &output)
        case .bytes(let bytes):
            appendString(Data(bytes).base64EncodedString(), to: &output)
        case .date(let date):
            appendString(ISO8601.string(from: date), to: &output)
        case .payload:
            try write(value.canonicalForm, into: &output, depth: depth, path: &path)
        case .array(let elements):
            try checkDepth(depth, path: path)
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                newline(depth + 1, into: &output)
                path.append(.index(index))
                try write(element, into: &output, depth: depth + 1, path: &path)
                path.removeLast()
            }
            if !elements.isEmpty { newline(depth, into: &output) }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            try checkDepth(depth, path: path)
            output.append(UInt8(ascii: "{"))
            var first = true
            func member(_ key: String, _ element: Value) throws(SatchelError) {
                if !first { output.append(UInt8(ascii: ",")) }
                first = false
                newline(depth + 1, into: &output)
                appendString(key, to: &output)
                output.append(UInt8(ascii: ":"))
                if options.prettyPrinted { output.append(UInt8(ascii: " ")) }
                path.append(.key(key))
                try write(element, into: &output, depth: depth + 1, path: &path)
                path.removeLast()
            }
            if options.sortedKeys {
                for (key, element) in members.sorted(by: { $0.key < $1.key }) { try member(key, element) }
            } else {
                for (key, element) in members { try member(key, element) }
            }
            if !members.isEmpty { newline(depth, into: &output) }
            output.append(UInt8(ascii: "}"))
        }
    }

    private func checkDepth(_ depth: Int, path: [KeyPathComponent]) throws(SatchelError) {
        if depth >= options.maxDepth {
            throw .limitExceeded(
                "maxDepth", options.maxDepth, "nesting", keyPath: KeyPathComponent.render(path))
        }
    }

    private func newline(_ depth: Int, into output: inout [UInt8]) {
        guard options.prettyPrinted else { return }
        output.append(UInt8(ascii: "\n"))
        output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 2))
    }

    private func appendDouble(_ number: Double, to output: inout [UInt8], path: [KeyPathComponent]) throws(SatchelError)
    {
        guard number.isFinite else {
            if options.nonFiniteNumbers == .null {
                output.append(contentsOf: "null".utf8)
                return
            }
            throw SatchelError(
                .unencodableValue, "JSON cannot express the number \(number)",
                keyPath: KeyPathComponent.render(path))
        }
        // Swift's description is the shortest text that reads back as the same double.
        output.append(contentsOf: number.description.utf8)
    }

    package static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
        if number < 0 {
            appendUnsigned(number.magnitude, negative: true, to: &output)
        } else {
            appendUnsigned(UInt64(number), negative: false, to: &output)
        }
    }

    package static func appendUnsigned(_ number: UInt64, negative: Bool, to output: inout [UInt8]) {
        if negative { output.append(UInt8(ascii: "-")) }
        if number < 10 {
            output.append(UInt8(ascii: "0") &+ UInt8(number))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var remaining = number
            var index = 20
            while remaining > 0 {
                index -= 1
                digits[index] = UInt8(ascii: "0") &+ UInt8(remaining % 10)
                remaining /= 10
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: digits[index...]))
        }
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    private func appendString(_ string: String, to output: inout [UInt8]) {
        var string = string
        string.withUTF8 { utf8 in appendString(utf8, to: &output) }
    }

    private func appendString(_ utf8: UnsafeBufferPointer<UInt8>, to output: inout [UInt8]) {
        Self.appendString(utf8, escapesSlashes: options.escapesSlashes, to: &output)
    }

    /// Appends UTF-8 text as a JSON string: quoted, with `"`, `\\`, the control characters and,
    /// when asked, `/` escaped.
    package static func appendString(
        _ utf8: UnsafeBufferPointer<UInt8>, escapesSlashes: Bool, to output: inout [UInt8]
    ) {
        output.append(UInt8(ascii: "\""))
        var runStart = 0
        for index in 0..<utf8.count {
            let byte = utf8[index]
            let needsEscape =
                byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
                || (byte == UInt8(ascii: "/") && escapesSlashes)
            guard needsEscape else { continue }
            if runStart < index {
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
            }
            runStart = index + 1
            output.append(UInt8(ascii: "\\"))
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): output.append(byte)
            case 0x08: output.append(UInt8(ascii: "b"))
            case 0x0C: output.append(UInt8(ascii: "f"))
            case 0x0A: output.append(UInt8(ascii: "n"))
            case 0x0D: output.append(UInt8(ascii: "r"))
            case 0x09: output.append(UInt8(ascii: "t"))
            default:
                output.append(contentsOf: [
                    UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                    Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0xF)],
                ])
            }
        }
        if runStart < utf8.count {
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        output.append(UInt8(ascii: "\""))
    }
}
