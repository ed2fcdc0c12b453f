// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Testing

/// ``Registry/sniff(_:)`` asks the registered serializers; the core recognises no format itself.
@Suite struct RegistrySniffingTests {
    /// Recognises bodies that start with `magic` as `type`, and records how much it was shown.
    struct MagicSerializer: ResponseSerializer {
        var name: String
        var magic: String
        var type: MediaType
        let shown = CallCounter()
        var acceptableContentTypes: MediaRangeList { MediaRangeList(accepting: [type]) }

        func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
            .string(name)
        }

        func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
            shown.increment()
            #expect(prefix.count <= Registry.sniffLength)
            return prefix.starts(with: Array(magic.utf8)) ? type : nil
        }
    }

    @Test func anEmptyRegistryRecognisesNothing() {
        #expect(Registry().sniff(Array("{}".utf8)) == nil)
        #expect(Registry().sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) == nil)
    }

    @Test func laterRegistrationsAndHigherPrioritiesAreAskedFirst() throws {
        let registry = Registry()
        let first = MagicSerializer(
            name: "first", magic: "MAGIC", type: MediaType(type: "application", subtype: "x-first"))
        let second = MagicSerializer(
            name: "second", magic: "MAGIC", type: MediaType(type: "application", subtype: "x-second"))
        registry.register(first)
        registry.register(second)
        #expect(registry.sniff(Array("MAGIC!".utf8))?.subtype == "x-second")
        let urgent = MagicSerializer(
            name: "urgent", magic: "MAG", type: MediaType(type: "application", subtype: "x-urgent"))
        registry.register(urgent, priority: 5)
        #expect(registry.sniff(Array("MAGIC!".utf8))?.subtype == "x-urgent")
        #expect(registry.sniff(Array("other".utf8)) == nil)
        #expect(registry.sniff([]) == nil)
        #expect(first.shown.value == 1)  // asked once: after a later one answered, the rest are not asked
    }

    @Test func theDispatcherDecodesASniffedBodyWithTheRecognisingSerializer() throws {
        let registry = Registry()
        registry.register(
            MagicSerializer(name: "magic", magic: "MAGIC", type: MediaType(type: "application", subtype: "x-magic")))
        let untyped = HTTPResponse(status: .ok)
        let decoded = registry.decode(response: untyped, body: Array("MAGIC body".utf8))
        #expect(decoded.value == "magic")
        #expect(decoded.sniffedContentType?.subtype == "x-magic")
        let octets = HTTPResponse(status: .ok, headerFields: [.contentType: "application/octet-stream"])
        #expect(registry.decode(response: octets, body: Array("MAGIC".utf8)).serializerName == "magic")
        let unknown = registry.decode(response: untyped, body: Array("plain".utf8))
        #expect(unknown.error?.code == .unacceptableContentType)
    }

    @Test func helpers() {
        #expect(ContentSniffer.matches([0x01, nil, 0x03], at: [0x01, 0xFF, 0x03, 0x04]))
        #expect(!ContentSniffer.matches([0x01, nil, 0x03], at: [0x01, 0xFF]))
        #expect(ContentSniffer.firstSignificantByte(of: [0xEF, 0xBB, 0xBF, 0x20, 0x0A, 0x7B]) == 0x7B)
        #expect(ContentSniffer.firstSignificantByte(of: [0x20, 0x09]) == nil)
        #expect(ContentSniffer.firstSignificantIndex(of: ArraySlice(" <a/>".utf8).dropFirst(0)) == 1)
        #expect(ContentSniffer.contains("<plist", in: ArraySlice("<?xml?><plist/>".utf8)))
        #expect(!ContentSniffer.contains("<plist", in: ArraySlice("<pli".utf8)))
    }
}
