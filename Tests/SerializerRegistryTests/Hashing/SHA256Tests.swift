// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("SHA-256 (FIPS 180-4)")
struct SHA256Tests {
    private func hex(_ digest: [UInt8]) -> String {
        digest.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    /// The examples of FIPS 180-4 and NIST's SHA-256 test vectors.
    @Test(
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
                "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
            ),
        ])
    func vectors(message: String, digest: String) {
        #expect(hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func aMillionAs() {
        var hasher = SHA256()
        let chunk = [UInt8](repeating: UInt8(ascii: "a"), count: 1000)
        for _ in 0..<1000 { chunk.withUnsafeBytes { hasher.update($0) } }
        #expect(hex(hasher.finalize()) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func anySplitGivesTheSameDigest() {
        // Lengths around the block and padding edges (55, 56, 63, 64, 65 bytes).
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 200] {
            let message = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
            let whole = SHA256.hash(message)
            for cut in stride(from: 0, through: length, by: max(1, length / 7)) {
                var hasher = SHA256()
                message[..<cut].withUnsafeBytes { hasher.update($0) }
                message[cut...].withUnsafeBytes { hasher.update($0) }
                #expect(hasher.finalize() == whole, "length \(length), cut \(cut)")
            }
        }
    }
}
