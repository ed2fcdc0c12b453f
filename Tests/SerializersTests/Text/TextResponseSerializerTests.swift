// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// Charset resolution (Content-Type, BOM, media type default, fallback) and the text serializer.
@Suite struct TextResponseSerializerTests {
    func type(_ text: String) throws -> MediaType { try MediaType(parsing: text) }

    @Test func utf8JSONWithoutCharsetKeepsItsAccents() throws {
        let bytes = Array("{\"name\":\"José\"}".utf8)
        let resolved = try TextDecoding(fallback: .isoLatin1).resolve(bytes, mediaType: type("application/json"))
        #expect(resolved.charset == .utf8)
        #expect(resolved.source == .mediaTypeDefault)
        #expect(
            try TextDecoding(fallback: .isoLatin1).decode(bytes, mediaType: type("application/vnd.api+json"))
                == "{\"name\":\"José\"}")
    }

    @Test func contentTypeCharsetComesFirst() throws {
        let latin1: [UInt8] = [0x63, 0x61, 0x66, 0xE9]  // "café" in ISO-8859-1
        #expect(try TextDecoding().decode(latin1, mediaType: type("text/plain; charset=ISO-8859-1")) == "café")
        #expect(
            try TextDecoding().resolve(latin1, mediaType: type("text/plain; charset=latin1")).source == .contentType)
        let cp1252: [UInt8] = [0x80, 0x20, 0x93, 0x71, 0x94]
        #expect(
            try TextDecoding().decode(cp1252, mediaType: type("text/plain; charset=windows-1252"))
                == "€ \u{201C}q\u{201D}")
    }

    @Test func byteOrderMarksDecideWithoutCharsetAndAreRemoved() throws {
        let utf16LE: [UInt8] = [0xFF, 0xFE, 0x68, 0x00, 0xE9, 0x00]
        #expect(try TextDecoding().decode(utf16LE, mediaType: type("text/plain")) == "hé")
        let utf16BE: [UInt8] = [0xFE, 0xFF, 0x00, 0x68, 0xD8, 0x3D, 0xDE, 0x00]
        #expect(try TextDecoding().decode(utf16BE, mediaType: nil) == "h😀")
        let utf32LE: [UInt8] = [0xFF, 0xFE, 0x00, 0x00, 0x00, 0xF6, 0x01, 0x00]
        #expect(try TextDecoding().decode(utf32LE, mediaType: nil) == "😀")
        #expect(
            try TextDecoding().decode([0xEF, 0xBB, 0xBF, 0x61], mediaType: type("text/plain; charset=utf-8")) == "a")
        // charset=utf-16 takes its byte order from the mark.
        #expect(try TextDecoding().decode(utf16LE, mediaType: type("text/plain; charset=utf-16")) == "hé")
        #expect(try TextDecoding().decode([0x00, 0x68], mediaType: type("text/plain; charset=utf-16")) == "h")
    }

    @Test func xmlTakesItsDeclaration() throws {
        let bytes = Array("<?xml version=\"1.0\" encoding='ISO-8859-1'?><a>".utf8) + [0xE9] + Array("</a>".utf8)
        let resolved = try TextDecoding().resolve(bytes, mediaType: type("application/atom+xml"))
        #expect(resolved.charset == .isoLatin1)
        #expect(resolved.source == .xmlDeclaration)
        #expect(try TextDecoding().resolve(Array("<a/>".utf8), mediaType: type("text/xml")).source == .mediaTypeDefault)
    }

    @Test func theFallbackDecidesPlainText() throws {
        #expect(try TextDecoding(fallback: .windows1252).decode([0x80], mediaType: type("text/plain")) == "€")
        #expect(try TextDecoding().resolve([0x61], mediaType: type("text/csv")).source == .fallback)
    }

    @Test func invalidBytesNameTheirOffset() throws {
        let error = satchelError {
            try TextDecoding().decode(Array("ok".utf8) + [0xC3, 0x28], mediaType: try type("text/plain"))
        }
        #expect(error?.code == .invalidEncoding)
        #expect(error?.offset == 2)
        let ascii = satchelError {
            try TextDecoding().decode([0x61, 0xFF], mediaType: try type("text/plain; charset=us-ascii"))
        }
        #expect(ascii?.offset == 1)
        let lone = satchelError { try TextDecoding().decode([0xFF, 0xFE, 0x61, 0x00, 0x00, 0xD8], mediaType: nil) }
        #expect(lone?.code == .invalidEncoding)
        #expect(lone?.offset == 4)
        let odd = satchelError {
            try TextDecoding().decode([0x00, 0x61, 0x00], mediaType: try type("text/plain; charset=utf-16be"))
        }
        #expect(odd?.code == .invalidEncoding)
        let big = satchelError {
            try TextDecoding().decode([0x00, 0x11, 0x00, 0x00], mediaType: try type("text/plain; charset=utf-32"))
        }
        #expect(big?.code == .invalidEncoding)
    }

    @Test func unknownCharsetsAreUnsupported() throws {
        let error = satchelError {
            try TextDecoding().decode([0x61], mediaType: try type("text/plain; charset=x-ebcdic-unknown"))
        }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message.contains("x-ebcdic-unknown") == true)
        let declared = satchelError {
            try TextDecoding().decode(
                Array("<?xml version=\"1.0\" encoding=\"EBCDIC\"?>".utf8), mediaType: try type("application/xml"))
        }
        #expect(declared?.code == .unsupportedFormat)
    }

    @Test func theSerializerDecodesThroughTheRegistry() throws {
        let registry = Registry.standard()
        let response = HTTPResponse(status: .ok, headerFields: [.contentType: "text/plain; charset=iso-8859-1"])
        let result = registry.decode(response: response, body: [0x6E, 0x61, 0xEF, 0x76, 0x65])
        #expect(result.value == "naïve")
        #expect(result.serializerName == "text")
        #expect(try registry.decode([], contentType: type("text/plain")) == nil)
        // More specific registrations still win over text/*.
        #expect(registry.responseSerializer(for: try type("text/json"))?.name == "json")
    }

    @Test func theBodyLimitApplies() throws {
        var limits = Limits()
        limits.maxBodyBytes = 3
        let error = satchelError {
            try TextResponseSerializer().decode(Array("abcd".utf8), contentType: try type("text/plain"), limits: limits)
        }
        #expect(error?.limit == "maxBodyBytes")
        // Truncated multi-byte text names the offset of the cut sequence.
        let cut = satchelError {
            try TextResponseSerializer().decode(
                [0x61, 0xE2, 0x82], contentType: try type("text/plain"), limits: .default)
        }
        #expect(cut?.code == .invalidEncoding)
        #expect(cut?.offset == 1)
    }

    @Test func theStringLimitApplies() throws {
        var limits = Limits()
        limits.maxStringBytes = 3
        let error = satchelError {
            try TextResponseSerializer().decode(Array("abcd".utf8), contentType: try type("text/plain"), limits: limits)
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.limit == "maxStringBytes")
    }
}

