// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension BinaryPropertyListReader {
    /// Decodes the object at `offset` that is not an array or dictionary: bools, integers,
    /// reals, dates, data, strings and UIDs; sets, ordered sets, null and fill are reported as
    /// ``SatchelError/Code/unsupportedFormat``.
    @inline(never)
    func decodeScalar(at offset: Int) throws -> Value {
        let marker = bytes[offset]
        let low = Int(marker & 0x0F)
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: throw unsupported("null", at: offset)
            case 0x0F: throw unsupported("fill", at: offset)
            default:
                throw SatchelError(.syntaxError, "unknown object marker 0x\(String(marker, radix: 16))", offset: offset)
            }
        case 0x1:
            return try readInteger(at: offset, sizeExponent: low)
        case 0x2:
            guard low == 2 || low == 3 else {
                throw SatchelError(.syntaxError, "a real of \(1 << low) bytes (only 4 and 8)", offset: offset)
            }
            let size = 1 << low
            try checkRange(offset + 1, size, what: "real", at: offset)
            let bits = Self.bigEndian(bytes, at: offset + 1, size: size)
            return .double(size == 4 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
        case 0x3:
            guard marker == 0x33 else {
                throw SatchelError(.syntaxError, "unknown object marker 0x\(String(marker, radix: 16))", offset: offset)
            }
            try checkRange(offset + 1, 8, what: "date", at: offset)
            let seconds = Double(bitPattern: Self.bigEndian(bytes, at: offset + 1, size: 8))
            guard seconds.isFinite else {
                throw SatchelError(.syntaxError, "the date is not a finite number", offset: offset)
            }
            return .date(Date(timeIntervalSinceReferenceDate: seconds))
        case 0x4:
            let (count, start) = try readCount(at: offset, low: low)
            try checkRange(start, count, what: "data", at: offset)
            return .bytes(Array(UnsafeRawBufferPointer(rebasing: bytes[start..<start + count])))
        case 0x5, 0x6, 0x7:
            return .string(try readString(at: offset))
        case 0x8:
            let size = low + 1
            guard size <= 8 else {
                throw SatchelError(.numberOutOfRange, "a UID of \(size) bytes (at most 8)", offset: offset)
            }
            try checkRange(offset + 1, size, what: "UID", at: offset)
            return .payload(PropertyListUID(Self.bigEndian(bytes, at: offset + 1, size: size)))
        case 0xB:
            throw unsupported("ordered set", at: offset)
        case 0xC:
            throw unsupported("set", at: offset)
        default:
            throw SatchelError(.syntaxError, "unknown object marker 0x\(String(marker, radix: 16))", offset: offset)
        }
    }

    private func unsupported(_ kind: String, at offset: Int) -> SatchelError {
        SatchelError(
            .unsupportedFormat, "a binary plist \(kind) object has no Value form and is not supported", offset: offset)
    }

    private func readInteger(at offset: Int, sizeExponent: Int) throws(SatchelError) -> Value {
        guard sizeExponent <= 4 else {
            throw SatchelError(.syntaxError, "an integer of 2^\(sizeExponent) bytes (at most 16)", offset: offset)
        }
        let size = 1 << sizeExponent
        try checkRange(offset + 1, size, what: "integer", at: offset)
        switch size {
        case 8:
            return .integer(Int64(bitPattern: Self.bigEndian(bytes, at: offset + 1, size: 8)))
        case 16:
            // 128-bit integers: writers use them for values at and above 2^63.
            let high = Self.bigEndian(bytes, at: offset + 1, size: 8)
            let low = Self.bigEndian(bytes, at: offset + 9, size: 8)
            if high == 0 { return Value(low) }
            if high == .max && low >= 1 << 63 { return .integer(Int64(bitPattern: low)) }
            throw SatchelError(.numberOutOfRange, "a 128-bit integer outside Int64 and UInt64", offset: offset)
        default:
            return .integer(Int64(Self.bigEndian(bytes, at: offset + 1, size: size)))
        }
    }

    private func readString(at offset: Int) throws(SatchelError) -> String {
        let marker = bytes[offset]
        let (count, start) = try readCount(at: offset, low: Int(marker & 0x0F))
        let isUTF16 = marker >> 4 == 0x6
        let (byteCount, overflow) = count.multipliedReportingOverflow(by: isUTF16 ? 2 : 1)
        guard !overflow else {
            throw SatchelError(.syntaxError, "a string of \(count) characters does not fit", offset: offset)
        }
        try checkRange(start, byteCount, what: "string", at: offset)
        // UTF-16 is checked once decoded (a unit becomes one to three UTF-8 bytes).
        if !isUTF16 { try checkStringLength(byteCount, at: offset) }
        let content = UnsafeRawBufferPointer(rebasing: bytes[start..<start + byteCount])
        let string: String?
        switch marker >> 4 {
        case 0x5:
            string = content.allSatisfy { $0 < 0x80 } ? String(decoding: content, as: UTF8.self) : nil
        case 0x7:
            string = PropertyListUTF8.string(content)
        default:
            string = PropertyListUTF8.string(bigEndianUTF16: content, count: count)
        }
        guard let string else {
            let encoding = ["ASCII", "UTF-16", "UTF-8"][Int(marker >> 4) - 5]
            throw SatchelError(.invalidEncoding, "a string that is not valid \(encoding)", offset: offset)
        }
        try checkStringLength(string.utf8.count, at: offset)
        return string
    }

    private func checkStringLength(_ length: Int, at offset: Int) throws(SatchelError) {
        if length > limits.maxStringBytes {
            throw .limitExceeded("maxStringBytes", limits.maxStringBytes, "a string of \(length) bytes", offset: offset)
        }
    }
}
