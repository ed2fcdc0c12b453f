// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Testing

@Suite("MediaRangeList (RFC 9110 §12.5.1 Accept)")
struct MediaRangeListTests {
    @Test func parsesWeights() throws {
        let list = try MediaRangeList(parsing: "text/html, application/xhtml+xml, application/xml;q=0.9, */*;q=0.8")
        #expect(
            list.ranges.map(\.mediaType.essence) == ["text/html", "application/xhtml+xml", "application/xml", "*/*"])
        #expect(list.ranges.map(\.quality) == [1, 1, 0.9, 0.8])
        #expect(list.ranges.allSatisfy { $0.mediaType.parameters.isEmpty })
        #expect(try list.quality(for: mediaType("text/html")) == 1)
        #expect(try list.quality(for: mediaType("application/xml")) == 0.9)
        #expect(try list.quality(for: mediaType("image/png")) == 0.8)
    }

    @Test func rfc9110Example() throws {
        // The example of RFC 9110 §12.5.1 and the values it associates.
        let list = try MediaRangeList(
            parsing: """
                text/*;q=0.3, text/plain;q=0.7, text/plain;format=flowed,\
                 text/plain;format=fixed;q=0.4, */*;q=0.5
                """)
        let expected: [(String, Double)] = [
            ("text/plain;format=flowed", 1),
            ("text/plain", 0.7),
            ("text/html", 0.3),
            ("image/jpeg", 0.5),
            ("text/plain;format=fixed", 0.4),
            ("text/html;level=3", 0.3),
        ]
        for (type, quality) in expected {
            #expect(try list.quality(for: mediaType(type)) == quality, "\(type)")
        }
    }

    @Test func zeroWeightIsNotAcceptableEvenUnderAnyWildcard() throws {
        let list = try MediaRangeList(parsing: "*/*, text/html;q=0")
        #expect(try !list.accepts(mediaType("text/html")))
        #expect(try !list.accepts(mediaType("TEXT/HTML; charset=utf-8")))
        #expect(try list.quality(for: mediaType("text/html")) == 0)
        #expect(try list.accepts(mediaType("text/plain")))
        #expect(try list.accepts(mediaType("application/json")))

        let suffix = try MediaRangeList(parsing: "application/*+json;q=0, */*")
        #expect(try !suffix.accepts(mediaType("application/problem+json")))
        #expect(try suffix.accepts(mediaType("application/json")))

        // Order does not matter: the most specific range decides.
        let reversed = try MediaRangeList(parsing: "text/html;q=0, */*")
        #expect(try !reversed.accepts(mediaType("text/html")))
    }

    @Test func moreSpecificPositiveRangeOverridesZeroWildcard() throws {
        let list = try MediaRangeList(parsing: "text/*;q=0, text/plain")
        #expect(try list.accepts(mediaType("text/plain")))
        #expect(try !list.accepts(mediaType("text/csv")))
    }

    @Test func noMatchingRangeMeansZero() throws {
        #expect(try MediaRangeList().quality(for: mediaType("text/plain")) == 0)
        #expect(try !MediaRangeList(parsing: "text/html").accepts(mediaType("text/plain")))
    }

    @Test func rangeParametersMatch() throws {
        let list = try MediaRangeList(parsing: "text/plain;charset=utf-8;q=0.5, text/plain;q=0.1")
        #expect(try list.quality(for: mediaType("text/plain; charset=UTF-8")) == 0.5)
        #expect(try list.quality(for: mediaType("text/plain; charset=latin1")) == 0.1)
        #expect(try list.quality(for: mediaType("text/plain")) == 0.1)
    }

    @Test(arguments: [
        ("1", 1.0), ("1.", 1.0), ("1.0", 1.0), ("1.000", 1.0),
        ("0", 0.0), ("0.", 0.0), ("0.000", 0.0),
        ("0.5", 0.5), ("0.25", 0.25), ("0.001", 0.001), ("0.999", 0.999),
    ])
    func validWeights(weight: String, quality: Double) throws {
        let list = try MediaRangeList(parsing: "text/html;q=\(weight)")
        #expect(list.ranges.count == 1)
        #expect(list.ranges.first?.quality == quality)
        #expect(list.ranges.first?.mediaType.parameters.isEmpty == true)
    }

    @Test func weightParameterNameIsCaseInsensitive() throws {
        let list = try MediaRangeList(parsing: "text/html;Q=0.5")
        #expect(list.ranges.first?.quality == 0.5)
        #expect(list.ranges.first?.mediaType.parameters.isEmpty == true)
    }

    @Test(arguments: ["1.5", "0.1234", "abc", "1.001", "2", "-0.5", ".5", "0x1", "01", "1e0", "0.5a", "00.5", "1.0000"])
    func invalidWeights(weight: String) throws {
        let text = "text/html;q=\(weight)"
        let error = try #require(rangeListError(text), "q=\(weight) should be rejected")
        #expect(error.code == .invalidMediaType)
        #expect(error.offset == 12, "the offset points at the weight")
    }

    @Test func emptyWeightIsRejected() throws {
        let error = try #require(rangeListError("text/html;q="))
        #expect(error.code == .invalidMediaType)
        #expect(error.offset == 12)
        let second = try #require(rangeListError("text/plain, text/html;q=1.5"))
        #expect(second.offset == 24)
    }

    @Test func acceptExtensionsAfterWeightAreIgnored() throws {
        let list = try MediaRangeList(parsing: "text/html;level=1;q=0.5;foo=bar;baz=\"x,y\", text/plain")
        #expect(list.ranges.count == 2)
        let first = try #require(list.ranges.first)
        #expect(first.quality == 0.5)
        #expect(first.mediaType.parameters == [MediaType.Parameter(name: "level", value: "1")])
        #expect(list.description == "text/html;level=1;q=0.5, text/plain")
    }

    @Test func emptyElementsAndWhitespace() throws {
        let list = try MediaRangeList(parsing: " , ,text/html ,, application/json ; q=0.5 ,\t")
        #expect(list.ranges.map(\.mediaType.essence) == ["text/html", "application/json"])
        #expect(list.ranges.map(\.quality) == [1, 0.5])
        #expect(try MediaRangeList(parsing: "").ranges.isEmpty)
        #expect(try MediaRangeList(parsing: " , ").ranges.isEmpty)
        #expect(try MediaRangeList(parsing: "text/html;q=0.5;").ranges.first?.quality == 0.5)
    }

    @Test(arguments: [
        "text/html application/json",
        "text/html;q=0.5 x",
        "text",
        "text/html, /json",
        "text/html; charset",
        "text/html;q=0.5 ;q",
    ])
    func malformedLists(text: String) throws {
        let error = try #require(rangeListError(text), "\(text) should be rejected")
        #expect(error.code == .invalidMediaType)
        #expect(error.offset != nil)
    }

    @Test func descriptionRendersWeights() throws {
        let list = try MediaRangeList([
            .init(.json),
            .init(mediaType("application/xml"), quality: 0.9),
            .init(.any, quality: 0.25),
            .init(mediaType("text/html; level=1"), quality: 0),
            .init(mediaType("text/plain"), quality: 0.001),
        ])
        #expect(
            list.description
                == "application/json, application/xml;q=0.9, */*;q=0.25, text/html;level=1;q=0, text/plain;q=0.001")
        #expect(try MediaRangeList(parsing: list.description) == list)
    }

    @Test func descriptionKeepsWeightsInRange() throws {
        // A tiny positive weight must not render as q=0 (which would mean "not acceptable"),
        // and out-of-range weights must still render a valid qvalue.
        let list = MediaRangeList([
            .init(.json, quality: 0.0001),
            .init(.plainText, quality: -1),
            .init(.octetStream, quality: -.infinity),
        ])
        #expect(list.description == "application/json;q=0.001, text/plain;q=0, application/octet-stream;q=0")
        let reparsed = try MediaRangeList(parsing: list.description)
        #expect(reparsed.accepts(.json))
    }

    @Test func acceptingInitializer() throws {
        let list = MediaRangeList(accepting: [.json, .plainText])
        #expect(list.ranges.map(\.quality) == [1, 1])
        #expect(list.description == "application/json, text/plain")
        #expect(list.accepts(.json))
        #expect(try !list.accepts(mediaType("text/html")))
    }
}
