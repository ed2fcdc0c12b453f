// SPDX-License-Identifier: Apache-2.0
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

/// Each format's typed coders through every container and every primitive type
/// (`EveryPrimitive`): what a generated `Codable` conformance can call, round-tripped.
@Suite struct TypedCodingContainerTests {
    let model = EveryPrimitive()

    @Test func json() throws {
        let bytes = try JSONModelEncoder().encode(model)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains(#""uint64":18446744073709551615"#) && text.contains(#""int64":-9223372036854775808"#))
        #expect(!text.contains("absent"))
        #expect(try JSONModelDecoder().decode(EveryPrimitive.self, from: bytes) == model)
        // The same text through the Value path decodes the same way.
        #expect(try ValueDecoder().decode(EveryPrimitive.self, from: try JSONReader().read(bytes)) == model)
    }

    @Test func jsonNilsInArrays() throws {
        let values: [[Int?]] = [[1, nil], [], [nil]]
        let bytes = try JSONModelEncoder().encode(values)
        #expect(String(decoding: bytes, as: UTF8.self) == "[[1,null],[],[null]]")
        #expect(try JSONModelDecoder().decode([[Int?]].self, from: bytes) == values)
    }

    @Test func xml() throws {
        let model = EveryPrimitive(nestsListInList: false)
        let bytes = try XMLModelEncoder().encode(model, rootElement: "model")
        #expect(String(decoding: bytes, as: UTF8.self).contains("<uint64>18446744073709551615</uint64>"))
        #expect(try XMLModelDecoder().decode(EveryPrimitive.self, from: bytes) == model)
    }

    /// Binary property lists have their own decoder (BinaryPropertyListDecodingNode); its
    /// `superDecoder()` handed back the container's own node instead of the member `super`.
    @Test(arguments: [PropertyListFormat.binary, .xml])
    func propertyList(format: PropertyListFormat) throws {
        let body = try PropertyListWriter(format: format).write(model: model)
        #expect(try PropertyListResponseSerializer().decode(EveryPrimitive.self, from: body) == model)
    }

    /// A member of the wrong type is an error with its key path, in every typed decoder.
    @Test func aMismatchIsAnErrorWithItsPath() throws {
        let json = Array(
            String(decoding: try JSONModelEncoder().encode(model), as: UTF8.self)
                .replacingOccurrences(of: #""int8":-8"#, with: #""int8":-800"#).utf8)
        let jsonError = try #require(throws: SatchelError.self) {
            try JSONModelDecoder().decode(EveryPrimitive.self, from: json)
        }
        #expect(jsonError.keyPath?.contains("int8") == true, "\(jsonError)")
        let xmlModel = EveryPrimitive(nestsListInList: false)
        let xml = Array(
            String(decoding: try XMLModelEncoder().encode(xmlModel, rootElement: "model"), as: UTF8.self)
                .replacingOccurrences(of: "<uint8>255</uint8>", with: "<uint8>256</uint8>").utf8)
        let xmlError = try #require(throws: SatchelError.self) {
            try XMLModelDecoder().decode(EveryPrimitive.self, from: xml)
        }
        #expect(xmlError.keyPath?.contains("uint8") == true, "\(xmlError)")
    }

    /// A model that reads its `super` member (a number) through `superDecoder()`.
    struct ReadsSuper: Decodable {
        let value: Int
        enum Key: CodingKey { case other }
        init(from decoder: any Decoder) throws {
            value = try decoder.container(keyedBy: Key.self).superDecoder().singleValueContainer().decode(Int.self)
        }
    }

    /// Without a `super` member, or with one of another type, `superDecoder()` leads to a precise
    /// error in the decoders whose `superDecoder()` was fixed, never to the container itself.
    @Test func aMissingOrMistypedSuperIsAnError() throws {
        for body in [["other": 1] as Value, ["super": "one"]] {
            let plist = try PropertyListWriter(format: .binary).write(body)
            let error = try #require(throws: SatchelError.self) {
                try PropertyListResponseSerializer().decode(ReadsSuper.self, from: plist)
            }
            #expect([.valueNotFound, .typeMismatch].contains(error.code), "\(error)")
        }
        for xml in ["<r><other>1</other></r>", "<r><super>one</super></r>"] {
            let error = try #require(throws: SatchelError.self) {
                try XMLModelDecoder().decode(ReadsSuper.self, from: Array(xml.utf8))
            }
            #expect([.valueNotFound, .typeMismatch].contains(error.code), "\(error)")
        }
        let plist = try PropertyListWriter(format: .binary).write(["super": 7] as Value)
        #expect(try PropertyListResponseSerializer().decode(ReadsSuper.self, from: plist).value == 7)
        #expect(try XMLModelDecoder().decode(ReadsSuper.self, from: Array("<r><super>7</super></r>".utf8)).value == 7)
    }
}
