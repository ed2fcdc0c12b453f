// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes a ``Value`` as an XML property list, laid out as Apple's writer lays it out (the
/// Apple DOCTYPE, one element per line, tabs for nesting).
///
/// `&`, `<` and `>` are escaped and a carriage return is written as `&#13;` (a raw one would
/// read back as a line feed). Reals are written in their shortest exact form (`nan`,
/// `+infinity`, `-infinity` for the special values); dates as `2026-11-22T12:00:00Z` in whole
/// seconds (the format has no fractions: they are truncated); data as one line of base64;
/// a ``PropertyListUID`` as CoreFoundation's `<dict><key>CF$UID</key><integer>n</integer></dict>`.
struct XMLPropertyListWriter {
    /// Deepest nesting written.
    let maxDepth: Int

    private static let header = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    /// The XML plist of `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for null, payloads other than
    ///   ``PropertyListUID``, text with characters XML 1.0 cannot hold (controls other than tab,
    ///   line feed and carriage return) and dates outside the years 1 to 9999;
    ///   ``SatchelError/Code/limitExceeded`` past `maxDepth`. Each names the key path.
    func write(_ value: Value) throws(SatchelError) -> [UInt8] {
        var output = Self.header
        output.reserveCapacity(4096)
        var path: [KeyPathComponent] = []
        do {
            try append(value, to: &output, depth: 0, path: &path)
        } catch {
            // `append` recurses with untyped throws (small frames); it throws only SatchelErrors.
            var error = error as? SatchelError ?? SatchelError(.internal, "unexpected error: \(error)")
            error.keyPath = KeyPathComponent.render(path)
            throw error
        }
        output.append(contentsOf: "</plist>\n".utf8)
        return output
    }

    /// Appends `value` and a line feed, indented by `depth` tabs. On an error, `path` is left at
    /// the failing value. Recursive: untyped throws and scalars in a non-inlined helper keep each
    /// level's stack frame small.
    private func append(
        _ value: Value, to output: inout [UInt8], depth: Int, path: inout [KeyPathComponent]
    ) throws {
        Self.appendIndent(depth, to: &output)
        switch value {
        case .array(let elements):
            try checkDepth(depth)
            guard !elements.isEmpty else {
                Self.appendStatic("<array/>\n", to: &output)
                return
            }
            Self.appendStatic("<array>\n", to: &output)
            for (position, element) in elements.enumerated() {
                path.append(.index(position))
                try append(element, to: &output, depth: depth + 1, path: &path)
                path.removeLast()
            }
            Self.appendClosing("</array>\n", depth: depth, to: &output)
        case .object(let members):
            try checkDepth(depth)
            guard !members.isEmpty else {
                Self.appendStatic("<dict/>\n", to: &output)
                return
            }
            Self.appendStatic("<dict>\n", to: &output)
            for (key, member) in members {
                path.append(.key(key))
                try Self.appendKey(key, depth: depth + 1, to: &output)
                try append(member, to: &output, depth: depth + 1, path: &path)
                path.removeLast()
            }
            Self.appendClosing("</dict>\n", depth: depth, to: &output)
        default:
            try Self.appendScalar(value, to: &output)
        }
    }

    @inline(never)
    private static func appendClosing(_ tag: StaticString, depth: Int, to output: inout [UInt8]) {
        appendIndent(depth, to: &output)
        appendStatic(tag, to: &output)
    }

    @inline(never)
    private static func appendKey(_ key: String, depth: Int, to output: inout [UInt8]) throws(SatchelError) {
        appendIndent(depth, to: &output)
        appendStatic("<key>", to: &output)
        try appendEscaped(key, to: &output)
        appendStatic("</key>\n", to: &output)
    }

    private static let tabs = [UInt8](repeating: UInt8(ascii: "\t"), count: 64)

