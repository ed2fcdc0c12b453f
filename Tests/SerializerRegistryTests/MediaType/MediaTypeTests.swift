// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("MediaType parsing (RFC 9110 §8.3.1, §5.6)")
struct MediaTypeParsingTests {
    @Test func parsesTypeAndSubtype() throws {
        let type = try mediaType("application/json")
        #expect(type.type == "application")
        #expect(type.subtype == "json")
        #expect(type.parameters.isEmpty)
        #expect(type.essence == "application/json")
        #expect(type == .json)
    }

    @Test func typeSubtypeAndParameterNamesAreCaseInsensitive() throws {
        let type = try mediaType("Text/HTML; Charset=UTF-8; Level=1")
        #expect(type.type == "text")
        #expect(type.subtype == "html")
        #expect(type.parameters.map(\.name) == ["charset", "level"])
        #expect(try type == mediaType("text/html;charset=utf-8;level=1"))
    }

    @Test func charsetValueIsCaseInsensitiveOtherValuesKeepCase() throws {
        let type = try mediaType("multipart/form-data; CHARSET=Utf-8; boundary=AbC-xYz")
        #expect(type.charset == "utf-8")
        #expect(type[parameter: "boundary"] == "AbC-xYz")
        #expect(type[parameter: "BOUNDARY"] == "AbC-xYz")
        #expect(type[parameter: "missing"] == nil)
        // A quoted charset is the same charset.
        #expect(try mediaType("text/plain; charset=\"UTF-8\"").charset == "utf-8")
    }

