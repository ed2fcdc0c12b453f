// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// The inputs `scripts/fuzz` found bugs with (docs/notes/fuzzing-runs.md), each with the exact bytes and,
/// for the incremental parsers, the exact chunks the fuzz target fed. The reproducers are also
/// seeds in Fuzz/Seeds, so the fuzzer keeps retesting them.
@Suite struct FuzzRegressionTests {
    /// The bytes of a reproducer in Tests/Fixtures/fuzz.
    static func fixture(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: MultipartSamples.root.appendingPathComponent("Tests/Fixtures/fuzz/\(name)")))
    }

    /// `bytes` cut into chunks of `sizes` (the chunks a fuzz target fed), which must add up to
    /// all of it.
    static func split(_ bytes: [UInt8], sizes: [Int]) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var start = 0
        for size in sizes {
            chunks.append(Array(bytes[start..<start + size]))
            start += size
        }
        #expect(start == bytes.count)
        return chunks
    }

    /// Feeds `chunks` to a fresh incremental decoder of `serializer` and finishes it.
    static func decodeChunked(
        _ serializer: some ResponseSerializer, _ chunks: [[UInt8]], contentType: MediaType? = nil
    ) throws -> Value? {
        let decoder = try #require(serializer.makeIncrementalReader(contentType: contentType, limits: .default))
        for chunk in chunks { try decoder.feed(chunk) }
        return try decoder.finish()
    }

    /// Fuzz target `xml-document` (also `xml-events`): a body of five CRs fed as an empty chunk
    /// then the five bytes made libxml2's push parser report "Document is empty", while the
    /// whole body is no value.
    @Test func blankXMLBodyInChunksIsNoValue() throws {
        let blank: [UInt8] = [0x0D, 0x0D, 0x0D, 0x0D, 0x0D]
        let serializers: [any ResponseSerializer] = [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
        for serializer in serializers {
            #expect(try serializer.decode(blank, contentType: nil, limits: .default) == nil)
            #expect(try Self.decodeChunked(serializer, [[], blank]) == nil)
            #expect(try Self.decodeChunked(serializer, blank.map { [$0] }) == nil)
        }
    }

    /// Fuzz target `xml-events`: a DOCTYPE whose system literal holds `]>`, cut after it (39 +
    /// 12 bytes). libxml2's push parser took the `>` for the end of the declaration and failed a
    /// valid document with "Unfinished System or Public ID"; the prolog is now held back until
    /// the root element starts.
    @Test func doctypeLiteralWithGreaterThanCutInsideIt() throws {
        let text: [UInt8] = Array(#"<!DOCTYPE r SYSTEM "file:/]>//etc/passwd"><r>ok</r>"#.utf8)
        #expect(text.count == 51)
        let serializers: [any ResponseSerializer] = [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
        for serializer in serializers {
            let whole = try #require(try serializer.decode(text, contentType: nil, limits: .default))
            #expect(try Self.decodeChunked(serializer, [Array(text[..<39]), Array(text[39...])]) == whole)
            for cut in 0...text.count {
                #expect(
                    try Self.decodeChunked(serializer, [Array(text[..<cut]), Array(text[cut...])]) == whole,
                    "cut at \(cut)")
            }
        }
        let events = try #require(try XMLEventResponseSerializer().decode(text, contentType: nil, limits: .default))
        #expect(
            events.canonicalJSON()
                == #"{"$xml":{"children":[{"name":"r","namespace":null,"namespaces":{},"attributes":{},"children":["ok"]}]}}"#
        )
    }

    /// Prolog declarations and comments with quotes, `>` and `[`…`]` inside, cut at every
    /// position: the chunked parse always gives the whole one's value.
    @Test func prologCutAnywhere() throws {
        let text: [UInt8] = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?><?pi a='>'?><!-- don't > --><!DOCTYPE r PUBLIC "-//A//B" 'x>y' [
            <!ENTITY e "a>b"><!ATTLIST r d CDATA "]>">]><r>&e;</r>
            """.utf8)
        let serializer = XMLEventResponseSerializer()
        let whole = try #require(try serializer.decode(text, contentType: nil, limits: .default))
        for cut in 0...text.count {
            #expect(
                try Self.decodeChunked(serializer, [Array(text[..<cut]), Array(text[cut...])]) == whole, "cut at \(cut)"
            )
        }
    }

    /// Fuzz target `xml-events`: `<` and NULs (which libxml2 takes for UCS-4) followed by bytes
    /// that do not convert. libxml2 stopped without an error and without any element, so the
    /// whole body gave an empty event document while chunks (41, 54, 37, 21 bytes) failed with
    /// "Document is empty". A document without a root element is an error either way, and
    /// since libxml2's silent halts on bytes that do not convert are noticed, this one is
    /// `invalidEncoding` both ways.
    @Test func documentWithoutRootElementFails() throws {
        let bytes = try Self.fixture("xml-ucs4-no-root.xml")
        let chunks = Self.split(bytes, sizes: [41, 54, 37, 21])
        let serializers: [any ResponseSerializer] = [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
        for serializer in serializers {
            let whole = satchelError { try serializer.decode(bytes, contentType: nil, limits: .default) }
            let chunked = satchelError { try Self.decodeChunked(serializer, chunks) }
            #expect(whole?.code == .invalidEncoding, "\(serializer.name): \(String(describing: whole))")
            #expect(chunked?.code == .invalidEncoding, "\(serializer.name): \(String(describing: chunked))")
        }
    }

    /// Fuzz target `xml-events` (CI run): a body sent as `charset=iso-8859-1` declaring
    /// `encoding="UT-F7"` (iconv's UTF-7). libxml2 let the declaration override the Content-Type
    /// and then halted silently on a byte UTF-7 does not have: the whole body (converted before
    /// any parsing) gave "no root element", chunks of 18, 28, 4, 44, 0, 11 and 7 bytes an empty
    /// document with the root element still open. Now the charset is authoritative (RFC 7303)
    /// and a halt on bytes that do not convert is an error either way.
    @Test func declaredEncodingDoesNotOverrideTheCharset() throws {
        let bytes = try Self.fixture("xml-declared-charset-unclosed-root.xml")
        let latin1 = MediaType(type: "application", subtype: "xml").setting(parameter: "charset", to: "iso-8859-1")
        let chunks = Self.split(bytes, sizes: [18, 28, 4, 44, 0, 11, 7])
        let serializers: [any ResponseSerializer] = [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
        for serializer in serializers {
            let whole = satchelError { try serializer.decode(bytes, contentType: latin1, limits: .default) }
            let chunked = satchelError { try Self.decodeChunked(serializer, chunks, contentType: latin1) }
            #expect(whole?.code == .truncatedInput, "\(serializer.name): \(String(describing: whole))")
            #expect(chunked?.code == whole?.code, "\(serializer.name): \(String(describing: chunked))")
            #expect(chunked?.offset == whole?.offset)
        }
        // The same rule on a valid document: "+AGE-" is "a" in UTF-7, itself in Latin-1.
        let utf7 = Array(#"<?xml version="1.0" encoding="UTF-7"?><r>+AGE-</r>"#.utf8)
        let declared = try XMLEventResponseSerializer().decode(utf7, contentType: nil, limits: .default)
        let overridden = try XMLEventResponseSerializer().decode(utf7, contentType: latin1, limits: .default)
        #expect(declared?.canonicalJSON().contains(#"["a"]"#) == true, "\(String(describing: declared))")
        #expect(overridden?.canonicalJSON().contains(#"["+AGE-"]"#) == true, "\(String(describing: overridden))")
    }

    /// Bytes that do not convert after the root element started (libxml2 halts without
    /// reporting an error) fail with `invalidEncoding`, whole and in any chunking, in both forms.
    /// Fuzz target `xml-events` (10-minute run after the fix above): `encoding="UT-F8"` (iconv's
    /// UTF-8) and invalid UTF-8 in chunks of 50, 11 and 47 bytes — libxml2 kept what converted,
    /// recorded no error and halted only at the end, returning XML_ERR_INVALID_ENCODING.
    @Test func bytesThatDoNotConvertMidDocumentFail() throws {
        let found = try Self.fixture("xml-declared-ut-f8-halt.xml")
        #expect(found.count == 108)
        for serializer in [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()] as [any ResponseSerializer] {
            let chunks = Self.split(found, sizes: [50, 11, 47])
            let chunked = satchelError { try Self.decodeChunked(serializer, chunks) }
            #expect(chunked?.code == .invalidEncoding, "\(serializer.name): \(String(describing: chunked))")
        }
        let cases: [(body: [UInt8], contentType: MediaType?, encoding: String)] = [
            (
                Array(#"<?xml version="1.0" encoding="UTF-7"?><root><a"#.utf8) + [0xE8] + Array("ild/></root>".utf8),
                nil, "UTF-7"
            ),
            (
                Array(#"<?xml version="1.0" encoding="UT-F8"?><root><a"#.utf8) + [0xE8] + Array("ild/></root>".utf8),
                nil, "UT-F8"
            ),
            (
                Array("<root><a>".utf8) + [0xE8] + Array("</a></root>".utf8),
                MediaType(type: "text", subtype: "xml").setting(parameter: "charset", to: "us-ascii"), "us-ascii"
            ),
        ]
        let serializers: [any ResponseSerializer] = [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
        for (body, contentType, encoding) in cases {
            for serializer in serializers {
                let whole = satchelError { try serializer.decode(body, contentType: contentType, limits: .default) }
                #expect(whole?.code == .invalidEncoding, "\(serializer.name): \(String(describing: whole))")
                #expect(
                    whole?.message.lowercased().contains(encoding.lowercased()) == true, "\(String(describing: whole))")
                for cut in 1..<body.count {
                    let chunks = [Array(body[..<cut]), Array(body[cut...])]
                    let chunked = satchelError { try Self.decodeChunked(serializer, chunks, contentType: contentType) }
                    #expect(
                        chunked?.code == .invalidEncoding,
                        "\(serializer.name), cut at \(cut): \(String(describing: chunked))")
                }
            }
        }
    }

    /// Fuzz target `xml-events` (10-minute run): the comment `<!-->/>;&"<q ryoc>-->` before a
    /// DOCTYPE, in chunks of 13, 39, 1 and 16 bytes. The prolog scan took the comment's first
    /// `>` for its end and `<q` for the root element, and libxml2's push parser, looking for
    /// `-->` from the comment's `<`, took the opener's `--` and that `>` for it: "Comment not
    /// terminated" for a valid document. Comments are now scanned to their real end, and one
    /// libxml2 would misread is held back until its end arrives (``XMLCommentHoldBack``).
    @Test func commentStartingWithGreaterThanCutInsideIt() throws {
        let bytes = try Self.fixture("xml-comment-opener-gt.xml")
        #expect(bytes.count == 69)
        for serializer in [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()] as [any ResponseSerializer] {
            let whole = try #require(try serializer.decode(bytes, contentType: nil, limits: .default))
            #expect(try Self.decodeChunked(serializer, Self.split(bytes, sizes: [13, 39, 1, 16])) == whole)
            for cut in 0...bytes.count {
                #expect(
                    try Self.decodeChunked(serializer, [Array(bytes[..<cut]), Array(bytes[cut...])]) == whole,
                    "cut at \(cut)")
            }
        }
    }

    /// Comments whose text starts with `>` or `->`, in the prolog, the content and after the
    /// root element, with `>`, `<` and quotes inside comments and processing instructions
    /// before a DOCTYPE: every cut in two, and byte by byte, gives the whole parse's value, in UTF-8 and in UTF-16
    /// (detected from the byte order mark, or from the Content-Type's charset).
    @Test func commentsAndProcessingInstructionsCutAnywhere() throws {
        let text = """
            <?pi a>b <c '?><!-- x>y <z " --><!-->'<w--><!DOCTYPE r SYSTEM "s]>t"><r><!-->a<b--><!--->c--><!---->\
            <![CDATA[<!-->]]>d</r><!-->e-->
            """
        let utf8 = Array(text.utf8)
        let utf16LittleEndian: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let utf16BigEndian: [UInt8] = text.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        let xml = MediaType(type: "application", subtype: "xml")
        let cases: [(body: [UInt8], contentType: MediaType?)] = [
            (utf8, nil), (utf16LittleEndian, nil), (utf16BigEndian, xml.setting(parameter: "charset", to: "utf-16be")),
        ]
        let serializer = XMLEventResponseSerializer()
        var expected: Value?
        for (body, contentType) in cases {
            let whole = try #require(try serializer.decode(body, contentType: contentType, limits: .default))
            if let expected { #expect(whole == expected) } else { expected = whole }
            for cut in 0...body.count {
                let chunks = [Array(body[..<cut]), Array(body[cut...])]
                #expect(
                    try Self.decodeChunked(serializer, chunks, contentType: contentType) == whole,
                    "cut at \(cut) of \(body.count)")
            }
            #expect(
                try Self.decodeChunked(serializer, body.map { [$0] }, contentType: contentType) == whole, "byte by byte"
            )
        }
        let events = try #require(expected).canonicalJSON()
        #expect(
            events.contains(#"{"comment":">a<b"},{"comment":"->c"},{"comment":""},{"cdata":"<!-->"},"d"]"#), "\(events)"
        )
        #expect(events.hasSuffix(#"{"comment":">e"}]}}"#), "\(events)")
    }

    /// A long comment the hold-back keeps (its text starts with `>`) arriving in small chunks is
    /// delivered whole once its end arrives.
    @Test func longHeldCommentArrivesInSmallChunks() throws {
        let body =
            Array("<r><!-->".utf8) + Array(repeating: UInt8(ascii: "x"), count: 200_000) + Array("--><a/></r>".utf8)
        let serializer = XMLEventResponseSerializer()
        let whole = try #require(try serializer.decode(body, contentType: nil, limits: .default))
        let chunks = stride(from: 0, to: body.count, by: 100).map { Array(body[$0..<min($0 + 100, body.count)]) }
        #expect(try Self.decodeChunked(serializer, chunks) == whole)
    }

    /// Bodies that end inside what the hold-back keeps (a comment opened with `<!-->` or
    /// `<!--->`, an opener cut short, a last `<`) are `truncatedInput` whole and in every cut;
    /// UCS-4 bodies, which this libxml2 cannot read, are `invalidEncoding` both ways.
    @Test func bodiesEndingInsideAHeldCommentAreTruncatedAlike() throws {
        let truncated = ["<r><!-->abc", "<r><!--", "<r><", "<r><!---", "<r>a</r><!-->e", "<r><!--->x--"]
        let ucs4 = "<r><!-->a<b--><!--->c--></r>".unicodeScalars.flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] }
        let cases: [(body: [UInt8], code: SatchelError.Code)] =
            truncated.map { (Array($0.utf8), .truncatedInput) }
            + [(ucs4, .invalidEncoding), (Array(ucs4.prefix(30)), .invalidEncoding)]
        for (body, code) in cases {
            for serializer in [XMLDocumentResponseSerializer(), XMLEventResponseSerializer()]
                as [any ResponseSerializer]
            {
                let whole = satchelError { try serializer.decode(body, contentType: nil, limits: .default) }
                #expect(whole?.code == code, "\(serializer.name), \(body): \(String(describing: whole))")
                for cut in 0...body.count {
                    let chunked = satchelError {
                        try Self.decodeChunked(serializer, [Array(body[..<cut]), Array(body[cut...])])
                    }
                    #expect(
                        chunked?.code == code,
                        "\(serializer.name), \(body), cut at \(cut): \(String(describing: chunked))")
                }
            }
        }
    }

    /// Fuzz target `jpeg` (AddressSanitizer: heap-use-after-free): the EXIF orientation was read
    /// from libjpeg's saved APP1 marker after jpeg_finish_decompress had freed it. Any JPEG with
    /// EXIF did it; this is the test image with orientation 5. Without AddressSanitizer the
    /// freed bytes usually still hold the right value, so this test proves the fix under
    /// `swift test --sanitize=address`.
    @Test func jpegEXIFOrientationIsReadBeforeThePixels() throws {
        let bytes = try Self.fixture("jpeg-exif-5-use-after-free.jpg")
        for scale in ImageReadingOptions.Scale.allCases {
            let image = try ImageReader(options: ImageReadingOptions(scale: scale)).read(bytes)
            #expect(image.metadata.orientation == .leftMirrored)
        }
    }

    /// Fuzz target `compound` (10-minute run): a JSON body starting with a UTF-16 byte order mark
    /// was transcoded when decoded whole but refused ("looks like UTF-16 or UTF-32") when
    /// streamed. Both now read it as the whole decode does, in any chunking.
    @Test func wideJSONBodiesDecodeTheSameWholeAndStreamed() throws {
        let serializer = JSONResponseSerializer()
        let utf16: [UInt8] =
            [0xFE, 0xFF] + Array(#"{"a":[1,"é"]}"#.utf16.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] })
        let utf32LittleEndian: [UInt8] =
            [0xFF, 0xFE, 0x00, 0x00] + Array("[true]".unicodeScalars.flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] })
        for body in [utf16, utf32LittleEndian] {
            let whole = try serializer.decode(body, contentType: nil, limits: .default)
            #expect(whole != nil)
            #expect(try Self.decodeChunked(serializer, [body]) == whole)
            #expect(try Self.decodeChunked(serializer, body.map { [$0] }) == whole)
            #expect(try Self.decodeChunked(serializer, [[], Array(body.prefix(1)), Array(body.dropFirst())]) == whole)
        }
        // The fuzzer's body: a UTF-16BE mark, then code units that do not decode.
        let found: [UInt8] = [0xFE, 0xFF, 0xFF, 0xFF, 0x7B, 0x22, 0x61, 0x22, 0x3A] + Array(repeating: 0xC7, count: 9)
        var wholeError: SatchelError?
        do { _ = try serializer.decode(found, contentType: nil, limits: .default) } catch { wholeError = error }
        #expect(wholeError != nil)
        for chunks in [[found], found.map { [$0] }] {
            do {
                _ = try Self.decodeChunked(serializer, chunks)
                Issue.record("the streamed decode accepted what the whole one refused")
            } catch let error as SatchelError {
                #expect(error.code == wholeError?.code)
                #expect(error.message == wholeError?.message)
            }
        }
        // A wide body over maxBodyBytes fails streamed as it does whole (the limit is checked as
        // the body is collected).
        var limits = Limits.default
        limits.maxBodyBytes = 64
        let long = utf16 + Array(repeating: 0x00, count: 100)
        let streamed = try #require(serializer.makeIncrementalReader(contentType: nil, limits: limits))
        do {
            for byte in long { try streamed.feed([byte]) }
            _ = try streamed.finish()
            Issue.record("a 118-byte wide body passed a 64-byte limit")
        } catch {
            #expect(error.code == .limitExceeded)
            #expect(error.limit == "maxBodyBytes")
        }
        // An UTF-8 body that starts like a mark (FF) still streams and fails as before.
        #expect(throws: SatchelError.self) { try Self.decodeChunked(serializer, [[0xFF], [0x7B, 0x7D]]) }
        #expect(try Self.decodeChunked(serializer, [[0x7B], [0x7D]]) == [:])
    }

    /// Fuzz target `json` (Fuzz/Seeds/json/duplicate-null-member.json): with
    /// `removesKeysWithNullValues`, the typed decoder listed a name whose first value was `true`
    /// in `allKeys` while its last value, the one that counts, was null and left out.
    @Test func duplicateNameWithALastNullIsNotAKey() throws {
        var options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        let text = Array(#"{"o":{"z":true,"f":false,"z":null}}"#.utf8)
        let typed = try JSONModelDecoder(options: options).decode([String: [String: Bool]].self, from: text)
        #expect(typed == ["o": ["f": false]])
        #expect(try JSONReader(options: options).read(text) == ["o": ["f": false]])
    }

    /// Fuzz target `json` (Fuzz/Seeds/json/surrogate-pair-json-c-misdecodes.json): json-c 0.16
    /// decodes an escaped pair whose scalar's low 16 bits fall in D800–DFFF (U+1D800–U+1DFFF,
    /// CJK Extension F's U+2D800–U+2DFFF, …) to U+FFFD, so the `Value` path lost characters the
    /// typed path kept. The lexer hands json-c those scalars as UTF-8; keys, values, whole and
    /// byte by byte.
    @Test func surrogatePairsJSONCMisdecodesSurvive() throws {
        let scalars: [UInt32] = [0x1D800, 0x1DBFF, 0x1DC00, 0x1DFFF, 0x2D85A, 0x10DFFF, 0x1D7FF, 0x1E000, 0x1F600]
        for scalar in scalars {
            let high = 0xD800 + ((scalar - 0x10000) >> 10)
            let low = 0xDC00 + ((scalar - 0x10000) & 0x3FF)
            let escape = "\\u\(String(high, radix: 16, uppercase: true))\\u\(String(low, radix: 16))"
            let character = String(Character(Unicode.Scalar(scalar)!))
            let text = Array(#"{"k\#(escape)":["a\#(escape)b","\#(escape)\#(escape)","\n\#(escape)"]}"#.utf8)
            let strings = ["a\(character)b", character + character, "\n" + character]
            let expected: Value = ["k" + character: .array(strings.map(Value.string))]
            #expect(try JSONReader().read(text) == expected, "U+\(String(scalar, radix: 16))")
            let reader = JSONReader().makeIncrementalReader()
            for byte in text { try reader.feed([byte]) }
            #expect(try reader.finish() == expected, "U+\(String(scalar, radix: 16)) byte by byte")
            #expect(try JSONReader().read([String: [String]].self, from: text) == ["k" + character: strings])
        }
    }

    /// Fuzz target `json` (Fuzz/Seeds/json/duplicate-overflowing-member.json): the typed path's
    /// `Value` converted the value of a name that a later duplicate replaces, so an overflowing
    /// `3.5e11615` there failed with `numberOutOfRange` where json-c, which drops the replaced
    /// value while parsing, read the text. Members per object count distinct names, as json-c
    /// counts them.
    @Test func aReplacedDuplicateIsNotConverted() throws {
        let text = Array(#"{"n":[3.5e11615],"o":1,"n":[2]}"#.utf8)
        #expect(try JSONModelDecoder().decode(Value.self, from: text) == ["n": [2], "o": 1])
        #expect(try JSONReader().read(text) == ["n": [2], "o": 1])
        struct N: Decodable, Equatable { var n: [Double] }
        #expect(try JSONModelDecoder().decode(N.self, from: text) == N(n: [2]))
        let limited = JSONModelDecoder(limits: Limits(maxPairs: 2))
        #expect(try limited.decode([String: Value].self, from: text).count == 2)
        #expect(try limited.decode(Value.self, from: text) == ["n": [2], "o": 1])
    }
}
