// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartReader {
    /// The `boundary` parameter of a multipart Content-Type, checked as ``validate(boundary:lenient:)``
    /// does.
    ///
    /// - Throws: ``SatchelError/Code/invalidMediaType`` when the type is not `multipart/*`, has no
    ///   boundary, or the boundary is invalid.
    public static func boundary(of contentType: MediaType, lenient: Bool = false) throws(SatchelError) -> String {
        guard contentType.type == "multipart" else {
            throw SatchelError(.invalidMediaType, "Content-Type \(contentType.essence) is not a multipart type")
        }
        guard let boundary = contentType[parameter: "boundary"] else {
            throw SatchelError(
                .invalidMediaType, "Content-Type \(contentType.essence) has no boundary parameter")
        }
        try validate(boundary: boundary, lenient: lenient)
        return boundary
    }

    /// Checks a boundary against RFC 2046 §5.1.1: 1 to 70 characters from `bchars` (letters,
    /// digits, `'()+_,-./:=?` and space), not ending in a space. Lenient parsing accepts up to
    /// 1 024 printable ASCII characters.
    ///
    /// - Throws: ``SatchelError/Code/invalidMediaType`` naming the offending character.
    public static func validate(boundary: String, lenient: Bool = false) throws(SatchelError) {
        let bytes = Array(boundary.utf8)
        let quoted = Value.string(boundary).canonicalJSON()
        let maximum = lenient ? 1_024 : 70
        guard !bytes.isEmpty else { throw SatchelError(.invalidMediaType, "the multipart boundary is empty") }
        guard bytes.count <= maximum else {
            throw SatchelError(
                .invalidMediaType, "the multipart boundary is \(bytes.count) characters long (at most \(maximum))")
        }
        for (index, byte) in bytes.enumerated() {
            let allowed = lenient ? (0x20...0x7E).contains(byte) : isBoundaryCharacter(byte)
            guard allowed else {
                throw SatchelError(
                    .invalidMediaType,
                    "the multipart boundary \(quoted) has a character not allowed by RFC 2046 at index \(index)")
            }
        }
        if !lenient && bytes.last == UInt8(ascii: " ") {
            throw SatchelError(.invalidMediaType, "the multipart boundary \(quoted) ends with a space")
        }
    }

    private static func isBoundaryCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return Array("'()+_,-./:=? ".utf8).contains(byte)
        }
    }
}
