// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Just enough DER to find a certificate's SubjectPublicKeyInfo (RFC 5280 §4.1).
enum DERCertificate {
    /// The SubjectPublicKeyInfo element (tag, length and contents) of `certificate`.
    /// - Throws: ``SatchelError/Code/syntaxError`` when the bytes are not an X.509 certificate.
    static func subjectPublicKeyInfo(in certificate: [UInt8]) throws(SatchelError) -> [UInt8] {
        var reader = Reader(bytes: certificate[...])
        var outer = try reader.enter(tag: 0x30, "Certificate")
        var tbs = try outer.enter(tag: 0x30, "TBSCertificate")
        if tbs.peekTag == 0xA0 { try tbs.skip("version") }
        for field in ["serialNumber", "signature", "issuer", "validity", "subject"] { try tbs.skip(field) }
        guard tbs.peekTag == 0x30 else {
            throw SatchelError(.syntaxError, "the certificate has no SubjectPublicKeyInfo where RFC 5280 puts it")
        }
        return Array(try tbs.element("subjectPublicKeyInfo"))
    }

    /// A cursor over DER elements.
    struct Reader {
        var bytes: ArraySlice<UInt8>

        var peekTag: UInt8? { bytes.first }

        /// The next element, whole; advances past it.
        mutating func element(_ what: String) throws(SatchelError) -> ArraySlice<UInt8> {
            let (contentStart, length) = try header(what)
            guard length <= bytes.endIndex - contentStart else {
                throw SatchelError(
                    .syntaxError,
                    "the certificate's \(what) claims \(length) bytes but \(bytes.endIndex - contentStart) remain",
                    offset: contentStart)
            }
            let whole = bytes[..<(contentStart + length)]
            bytes = bytes[(contentStart + length)...]
            return whole
        }

        mutating func skip(_ what: String) throws(SatchelError) { _ = try element(what) }

        /// The contents of the next element, which must have `tag`.
        mutating func enter(tag: UInt8, _ what: String) throws(SatchelError) -> Reader {
            guard peekTag == tag else {
                throw SatchelError(
                    .syntaxError, "expected the certificate's \(what) (DER tag \(tag)) at byte \(bytes.startIndex)",
                    offset: bytes.startIndex)
            }
            let whole = try element(what)
            let (contentStart, _) = try Reader(bytes: whole).header(what)
            return Reader(bytes: whole[contentStart...])
        }

        /// The index where the next element's contents start, and their length.
        private func header(_ what: String) throws(SatchelError) -> (Int, Int) {
            var index = bytes.startIndex
            guard bytes.count >= 2 else {
                throw SatchelError(.truncatedInput, "the certificate ends inside its \(what)", offset: index)
            }
            index += 1
            let first = bytes[index]
            index += 1
            if first < 0x80 { return (index, Int(first)) }
            let count = Int(first & 0x7F)
            guard count >= 1, count <= 4, bytes.endIndex - index >= count else {
                throw SatchelError(
                    .syntaxError, "the certificate's \(what) has an invalid DER length", offset: index - 1)
            }
            var length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[index])
                index += 1
            }
            return (index, length)
        }
    }
}
