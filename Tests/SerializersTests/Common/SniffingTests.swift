// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// Format recognition from a body's first bytes by the standard registry: each built-in
/// serializer recognises its own format (``ResponseSerializer/sniff(prefix:)``).
@Suite struct SniffingTests {
    static let registry = Registry.standard()

    func sniff(_ bytes: [UInt8]) -> String? {
        Self.registry.sniff(bytes)?.essence
    }

    @Test func binarySignatures() {
        #expect(sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) == "image/png")
        #expect(sniff([0xFF, 0xD8, 0xFF, 0xE0]) == "image/jpeg")
        #expect(sniff(Array("GIF89a....".utf8)) == "image/gif")
        #expect(sniff(Array("RIFF\u{1}\u{2}\u{3}\u{4}WEBPVP8 ".utf8)) == "image/webp")
        #expect(sniff([0x4D, 0x4D, 0x00, 0x2A, 0, 0]) == "image/tiff")
        #expect(sniff(Array("bplist00\u{D0}".utf8)) == "application/x-plist")
    }

    @Test func textFormatsAfterBOMAndWhiteSpace() {
        #expect(sniff(Array(" \r\n\t{\"a\":1}".utf8)) == "application/json")
        #expect(sniff([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == "application/json")
        #expect(sniff(Array("<?xml version=\"1.0\"?><a/>".utf8)) == "application/xml")
        let plist =
            #"<?xml version="1.0"?><!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "x"><plist version="1.0"><dict/></plist>"#
        #expect(sniff(Array(plist.utf8)) == "application/x-plist")
        #expect(sniff(Array("<plist><true/></plist>".utf8)) == "application/x-plist")
    }

    @Test func aPlistTagPastTheWindowIsPlainXML() {
        let padding = "<!--" + String(repeating: " ", count: 2000) + "-->"
        #expect(sniff(Array("<?xml version=\"1.0\"?>\(padding)<plist/>".utf8)) == "application/xml")
    }

    @Test func unrecognisedBodies() {
        #expect(sniff([]) == nil)
        #expect(sniff(Array("   ".utf8)) == nil)
        #expect(sniff(Array("42".utf8)) == nil)
        #expect(sniff(Array("hello".utf8)) == nil)
        #expect(sniff([0x89, 0x50, 0x4E]) == nil)  // a PNG signature cut short
        #expect(sniff([0xFF, 0xD8]) == nil)
    }

    @Test func eachSerializerRecognisesOnlyItsOwnFormat() {
        let png: ArraySlice<UInt8> = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0]
        #expect(ImageResponseSerializer().sniff(prefix: png)?.essence == "image/png")
        #expect(JSONResponseSerializer().sniff(prefix: png) == nil)
        #expect(JSONResponseSerializer().sniff(prefix: ArraySlice(" {}".utf8))?.essence == "application/json")
        #expect(XMLDocumentResponseSerializer().sniff(prefix: ArraySlice("{}".utf8)) == nil)
        // Both claim an XML property list; the registry asks the later-registered plist serializer first.
        let plist = ArraySlice("<plist version=\"1.0\"><true/></plist>".utf8)
        #expect(XMLDocumentResponseSerializer().sniff(prefix: plist)?.essence == "application/xml")
        #expect(PropertyListResponseSerializer().sniff(prefix: plist)?.essence == "application/x-plist")
        #expect(TextResponseSerializer().sniff(prefix: ArraySlice("hello".utf8)) == nil)
    }

    /// Serializers are shown the first ``Registry/sniffLength`` bytes only, so a hostile body of
    /// white space is never scanned whole: a `{` past the window is not seen.
    @Test func onlyTheFirstKilobyteIsLookedAt() {
        let spaces = [UInt8](repeating: 0x20, count: Registry.sniffLength - 2)
        #expect(sniff(spaces + Array("{}".utf8)) == "application/json")
        #expect(sniff(spaces + Array("  {}".utf8)) == nil)
        #expect(sniff([UInt8](repeating: 0x20, count: 10_000_000) + Array("{}".utf8)) == nil)
    }
}
