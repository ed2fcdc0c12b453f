// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("BlankBody")
struct BlankBodyCheckTests {
    private func blank(_ chunks: [[UInt8]], ignoringWhiteSpace: Bool = true) -> Bool {
        var check = BlankBody(ignoringWhiteSpace: ignoringWhiteSpace)
        for chunk in chunks { chunk.withUnsafeBytes { check.observe($0) } }
        return check.isBlank
    }

    @Test func emptyIsBlankEitherWay() {
        #expect(blank([]) && blank([], ignoringWhiteSpace: false))
        #expect(blank([[], []], ignoringWhiteSpace: false))
        #expect(BlankBody.isBlank([], ignoringWhiteSpace: false))
    }

    @Test func whiteSpaceCountsOnlyWhenIgnored() {
        for body: [UInt8] in [[0x20], [0x09, 0x0A, 0x0D, 0x20], [0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0x20]] {
            #expect(BlankBody.isBlank(body, ignoringWhiteSpace: true), "\(body)")
            #expect(!BlankBody.isBlank(body, ignoringWhiteSpace: false), "\(body)")
            // The same split at every point.
            for cut in 0...body.count {
                #expect(blank([Array(body[..<cut]), Array(body[cut...])]), "\(body) cut at \(cut)")
            }
        }
    }

    @Test func anythingElseIsContent() {
        for body: [UInt8] in [
            [0x30], [0x20, 0x7B], [0x0B], [0x0C], [0x00], [0xEF], [0xEF, 0xBB], [0xEF, 0x20], [0xEF, 0xBB, 0x20],
            [0x20, 0xEF, 0xBB, 0xBF], [0xEF, 0xBB, 0xBF, 0xEF, 0xBB, 0xBF],
        ] {
            #expect(!BlankBody.isBlank(body, ignoringWhiteSpace: true), "\(body)")
            for cut in 0...body.count {
                #expect(!blank([Array(body[..<cut]), Array(body[cut...])]), "\(body) cut at \(cut)")
            }
        }
    }
}