    /// `depth` tabs.
    private static func appendIndent(_ depth: Int, to output: inout [UInt8]) {
        var remaining = depth
        while remaining > 0 {
            let count = min(remaining, tabs.count)
            tabs.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<count])) }
            remaining -= count
        }
    }

    /// The bytes of `text`, copied at once (a literal's `.utf8`, like an `UnsafeRawBufferPointer`,
    /// is appended byte by byte).
    private static func appendStatic(_ text: StaticString, to output: inout [UInt8]) {
        output.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    private static func appendText(_ text: String, to output: inout [UInt8]) {
        var text = text
        text.withUTF8 { output.append(contentsOf: $0) }
    }

    /// Appends a value that is not a container, and a line feed.
    @inline(never)
    private static func appendScalar(_ value: Value, to output: inout [UInt8]) throws(SatchelError) {
        switch value {
        case .bool(let flag):
            appendStatic(flag ? "<true/>" : "<false/>", to: &output)
        case .integer(let number):
            appendStatic("<integer>", to: &output)
            JSONWriter.appendInteger(number, to: &output)
            appendStatic("</integer>", to: &output)
        case .unsignedInteger(let number):
            appendStatic("<integer>", to: &output)
            JSONWriter.appendUnsigned(number, negative: false, to: &output)
            appendStatic("</integer>", to: &output)
        case .double(let number):
            appendStatic("<real>", to: &output)
            appendText(realText(number), to: &output)
            appendStatic("</real>", to: &output)
        case .string(let string):
            appendStatic("<string>", to: &output)
            try appendEscaped(string, to: &output)
            appendStatic("</string>", to: &output)
        case .bytes(let bytes):
            appendStatic("<data>", to: &output)
            appendText(Data(bytes).base64EncodedString(), to: &output)
            appendStatic("</data>", to: &output)
        case .date(let date):
            guard let text = PropertyListDate.text(for: date) else {
                throw SatchelError(
                    .unencodableValue, "an XML plist date must lie in the years 1 to 9999, found \(date)")
            }
            appendStatic("<date>", to: &output)
            appendText(text, to: &output)
            appendStatic("</date>", to: &output)
        case .payload(let payload):
            guard let uid = payload as? PropertyListUID else {
                throw SatchelError(.unencodableValue, "a \(type(of: payload).kind) payload has no property-list form")
            }
            output.append(contentsOf: "<dict><key>CF$UID</key><integer>\(uid.value)</integer></dict>".utf8)
        case .null:
            throw SatchelError(.unencodableValue, "property lists have no null")
        case .array, .object:
            break
        }
        output.append(UInt8(ascii: "\n"))
    }

    @inline(never)
    private func checkDepth(_ depth: Int) throws {
        if depth >= maxDepth {
            throw SatchelError.limitExceeded("maxDepth", maxDepth, "nesting")
        }
    }

    /// `nan`, `+infinity`, `-infinity`, or the shortest text that reads back exactly.
    static func realText(_ number: Double) -> String {
        if number.isNaN { return "nan" }
        if number.isInfinite { return number < 0 ? "-infinity" : "+infinity" }
        return number.description
    }

    private static func appendEscaped(_ string: String, to output: inout [UInt8]) throws(SatchelError) {
        var string = string
        let control: UInt8? = string.withUTF8 { utf8 in
            var runStart = 0
            for (index, byte) in utf8.enumerated() where byte <= UInt8(ascii: ">") {
                let replacement: StaticString
                switch byte {
                case UInt8(ascii: "&"): replacement = "&amp;"
                case UInt8(ascii: "<"): replacement = "&lt;"
                case UInt8(ascii: ">"): replacement = "&gt;"
                case 0x0D: replacement = "&#13;"
                case 0x09, 0x0A: continue
                case ..<0x20: return byte
                default: continue
                }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendStatic(replacement, to: &output)
                runStart = index + 1
            }
            output.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
            return nil
        }
        if let control {
            throw SatchelError(
                .unencodableValue,
                "control character U+\(String(control, radix: 16, uppercase: true)) cannot be written in XML")
        }
    }
}