    @Test func quotedValuesWithEscapes() throws {
        let type = try mediaType(#"text/plain; title="a \"quoted\" \\ word""#)
        #expect(type[parameter: "title"] == #"a "quoted" \ word"#)
        // A quoted-pair may escape any visible character, which stands for itself.
        #expect(try mediaType(#"text/plain; x="\a\b""#)[parameter: "x"] == "ab")
        #expect(try mediaType("text/plain; x=\"\"")[parameter: "x"] == "")
        #expect(try mediaType("text/plain; x=\"a\tb c\"")[parameter: "x"] == "a\tb c")
    }

    @Test func semicolonAndCommaInsideQuotes() throws {
        let type = try mediaType(#"multipart/mixed; boundary="a;b,c=d"; x=y"#)
        #expect(type[parameter: "boundary"] == "a;b,c=d")
        #expect(type[parameter: "x"] == "y")
        #expect(type.parameters.count == 2)
    }

    @Test("a multipart boundary as senders write it: RFC 2046's characters unquoted, whitespace trimmed")
    func looseMultipartBoundary() throws {
        let cases: [(String, String)] = [
            ("multipart/form-data; boundary=abc'()+_,-./:=?", "abc'()+_,-./:=?"),
            ("multipart/mixed; boundary=abc'()+_,-./:=?; charset=utf-8", "abc'()+_,-./:=?"),
            ("multipart/form-data; boundary= X ", "X"),
            ("multipart/form-data; boundary=\tX\t;charset=utf-8", "X"),
            ("multipart/form-data; boundary= \"q u\" ", "q u"),
            ("multipart/form-data; boundary=inner space", "inner space"),
            // A ";" that does not start a parameter (no "name=") is part of the value.
            ("multipart/form-data; boundary=a;b; c=d", "a;b"),
            ("Multipart/Related; type=\"text/xml\"; BOUNDARY=batch_pK7=_AA5=; start=x", "batch_pK7=_AA5="),
        ]
        for (text, boundary) in cases {
            let type = try mediaType(text)
            #expect(type[parameter: "boundary"] == boundary, "\(text.debugDescription)")
            #expect(try mediaType(type.description) == type, "\(text.debugDescription) round trip")
        }
        #expect(try mediaType("multipart/mixed; boundary=abc,def; charset=utf-8").charset == "utf-8")
    }

    @Test func nonASCIIInQuotedValueIsObsText() throws {
        #expect(try mediaType("text/plain; title=\"café\"")[parameter: "title"] == "café")
    }

    @Test func optionalWhitespaceAroundSemicolons() throws {
        let expected = try mediaType("text/plain;charset=utf-8;format=flowed")
        for text in [
            "text/plain ; charset=utf-8 ;format=flowed",
            "text/plain;\tcharset=utf-8\t;  format=flowed",
            "  text/plain; charset=utf-8; format=flowed  ",
            "\ttext/plain;charset=utf-8;format=flowed\t",
        ] {
            #expect(try mediaType(text) == expected, "\(text)")
        }
    }

    @Test func emptyParametersAreAllowed() throws {
        let expected = try mediaType("text/plain;charset=utf-8")
        for text in [
            "text/plain;;charset=utf-8", "text/plain; ; charset=utf-8 ;", "text/plain;charset=utf-8;;;", "text/plain ;",
        ] {
            let parsed = try mediaType(text)
            #expect(parsed.essence == "text/plain", "\(text)")
            if text != "text/plain ;" { #expect(parsed == expected, "\(text)") }
        }
        #expect(try mediaType("text/plain;").parameters.isEmpty)
    }

    @Test func structuredSuffix() throws {
        #expect(try mediaType("application/vnd.api+json").suffix == "json")
        #expect(try mediaType("application/atom+XML").suffix == "xml")
        #expect(try mediaType("application/vnd.a+b+cbor").suffix == "cbor")
        #expect(try mediaType("application/*+json").suffix == "json")
        #expect(try mediaType("application/json").suffix == nil)
        #expect(try mediaType("application/foo+").suffix == nil)
        #expect(MediaType.any.suffix == nil)
    }

    @Test func equalTypesHashEqual() throws {
        let types: Set<MediaType> = try [
            mediaType("TEXT/Plain; Charset=UTF-8"), mediaType("text/plain;charset=\"utf-8\""),
        ]
        #expect(types.count == 1)
    }

    @Test func failableInitializer() {
        #expect(MediaType("application/json") == .json)
        #expect(MediaType("application") == nil)
        #expect(MediaType("") == nil)
    }

    @Test func memberwiseInitializerLowercases() {
        let type = MediaType(type: "Application", subtype: "JSON", parameters: [.init(name: "Charset", value: "UTF-8")])
        #expect(type.essence == "application/json")
        #expect(type.parameters == [MediaType.Parameter(name: "charset", value: "utf-8")])
        #expect(MediaType.Parameter(name: "Boundary", value: "XyZ").value == "XyZ")
    }

    @Test func constants() {
        #expect(MediaType.json.description == "application/json")
        #expect(MediaType.formURLEncoded.description == "application/x-www-form-urlencoded")
        #expect(MediaType.octetStream.description == "application/octet-stream")
        #expect(MediaType.plainText.description == "text/plain")
        #expect(MediaType.any.description == "*/*")
    }

    @Test func settingParameter() throws {
        let type = try mediaType("text/plain; Charset=latin1; format=flowed")
        let replaced = type.setting(parameter: "CHARSET", to: "UTF-8")
        #expect(replaced.description == "text/plain; charset=utf-8; format=flowed")
        let added = type.setting(parameter: "delsp", to: "yes")
        #expect(added.description == "text/plain; charset=latin1; format=flowed; delsp=yes")
        #expect(type.description == "text/plain; charset=latin1; format=flowed")  // unchanged
    }
}

@Suite("MediaType rendering")
struct MediaTypeDescriptionTests {
    @Test func tokensAreNotQuoted() throws {
        #expect(try mediaType("Text/Plain ; Charset=\"UTF-8\"").description == "text/plain; charset=utf-8")
        #expect(try mediaType("application/vnd.api+json").description == "application/vnd.api+json")
    }

    @Test func valuesAreQuotedOnlyWhenNeeded() throws {
        let cases: [(String, String)] = [
            ("a b", #""a b""#),
            ("a;b", #""a;b""#),
            ("a,b", #""a,b""#),
            ("a=b", #""a=b""#),
            ("", #""""#),
            (#"say "hi""#, #""say \"hi\"""#),
            (#"back\slash"#, #""back\\slash""#),
            ("a/b", #""a/b""#),
            ("café", "\"café\""),
            ("simple-token_1.0", "simple-token_1.0"),
            ("!#$%&'*+-.^_`|~", "!#$%&'*+-.^_`|~"),
        ]
        for (value, rendered) in cases {
            let type = MediaType.plainText.setting(parameter: "x", to: value)
            #expect(type.description == "text/plain; x=\(rendered)", "\(value)")
        }
    }

    @Test func descriptionRoundTrips() throws {
        for text in [
            #"multipart/form-data; boundary="----a b;c""#,
            #"text/plain; title="a \"b\" \\ c"; charset=utf-8"#,
            "application/vnd.api+json; ext=\"https://example.com/ext\"",
            "text/plain; x=\"\"",
            "text/plain; x=\"tab\there\"",
        ] {
            let parsed = try mediaType(text)
            #expect(try mediaType(parsed.description) == parsed, "\(text)")
        }
    }

    @Test func controlCharactersNeverReachTheHeaderText() {
        // A value set in code cannot contain CR or LF in the rendered header (header injection).
        let type = MediaType.plainText.setting(parameter: "x", to: "a\r\nSet-Cookie: b\u{0}\u{7F}")
        let text = type.description
        #expect(!text.utf8.contains { $0 < 0x20 || $0 == 0x7F })
        #expect(MediaType(text) != nil)
    }
}

@Suite("MediaType matching and specificity")
struct MediaTypeMatchingTests {
    @Test func exactMatchIgnoresCase() throws {
        #expect(try mediaType("text/html").matches(mediaType("TEXT/Html")))
        #expect(try !mediaType("text/html").matches(mediaType("text/plain")))
        #expect(try !mediaType("text/html").matches(mediaType("application/html")))
    }

    @Test func typeWildcard() throws {
        let pattern = try mediaType("text/*")
        #expect(try pattern.matches(mediaType("text/html")))
        #expect(try pattern.matches(mediaType("text/plain; charset=utf-8")))
        #expect(try !pattern.matches(mediaType("application/json")))
    }

    @Test func anyWildcard() throws {
        for text in ["text/html", "application/vnd.api+json", "image/png; x=y"] {
            #expect(try MediaType.any.matches(mediaType(text)))
        }
    }

    @Test func suffixWildcard() throws {
        let pattern = try mediaType("application/*+json")
        #expect(try pattern.matches(mediaType("application/vnd.api+json")))
        #expect(try pattern.matches(mediaType("Application/Problem+JSON")))
        #expect(try !pattern.matches(mediaType("application/json")))
        #expect(try !pattern.matches(mediaType("application/atom+xml")))
        #expect(try !pattern.matches(mediaType("text/vnd.x+json")))
        #expect(try !pattern.matches(mediaType("application/jsonx")))
    }

    @Test func parametersInPattern() throws {
        let pattern = try mediaType("text/plain; charset=utf-8")
        #expect(try pattern.matches(mediaType("text/plain; charset=UTF-8; format=flowed")))
        #expect(try pattern.matches(mediaType("text/plain;format=flowed;charset=\"utf-8\"")))
        #expect(try !pattern.matches(mediaType("text/plain")))
        #expect(try !pattern.matches(mediaType("text/plain; charset=iso-8859-1")))
        // A pattern without parameters ignores the candidate's.
        #expect(try mediaType("text/plain").matches(mediaType("text/plain; charset=utf-8")))
        // Parameters on a wildcard pattern still apply.
        #expect(try mediaType("text/*; charset=utf-8").matches(mediaType("text/html; charset=utf-8")))
        #expect(try !mediaType("text/*; charset=utf-8").matches(mediaType("text/html")))
    }

    @Test func specificityOrdersRanges() throws {
        // RFC 9110 §12.5.1: more specific ranges override less specific ones.
        let ordered = try [
            "text/plain;format=flowed",
            "text/plain",
            "application/*+json",
            "text/*",
            "*/*",
        ].map(mediaType)
        for (more, less) in zip(ordered, ordered.dropFirst()) {
            #expect(more.specificity > less.specificity, "\(more) vs \(less)")
        }
        #expect(try mediaType("text/plain;a=1;b=2").specificity > mediaType("text/plain;a=1").specificity)
        #expect(try mediaType("TEXT/PLAIN").specificity == mediaType("image/png").specificity)
    }
}

@Suite("MediaType bad input")
struct MediaTypeBadInputTests {
    @Test(
        arguments: [
            ("", 0...0),
            ("   ", 0...3),
            ("text", 4...4),
            ("text/", 5...5),
            ("/json", 0...0),
            ("text /plain", 4...4),
            ("text/ plain", 5...5),
            ("text/plain; charset", 19...19),
            ("text/plain; charset = utf-8", 19...19),
            ("text/plain; =utf-8", 12...12),
            ("text/plain; charset=", 20...20),
            ("text/plain; charset=\"utf-8", 21...26),
            ("text/plain; charset=\"utf-8\\", 21...27),
            ("text/plain; charset=\"utf-8\"x", 27...27),
            ("text/plain\u{0}", 10...10),
            ("text/pl\u{7}ain", 7...7),
            ("text/plain; charset=\"a\nb\"", 22...22),
            ("text/plain; charset=\"a\u{7F}b\"", 22...22),
            ("text/plain charset=x", 11...11),
            ("text/plain, text/html", 10...10),
            ("text/plain;charset=utf-8,", 24...24),
            ("tëxt/plain", 1...1),
            ("text/plaïn", 8...8),
            ("text/plain; charset=ütf-8", 20...20),
            ("text/plain; chärset=utf-8", 12...14),
            ("text\\/plain", 4...4),
            ("text/plain; a=b c", 16...16),
            // Only the boundary of a multipart type is read loosely.
            ("text/plain; boundary=abc'()+_,-./:=?", 25...25),
            ("text/plain; boundary= X", 21...21),
            ("application/json; charset= utf-8", 26...26),
            ("multipart/mixed; charset= utf-8", 25...25),
            ("multipart/mixed; boundary=", 26...26),
            ("multipart/mixed; boundary=  ; x=y", 26...28),
            ("multipart/mixed; boundary=a\u{1}b", 27...27),
            ("multipart/mixed; boundary=caf\u{E9}", 29...29),
            ("multipart/mixed; boundary=a; boundary=b", 29...29),
        ] as [(String, ClosedRange<Int>)])
    func rejected(text: String, offsets: ClosedRange<Int>) throws {
        let error = try #require(mediaTypeError(text), "\(text.debugDescription) should not parse")
        #expect(error.code == .invalidMediaType)
        let offset = try #require(error.offset)
        #expect(offsets.contains(offset), "\(text.debugDescription): offset \(offset)")
        #expect(!error.message.isEmpty)
        #expect(MediaType(text) == nil)
    }
}