/// JSON is UTF-8; UTF-16 and UTF-32 bodies are transcoded, other charset labels ignored.
@Suite struct JSONCharsetTests {
    let serializer = JSONResponseSerializer()

    func utf16(_ text: String, bigEndian: Bool, mark: Bool) -> [UInt8] {
        var bytes: [UInt8] = mark ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : []
        for unit in text.utf16 {
            bytes += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        return bytes
    }

    @Test func utf16AndUTF32AreTranscoded() throws {
        let text = #"{"name":"José 😀"}"#
        let expected: Value = ["name": "José 😀"]
        #expect(
            try serializer.decode(utf16(text, bigEndian: false, mark: true), contentType: nil, limits: .default)
                == expected)
        #expect(
            try serializer.decode(
                utf16(text, bigEndian: true, mark: false),
                contentType: MediaType(parsing: "application/json; charset=UTF-16BE"), limits: .default) == expected)
        var utf32: [UInt8] = [0xFF, 0xFE, 0, 0]
        for scalar in text.unicodeScalars { utf32 += withUnsafeBytes(of: scalar.value.littleEndian, Array.init) }
        #expect(
            try serializer.decode(utf32, contentType: MediaType(parsing: "application/json"), limits: .default)
                == expected)
    }

    @Test func otherCharsetLabelsHaveNoEffect() throws {
        // RFC 8259 §11: a UTF-8 body mislabelled ISO-8859-1 still reads right, never "JosÃ©".
        let body = Array(#"{"name":"José"}"#.utf8)
        #expect(
            try serializer.decode(
                body, contentType: MediaType(parsing: "application/json; charset=iso-8859-1"), limits: .default) == [
                    "name": "José"
                ])
        #expect(
            try serializer.decode(
                body, contentType: MediaType(parsing: "application/json; charset=x-unknown"), limits: .default) == [
                    "name": "José"
                ])
        // A byte order mark outranks a label that contradicts it.
        #expect(
            try serializer.decode(
                utf16(#"{"a":1}"#, bigEndian: false, mark: true),
                contentType: MediaType(parsing: "application/json; charset=utf-8"), limits: .default) == ["a": 1])
    }

    @Test func brokenUTF16IsAnEncodingError() throws {
        let error = satchelError {
            try serializer.decode([0xFF, 0xFE, 0x7B, 0x00, 0x00, 0xD8], contentType: nil, limits: .default)
        }
        #expect(error?.code == .invalidEncoding)
    }
}

/// The request side of text: strings (and bytes) as `text/plain; charset=utf-8` bodies.
@Suite struct TextRequestSerializerTests {
    @Test func stringsAreUTF8BodiesForEveryMethod() throws {
        let serializer = TextRequestSerializer()
        for method in [HTTPRequest.Method.post, .get, .delete] {
            let head = HTTPRequest(method: method, scheme: "https", authority: "h.test", path: "/notes")
            let request = try serializer.serialize("Grüße", into: head)
            #expect(request.body == Array("Grüße".utf8))
            #expect(request.request.headerFields[.contentType] == "text/plain; charset=utf-8")
            #expect(request.request.path == "/notes")
        }
        #expect(try serializer.encodeBody(.bytes([0x61, 0x62])) == [0x61, 0x62])
    }

    @Test(arguments: [Value.integer(1), ["a": 1], [1, 2], .null])
    func otherValuesHaveNoTextForm(value: Value) {
        let error = #expect(throws: SatchelError.self) { _ = try TextRequestSerializer().encodeBody(value) }
        #expect(error?.code == .unencodableValue)
    }

    @Test func theStandardRegistryWritesTextPlain() throws {
        let registry = Registry.standard()
        #expect(registry.requestSerializer(for: .plainText)?.name == "text")
        let encoded = try registry.encode("note", as: .plainText)
        #expect(encoded.body == Array("note".utf8))
        #expect(encoded.contentType.essence == "text/plain")
    }
}
