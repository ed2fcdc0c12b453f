// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes an XML property list, laid out as Apple's writer lays it out (the Apple DOCTYPE, one
/// element per line, tabs for nesting).
///
/// `&`, `<` and `>` are escaped and a carriage return is written as `&#13;` (a raw one would
/// read back as a line feed); text with other controls is refused, as XML 1.0 cannot hold it.
/// Reals are written in their shortest exact form (`nan`, `+infinity`, `-infinity` for the
/// special values); dates as `2026-11-22T12:00:00Z` in whole seconds (the format has no
/// fractions: they are truncated) and only in the years 1 to 9999; data as one line of base64;
/// a ``PropertyListUID`` as CoreFoundation's `<dict><key>CF$UID</key><integer>n</integer></dict>`.
final class XMLPropertyListOutput: PropertyListOutput {
    private struct State {
        var bytes: PropertyListByteBuffer
        /// Where each open container's members start: a container that ends there is empty.
        var memberStarts: [Int] = []
    }

    /// The state, behind a pointer: see ``PropertyListStateStorage``.
    private let storage: PropertyListStateStorage<State>
    private var state: State {
        unsafeAddress { UnsafePointer(storage.pointer) }
        unsafeMutableAddress { storage.pointer }
    }

    private static let header = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">

        """.utf8)

    init() {
        var bytes = PropertyListByteBuffer(capacity: 4096)
        Self.header.withUnsafeBufferPointer { bytes.append($0) }
        storage = PropertyListStateStorage(State(bytes: bytes))
    }

    deinit {
        state.bytes.deallocate()
    }

    func finish() -> [UInt8] {
        appendStatic("</plist>\n")
        return state.bytes.array
    }

    // MARK: Containers

    func begin(keyed: Bool, depth: Int) {
        appendIndent(depth)
        appendStatic(keyed ? "<dict>\n" : "<array>\n")
        state.memberStarts.append(state.bytes.count)
    }

    @inline(never)
    func end(keyed: Bool, depth: Int) {
        if state.memberStarts.removeLast() == state.bytes.count {
            state.bytes.removeLast(keyed ? 7 : 8)  // "<dict>\n", "<array>\n"
            appendStatic(keyed ? "<dict/>\n" : "<array/>\n")
        } else {
            appendIndent(depth)
            appendStatic(keyed ? "</dict>\n" : "</array>\n")
        }
    }

    @inline(never)
    func key(_ name: String, depth: Int) throws(SatchelError) {
        appendIndent(depth)
        appendStatic("<key>")
        try appendEscaped(name)
        appendStatic("</key>\n")
    }

    // MARK: Scalars

    func bool(_ flag: Bool, depth: Int) {
        appendIndent(depth)
        appendStatic(flag ? "<true/>\n" : "<false/>\n")
    }

    func integer(_ number: Int64, depth: Int) {
        appendIndent(depth)
        appendStatic("<integer>")
        state.bytes.appendDecimal(number.magnitude, negative: number < 0)
        appendStatic("</integer>\n")
    }

    func unsignedInteger(_ number: UInt64, depth: Int) {
        appendIndent(depth)
        appendStatic("<integer>")
        state.bytes.appendDecimal(number)
        appendStatic("</integer>\n")
    }

    func double(_ number: Double, depth: Int) {
        appendIndent(depth)
        appendStatic("<real>")
        if number.isNaN {
            appendStatic("nan")
        } else if number.isInfinite {
            appendStatic(number < 0 ? "-infinity" : "+infinity")
        } else {
            // Swift's description is the shortest text that reads back as the same double.
            appendText(number.description)
        }
        appendStatic("</real>\n")
    }

    func string(_ text: String, depth: Int) throws(SatchelError) {
        appendIndent(depth)
        appendStatic("<string>")
        try appendEscaped(text)
        appendStatic("</string>\n")
    }

    func date(_ date: Date, depth: Int) throws(SatchelError) {
        appendIndent(depth)
        appendStatic("<date>")
        guard PropertyListDate.append(date, to: &state.bytes) else {
            throw SatchelError(.unencodableValue, "an XML plist date must lie in the years 1 to 9999, found \(date)")
        }
        appendStatic("</date>\n")
    }

    func data(_ data: UnsafeRawBufferPointer, depth: Int) {
        appendIndent(depth)
        appendStatic("<data>")
        PropertyListBase64.encode(data, to: &state.bytes)
        appendStatic("</data>\n")
    }

    func uid(_ number: UInt64, depth: Int) {
        appendIndent(depth)
        appendStatic("<dict><key>CF$UID</key><integer>")
        state.bytes.appendDecimal(number)
        appendStatic("</integer></dict>\n")
    }

    // MARK: Text

    /// `depth` tabs.
    @inline(__always)
    private func appendIndent(_ depth: Int) {
        state.bytes.append(repeating: UInt8(ascii: "\t"), count: depth)
    }

    @inline(__always)
    private func appendStatic(_ text: StaticString) {
        state.bytes.append(text)
    }

    private func appendText(_ text: String) {
        var text = text
        text.withUTF8 { state.bytes.append($0) }
    }

    private func appendEscaped(_ string: String) throws(SatchelError) {
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
                state.bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                appendStatic(replacement)
                runStart = index + 1
            }
            state.bytes.append(UnsafeBufferPointer(rebasing: utf8[runStart...]))
            return nil
        }
        if let control {
            throw SatchelError(
                .unencodableValue,
                "control character U+\(String(control, radix: 16, uppercase: true)) cannot be written in XML")
        }
    }
}
