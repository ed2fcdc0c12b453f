// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// Reading property lists: the Value mapping of every type in both formats, sniffing, UIDs,
/// big integers, AFNetworking's nil/empty body rule and the serializers' media types.
@Suite struct PropertyListReaderTests {
    @Test func readsEveryTypeFromAnXMLDocument() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <!-- a comment -->
            <plist version="1.0">
            <dict>
            \t<key>s</key><string>a &amp; b &lt;&#x1F392;&#233;<![CDATA[<raw> & ]]></string>
            \t<key>i</key><integer> -17 </integer>
            \t<key>hex</key><integer>0x1F</integer>
            \t<key>big</key><integer>18446744073709551615</integer>
            \t<key>r</key><real>2.5e3</real>
            \t<key>inf</key><real>+infinity</real>
            \t<key>t</key><true/>
            \t<key>f</key><false></false>
            \t<key>d</key><date>2001-01-01T00:00:00Z</date>
            \t<key>b</key><data>
            \t\tAAEC
            \t\t/w==
            \t</data>
            \t<key>a</key><array><string/><dict/><array/></array>
            \t<key>crlf</key><string>x\r\ny\rz</string>
            </dict>
            </plist>
            """
        let value = try readPlist(Array(xml.utf8))
        #expect(value["s"] == "a & b <🎒é<raw> & ")
        #expect(value["i"] == -17)
        #expect(value["hex"] == 31)
        #expect(value["big"] == .unsignedInteger(.max))
        #expect(value["r"] == 2500.0)
        #expect(value["inf"] == .double(.infinity))
        #expect(value["t"] == true)
        #expect(value["f"] == false)
        #expect(value["d"] == .date(Date(timeIntervalSinceReferenceDate: 0)))
        #expect(value["b"] == .bytes([0, 1, 2, 255]))
        #expect(value["a"] == ["", [:], []])
        #expect(value["crlf"] == "x\ny\nz")
        #expect(
            value.objectValue.map { Array($0.keys) } == [
                "s", "i", "hex", "big", "r", "inf", "t", "f", "d", "b", "a", "crlf",
            ])
    }

    @Test func dictionariesWithChangingKeysAtOneDepth() throws {
        // The XML reader reuses the previous dictionary's keys at the same depth when the bytes match.
        let value: Value = [
            ["a": 1, "b": 2], ["a": 3, "bb": 4], ["b": 5, "a": 6], ["": 7], [:], ["a": ["a": 8, "b": 9], "b": 10],
            ["ab": 11, "a": 12],
        ]
        #expect(try readPlist(PropertyListWriter(format: .xml).write(value)) == value)
        #expect(
            try readPlist(PropertyListWriter(format: .xml).write(value)).arrayValue?[2].objectValue.map {
                Array($0.keys)
            } == ["b", "a"])
    }

    @Test(arguments: ["xml", "binary"])
    func readsPythonsSampleInFileOrder(format: String) throws {
        guard PythonMultipart.available() else { return }
        let value = try readPlist(try PythonPlist.run(["sample", format]))
        #expect(
            value.objectValue.map { Array($0.keys) } == [
                "string", "unicode", "empty", "escapes", "small", "negative", "int32", "int64min", "int64max",
                "uint64max", "real", "tiny", "true", "false", "date", "data", "array", "nested",
            ])
        #expect(value["unicode"] == "Zürich 日本語 🎒")
        #expect(value["escapes"] == "a < b & c > d")
        #expect(value["int32"] == 2_147_483_648)
        #expect(value["int64min"] == .integer(.min))
        #expect(value["int64max"] == .integer(.max))
        #expect(value["uint64max"] == .unsignedInteger(.max))
        #expect(value["real"] == 3.25)
        #expect(value["tiny"] == 1e-300)
        #expect(value["date"] == .date(Date(timeIntervalSince1970: 1_795_350_896)))
        #expect(value["data"] == .bytes(Array(0...255)))
        #expect(value["array"] == [1, "two", [3.5, [:]], []])
        #expect(value["nested"] == ["a": ["b": ["c": [true]]]])
    }

    @Test func readsUIDsAsPayloads() throws {
        guard PythonMultipart.available() else { return }
        let value = try readPlist(try PythonPlist.run(["uid"]))
        #expect(value["$top"]?["root"] == .payload(PropertyListUID(1)))
        #expect(value["big"] == .payload(PropertyListUID(1 << 40)))
        #expect(value.canonicalJSON() == #"{"$top":{"root":{"$uid":1}},"big":{"$uid":1099511627776}}"#)
    }

    @Test func readsSixteenByteIntegers() throws {
        let positive = HandmadeBinaryPlist(objects: [
            [0x14] + [UInt8](repeating: 0, count: 8) + [UInt8](repeating: 0xFF, count: 8)
        ])
        #expect(try readPlist(positive.bytes) == .unsignedInteger(.max))
        let negative = HandmadeBinaryPlist(objects: [[0x14] + [UInt8](repeating: 0xFF, count: 15) + [0xFE]])
        #expect(try readPlist(negative.bytes) == -2)
        let huge = HandmadeBinaryPlist(objects: [[0x14, 1] + [UInt8](repeating: 0, count: 15)])
        #expect(satchelError { try readPlist(huge.bytes) }?.code == .numberOutOfRange)
    }

    @Test func readsFloatsStringsAndDatesFromBinary() throws {
        let plist = HandmadeBinaryPlist(objects: [
            [0xA4, 1, 2, 3, 4],
            [0x22, 0x3F, 0xC0, 0x00, 0x00],  // float 1.5
            [0x62, 0x00, 0xE9, 0xD8, 0x3C],  // "é" and a lone high surrogate… fixed below
            [0x33] + HandmadeBinaryPlist.bigEndian(Double(60).bitPattern, size: 8),
            [0x73] + Array("a\u{e9}".utf8).prefix(3),
        ])
        var fixed = plist
        fixed.objects[2] = [0x63, 0x00, 0xE9, 0xD8, 0x3C, 0xDF, 0x92]  // "é🎒"
        #expect(try readPlist(fixed.bytes) == [1.5, "é🎒", .date(Date(timeIntervalSinceReferenceDate: 60)), "aé"])
        #expect(satchelError { try readPlist(plist.bytes) }?.code == .invalidEncoding)
    }

    @Test func sniffsTheFormat() throws {
        #expect(try [UInt8]("bplist00".utf8).withUnsafeBytes { try PropertyListFormat.sniff($0) } == .binary)
        #expect(
            try [UInt8]([0xEF, 0xBB, 0xBF, 0x20, 0x3C]).withUnsafeBytes { try PropertyListFormat.sniff($0) } == .xml)
        for (text, code) in [
            ("bplist01xxxx", SatchelError.Code.unsupportedFormat), ("{ a = b; }", .unsupportedFormat),
            ("hello", .syntaxError), ("  \n", .truncatedInput),
        ] {
            #expect(satchelError { try readPlist(Array(text.utf8)) }?.code == code, "\(text)")
        }
        #expect(satchelError { try readPlist([0xFF, 0xFE, 0x3C, 0]) }?.code == .unsupportedFormat)
    }

    @Test func nilAndBlankBodiesAreNoValueButTheReaderRefusesAnEmptyText() throws {
        let serializer = PropertyListResponseSerializer()
        #expect(try serializer.decode(nil, contentType: nil, limits: .default) == nil)
        #expect(try serializer.decode([], contentType: nil, limits: .default) == nil)
        #expect(try serializer.decode(Array(" \r\n".utf8), contentType: nil, limits: .default) == nil)
        // The reader reads a document, not a response: no text is not a property list.
        let error = satchelError { try readPlist([]) }
        #expect(error?.code == .truncatedInput)
        #expect(error?.message.contains("empty") == true)
    }

    @Test func theResponseSerializerAcceptsXPlistAndSniffsBothFormats() throws {
        let registry = Registry.standard()
        let xml = try PropertyListWriter(format: .xml).write(["a": 1])
        let binary = try PropertyListWriter(format: .binary).write(["a": 1])
        let type = try MediaType(parsing: "application/x-plist; charset=utf-8")
        #expect(try registry.decode(xml, contentType: type) == ["a": 1])
        #expect(try registry.decode(binary, contentType: type) == ["a": 1])
        var response = HTTPResponse(status: .ok)
        response.headerFields[.contentType] = "application/x-plist"
        let decoded = PropertyListResponseSerializer().serialize(response: response, body: binary, limits: .default)
        #expect(decoded.value == ["a": 1])
        #expect(decoded.serializerName == "plist")
        response.headerFields[.contentType] = "application/json"
        #expect(
            PropertyListResponseSerializer().serialize(response: response, body: binary, limits: .default).error?.code
                == .unacceptableContentType)
        #expect(registry.acceptHeader.contains("application/x-plist"))
    }

    @Test func decodesDecodableTypes() throws {
        struct Item: Decodable, Equatable {
            var name: String
            var when: Date
            var blob: Data
        }
        let body = try PropertyListWriter(format: .binary).write([
            "name": "n", "when": .date(Date(timeIntervalSince1970: 5)), "blob": .bytes([1, 2]),
        ])
        let item = try PropertyListResponseSerializer().decode(Item.self, from: body)
        #expect(item == Item(name: "n", when: Date(timeIntervalSince1970: 5), blob: Data([1, 2])))
    }

    @Test func theRequestSerializerWritesXMLByDefaultAndBinaryOnRequest() throws {
        let post = HTTPRequest(method: .post, scheme: "http", authority: "example.com", path: "/items")
        let xml = try PropertyListRequestSerializer().serialize(["a": [1, "b"]], into: post)
        #expect(xml.request.headerFields[.contentType] == "application/x-plist")
        #expect(xml.body.map { String(decoding: $0, as: UTF8.self).hasPrefix("<?xml") } == true)
        #expect(try readPlist(xml.body ?? []) == ["a": [1, "b"]])
        let binary = try PropertyListRequestSerializer(format: .binary).serialize(["a": [1, "b"]], into: post)
        #expect(binary.body.map { Array($0.prefix(8)) } == Array("bplist00".utf8))
        #expect(try readPlist(binary.body ?? []) == ["a": [1, "b"]])
        #expect(try PropertyListRequestSerializer().serialize(nil, into: post).body == nil)

        let get = HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: "/items")
        let query = try PropertyListRequestSerializer().serialize(["q": "x y"], into: get)
        #expect(query.request.path == "/items?q=x%20y")
        #expect(query.body == nil)
    }
}
