// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// glibc's iconv for the multi-byte charsets: one converter per call (an `iconv_t` is not
/// thread-safe), the whole text at once.
enum Iconv {
    /// Decodes `bytes` from the converter `name` to a string.
    static func decode(
        _ bytes: ArraySlice<UInt8>, from name: String, charset: Charset, invalid: Charset.InvalidBytes
    ) throws(SatchelError) -> String {
        let converter = try open(to: "UTF-8", from: name, charset: charset)
        defer { iconv_close(converter) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 3 / 2 + 16)
        var input = Array(bytes)
        var offset = 0
        while offset < input.count {
            let (consumed, result) = convert(converter, &input, from: offset, into: &output)
            offset += consumed
            switch result {
            case .done: break
            case .invalid, .incomplete:
                guard invalid == .replace else { throw charset.invalidBytes(at: offset) }
                output += [0xEF, 0xBF, 0xBD]  // U+FFFD
                offset += 1
                _ = flush(converter, into: &output)  // back to the initial state
            }
        }
        _ = flush(converter, into: &output)
        let text = String(decoding: output, as: UTF8.self)
        return try Self.refusingLoneC1(text, charset: charset, invalid: invalid)
    }

    /// EUC-JP and Big5 have no sequence for a C1 control, so one in glibc's output is a lone
    /// byte 0x80–0x9F that glibc passed through and the Standard's decoders refuse.
    private static func refusingLoneC1(
        _ text: String, charset: Charset, invalid: Charset.InvalidBytes
    ) throws(SatchelError) -> String {
        guard charset == .eucJP || charset == .big5,
            let first = text.unicodeScalars.firstIndex(where: { (0x80...0x9F).contains($0.value) })
        else { return text }
        guard invalid == .replace else {
            let prefix = String(text.unicodeScalars[..<first])
            let offset = (try? charset.encode(prefix).count) ?? 0
            throw charset.invalidBytes(at: offset)
        }
        return String(
            String.UnicodeScalarView(text.unicodeScalars.map { (0x80...0x9F).contains($0.value) ? "\u{FFFD}" : $0 }))
    }

    /// Encodes `text` with the converter `name`, writing a replacement for what it cannot.
    static func encode(
        _ text: String, to name: String, charset: Charset, unencodable: Charset.UnencodableCharacters
    ) throws(SatchelError) -> [UInt8] {
        let converter = try open(to: name, from: "UTF-8", charset: charset)
        defer { iconv_close(converter) }
        var input = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 16)
        var offset = 0
        while offset < input.count {
            let (consumed, result) = convert(converter, &input, from: offset, into: &output)
            offset += consumed
            guard result != .done else { continue }
            // The character at `offset` has no bytes in this charset.
            let lead = input[offset]
            let length = lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            let scalar =
                String(decoding: input[offset..<min(input.count, offset + length)], as: UTF8.self)
                .unicodeScalars.first ?? "\u{FFFD}"
            var replacement = try charset.replacement(for: scalar, at: offset, unencodable)
            // ASCII, written through the converter so a stateful encoding (ISO-2022-JP) switches back.
            _ = convert(converter, &replacement, from: 0, into: &output)
            offset += length
        }
        _ = flush(converter, into: &output)
        return charset == .shiftJIS ? ShiftJIS.preferringIBMExtensions(output) : output
    }

    enum Result { case done, invalid, incomplete }

    /// Converts `input[offset...]` into `output` until the end or a sequence it cannot convert;
    /// returns how many input bytes were consumed.
    private static func convert(
        _ converter: iconv_t, _ input: inout [UInt8], from offset: Int, into output: inout [UInt8]
    ) -> (consumed: Int, result: Result) {
        var consumed = 0
        var chunk = [UInt8](repeating: 0, count: max(64, (input.count - offset) * 4))
        while true {
            let (read, written, error) = input.withUnsafeMutableBufferPointer { source in
                chunk.withUnsafeMutableBufferPointer { target in
                    var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(
                        source.baseAddress! + offset + consumed
                    )
                    .assumingMemoryBound(to: CChar.self)
                    var inLeft = source.count - offset - consumed
                    var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)
                        .assumingMemoryBound(to: CChar.self)
                    var outLeft = target.count
                    let before = inLeft
                    let status = iconv(converter, &inPointer, &inLeft, &outPointer, &outLeft)
                    return (before - inLeft, target.count - outLeft, status == -1 ? errno : 0)
                }
            }
            output += chunk[..<written]
            consumed += read
            switch error {
            case 0: return (consumed, .done)
            case E2BIG: continue
            case EINVAL: return (consumed, .incomplete)
            default: return (consumed, .invalid)
            }
        }
    }

    /// Writes what a stateful converter holds back (and its return to the initial state).
    private static func flush(_ converter: iconv_t, into output: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 64)
        let written = chunk.withUnsafeMutableBufferPointer { target -> Int in
            var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(target.baseAddress!)
                .assumingMemoryBound(to: CChar.self)
            var outLeft = target.count
            _ = iconv(converter, nil, nil, &outPointer, &outLeft)
            return target.count - outLeft
        }
        output += chunk[..<written]
        return written > 0
    }

    private static func open(to target: String, from source: String, charset: Charset) throws(SatchelError) -> iconv_t {
        let converter = iconv_open(target, source)
        if converter == iconv_t(bitPattern: -1) {
            throw SatchelError(
                .unsupportedFormat,
                "this system's iconv has no converter for \(charset.rawValue) (\(source) to \(target))")
        }
        return converter!
    }
}

