// SPDX-License-Identifier: Apache-2.0
/// The one rule every built-in response serializer follows for a body that carries no value.
///
/// A body of no bytes is no value in every format (AFNetworking's "no value": `nil` in Swift,
/// a NULL value in C, nothing printed by `satchel decode`). In a format whose grammar allows
/// white space around a document — JSON, XML and XML property lists — so is a body of nothing
/// but white space (space, tab, CR, LF) after an optional UTF-8 byte order mark, such as the
/// single space some servers send for "no content". In every other format white space is
/// content: a text body of one space is the string `" "`.
///
/// Feed it the body as it arrives and ask ``isBlank`` at the end, or ask
/// ``isBlank(_:ignoringWhiteSpace:)`` of a whole body:
///
/// ```swift
/// if BlankBody.isBlank(body, ignoringWhiteSpace: true) { return nil }
/// ```
public struct BlankBody: Sendable {
    /// Whether white space alone is no value.
    public let ignoresWhiteSpace: Bool
    /// Whether no byte that carries a value was seen.
    private var sawOnlyBlanks = true
    /// How many bytes were seen, to find a byte order mark across chunks.
    private var count = 0
    /// Whether the bytes seen so far are all part of a byte order mark.
    private var inByteOrderMark = true

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// A check that has seen no bytes yet.
    public init(ignoringWhiteSpace: Bool) {
        ignoresWhiteSpace = ignoringWhiteSpace
    }

    /// Whether the bytes seen so far carry no value (the first byte or two of a byte order mark
    /// that the body ends with are content).
    public var isBlank: Bool {
        sawOnlyBlanks && !(inByteOrderMark && (1...2).contains(count))
    }

    /// Takes the next bytes of the body.
    ///
    /// - Complexity: O(n) while the body is blank, O(1) once it is not.
    public mutating func observe(_ bytes: UnsafeRawBufferPointer) {
        guard sawOnlyBlanks, !bytes.isEmpty else { return }
        guard ignoresWhiteSpace else {
            sawOnlyBlanks = false
            return
        }
        for byte in bytes {
            let position = count
            count += 1
            if inByteOrderMark && position < 3 {
                if byte == Self.byteOrderMark[position] { continue }
                inByteOrderMark = false
                // EF or EF BB that does not go on as a byte order mark is content.
                if position > 0 {
                    sawOnlyBlanks = false
                    return
                }
            }
            inByteOrderMark = false
            if byte != 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                sawOnlyBlanks = false
                return
            }
        }
    }

    /// Whether a whole body carries no value.
    public static func isBlank(_ body: [UInt8], ignoringWhiteSpace: Bool) -> Bool {
        body.withUnsafeBytes { isBlank(buffer: $0, ignoringWhiteSpace: ignoringWhiteSpace) }
    }

    /// Whether the body in `buffer` is blank, as ``isBlank(_:ignoringWhiteSpace:)`` says of an array.
    public static func isBlank(buffer: UnsafeRawBufferPointer, ignoringWhiteSpace: Bool) -> Bool {
        var check = BlankBody(ignoringWhiteSpace: ignoringWhiteSpace)
        check.observe(buffer)
        return check.isBlank
    }
}