/// The upper half (0x80–0xFF) of a single-byte charset, read once from iconv byte by byte.
struct SingleByteTable: Sendable {
    private let scalars: [Unicode.Scalar?]
    private let bytes: [UInt32: UInt8]

    /// The byte's scalar, or `nil` when the charset leaves it undefined.
    func scalar(_ byte: UInt8) -> Unicode.Scalar? {
        byte < 0x80 ? Unicode.Scalar(byte) : scalars[Int(byte - 0x80)]
    }

    /// The scalar's byte, or `nil` when the charset has none.
    func byte(_ scalar: Unicode.Scalar) -> UInt8? {
        scalar.value < 0x80 ? UInt8(scalar.value) : bytes[scalar.value]
    }

    private static let tables = Mutex<[String: SingleByteTable]>([:])

    /// The table of iconv's converter `name`, built on first use.
    static func named(_ name: String, charset: Charset) throws(SatchelError) -> SingleByteTable {
        if let table = tables.withLock({ $0[name] }) { return table }
        var scalars: [Unicode.Scalar?] = []
        let corrections = Charset.corrections(for: charset)
        let fillsHoles = charset.rawValue.hasPrefix("windows-")
        for byte in UInt8(0x80)...UInt8(0xFF) {
            let text = try? Iconv.decode([byte][...], from: name, charset: charset, invalid: .fail)
            let decoded = text?.unicodeScalars
            var scalar = decoded?.count == 1 ? decoded?.first : nil
            if let corrected = corrections[byte] { scalar = corrected }
            if scalar == nil, fillsHoles { scalar = Unicode.Scalar(byte) }  // the C1 control, as the Standard reads it
            scalars.append(scalar)
        }
        var bytes: [UInt32: UInt8] = [:]
        for (index, scalar) in scalars.enumerated() {
            if let scalar, bytes[scalar.value] == nil { bytes[scalar.value] = UInt8(0x80 + index) }
        }
        let table = SingleByteTable(scalars: scalars, bytes: bytes)
        tables.withLock { $0[name] = table }
        return table
    }
}

/// The one place the Standard's Shift_JIS encoder and glibc's windows-31J part: a character in
/// both the NEC-selected IBM extensions (lead bytes 0xED, 0xEE) and the IBM extensions (0xFA to
/// 0xFC) is written with the IBM bytes (the Standard's "index Shift_JIS pointer" skips the NEC
/// rows), where glibc writes the NEC ones.
enum ShiftJIS {
    /// NEC-selected pair → IBM pair of the same character, built once from glibc's own tables.
    static let necToIBM: [UInt16: UInt16] = {
        func scalar(_ lead: UInt8, _ trail: UInt8) -> UInt32? {
            guard
                let text = try? Iconv.decode(
                    [lead, trail][...], from: "WINDOWS-31J", charset: .shiftJIS, invalid: .fail),
                text.unicodeScalars.count == 1
            else { return nil }
            return text.unicodeScalars.first?.value
        }
        let trails = Array(UInt8(0x40)...UInt8(0x7E)) + Array(UInt8(0x80)...UInt8(0xFC))
        var ibm: [UInt32: UInt16] = [:]
        for lead in UInt8(0xFA)...UInt8(0xFC) {
            for trail in trails {
                if let value = scalar(lead, trail), ibm[value] == nil { ibm[value] = UInt16(lead) << 8 | UInt16(trail) }
            }
        }
        var map: [UInt16: UInt16] = [:]
        for lead in UInt8(0xED)...UInt8(0xEE) {
            for trail in trails {
                if let value = scalar(lead, trail), let pair = ibm[value] {
                    map[UInt16(lead) << 8 | UInt16(trail)] = pair
                }
            }
        }
        return map
    }()

    /// `bytes` (windows-31J) with every NEC-selected pair that has an IBM twin replaced by it.
    static func preferringIBMExtensions(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.contains(where: { $0 == 0xED || $0 == 0xEE }) else { return bytes }
        var result = bytes
        var index = 0
        while index < result.count {
            let lead = result[index]
            let isLead = (0x81...0x9F).contains(lead) || (0xE0...0xFC).contains(lead)
            guard isLead, index + 1 < result.count else {
                index += 1
                continue
            }
            if lead == 0xED || lead == 0xEE, let pair = necToIBM[UInt16(lead) << 8 | UInt16(result[index + 1])] {
                result[index] = UInt8(pair >> 8)
                result[index + 1] = UInt8(pair & 0xFF)
            }
            index += 2
        }
        return result
    }
}
