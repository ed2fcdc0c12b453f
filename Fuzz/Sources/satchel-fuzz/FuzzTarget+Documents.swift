// SPDX-License-Identifier: Apache-2.0
import Satchel

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

extension FuzzTarget {
    /// The XML document serializer on the whole body and through its push decoder fed in chunks
    /// (the two must agree), then XPath over the document.
    static let xmlDocument = FuzzTarget(
        name: "xml-document", summary: "XMLDocumentResponseSerializer whole and chunked, XPath"
    ) { input in
        let serializer = XMLDocumentResponseSerializer()
        let value = decodeBothWays(
            "xml-document", serializer, input, contentType: xmlContentType(input), sameCode: false)
        guard case .payload(let payload)? = value, let document = payload as? XMLDocumentPayload else { return }
        _ = document.rootElementName
        _ = document.canonicalValue
        _ = FuzzCheck.outcome("XMLDocumentPayload.nodes") { try document.nodes(xpath: "//*[@*]|//text()") }
        _ = FuzzCheck.outcome("XMLDocumentPayload.string") { try document.string(xpath: "string(/*)") }
    }

    /// The XML event (SAX) serializer on the whole body and fed in chunks; the two must agree.
    static let xmlEvents = FuzzTarget(name: "xml-events", summary: "XMLEventResponseSerializer whole and chunked") {
        input in
        _ = decodeBothWays(
            "xml-events", XMLEventResponseSerializer(), input, contentType: xmlContentType(input), sameCode: false)
    }

    /// `application/xml`, with a charset parameter for some inputs so the declared-encoding
    /// paths run too.
    private static func xmlContentType(_ input: FuzzInput) -> MediaType {
        let charsets = [nil, "utf-8", "iso-8859-1", "utf-16"]
        let xml = MediaType(type: "application", subtype: "xml")
        guard let charset = charsets[Int(input.hash >> 60) % charsets.count] else { return xml }
        return xml.setting(parameter: "charset", to: charset)
    }

    /// Property lists through `PropertyListReader` (the format is sniffed, so both targets reach
    /// both readers; they differ in their seeds); a value read must be written by
    /// `PropertyListWriter` in either format and read back to itself, and a model of it written
    /// by `write(model:)` must be the bytes its `Value` tree gives.
    static let plistXML = FuzzTarget(
        name: "plist-xml",
        summary:
            "PropertyListReader (XML seeds), typed vs Value, round trips through both writers, models written as their trees"
    ) { input in
        propertyListRoundTrip(input)
    }

    /// As ``plistXML``, seeded with binary property lists.
    static let plistBinary = FuzzTarget(
        name: "plist-binary",
        summary:
            "PropertyListReader (binary seeds), typed vs Value, round trips through both writers, models written as their trees"
    ) { input in
        propertyListRoundTrip(input)
    }

    private static func propertyListRoundTrip(_ input: FuzzInput) {
        let reader = PropertyListReader(limits: FuzzLimits.tight)
        guard case .success(let value) = FuzzCheck.outcome("PropertyListReader.read", { try reader.read(input.bytes) }),
            let value
        else { return }
        // Typed decoding (binary: from the object table, with fast scalar reads) gives what the
        // Value path gives.
        if case .success(let throughValue) = FuzzCheck.outcome(
            "ValueDecoder.decode(FuzzJSONNode)", { try ValueDecoder().decode(FuzzJSONNode.self, from: value) })
        {
            switch FuzzCheck.outcome(
                "PropertyListReader.read(FuzzJSONNode)",
                {
                    try reader.read(FuzzJSONNode.self, from: input.bytes)
                })
            {
            case .success(let typed) where typed.same(as: throughValue): break
            case .failure(let error) where error.code == .limitExceeded: break  // typed reads count every use
            case let other: FuzzCheck.fail("plist typed: \(throughValue) from the Value path, \(other) typed")
            }
            modelPathWritesTheTreePathsBytes(throughValue)
        }
        for format in PropertyListFormat.allCases {
            let writer = PropertyListWriter(format: format, maxDepth: FuzzLimits.tight.maxDepth + 1)
            // A value the writer refuses (a UID in XML, say) is a documented limit, not a bug;
            // any other error type still traps inside `outcome`.
            guard
                case .success(let bytes) = FuzzCheck.outcome(
                    "PropertyListWriter.write(\(format))", { try writer.write(value) })
            else { continue }
            // XML has no UID type (the writer spells one as CoreFoundation's CF$UID dictionary)
            // and its dates are whole seconds (rounded down), as documented.
            let expected = format == .xml ? asWrittenInXML(value) : value
            switch FuzzCheck.outcome("PropertyListReader.read(written \(format))", { try reader.read(bytes) }) {
            case .success(let again?) where FuzzCheck.same(expected, again):
                break
            case let other:
                FuzzCheck.fail("plist round trip (\(format)): \(value) reads back as \(other)")
            }
        }
    }

    /// `write(model:)` streams a model into the format's output; it must write exactly what the
    /// tree path (``ValueEncoder``, then `write(_:)`) writes, or fail with the same code.
    private static func modelPathWritesTheTreePathsBytes(_ node: FuzzJSONNode) {
        for format in PropertyListFormat.allCases {
            let writer = PropertyListWriter(format: format, maxDepth: FuzzLimits.tight.maxDepth + 1)
            let streamed = FuzzCheck.outcome("PropertyListWriter.write(model:) (\(format))") {
                try writer.write(model: node)
            }
            let throughTree = FuzzCheck.outcome("PropertyListWriter.write(ValueEncoder) (\(format))") {
                try writer.write(ValueEncoder().encode(node))
            }
            switch (streamed, throughTree) {
            case (.success(let a), .success(let b)) where a == b: break
            case (.failure(let a), .failure(let b)) where a.code == b.code: break
            default:
                FuzzCheck.fail("plist model path (\(format)): \(streamed) streamed, \(throughTree) through the tree")
            }
        }
    }

    /// `value` as an XML property list holds it: every ``PropertyListUID`` replaced by
    /// `{"CF$UID": n}`, every date rounded down to whole seconds.
    private static func asWrittenInXML(_ value: Value) -> Value {
        switch value {
        case .payload(let payload as PropertyListUID):
            return .object(["CF$UID": Value(payload.value)])
        case .date(let date):
            return .date(Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down)))
        case .array(let elements):
            return .array(elements.map(asWrittenInXML))
        case .object(let members):
            return .object(members.mapValues(asWrittenInXML))
        default:
            return value
        }
    }

    /// Decodes `input` with `serializer` whole, and again through its incremental decoder fed
    /// in chunks; traps unless the outcomes agree (error codes too, when `sameCode`). Returns the
    /// whole decode's value.
    static func decodeBothWays(
        _ what: String, _ serializer: some ResponseSerializer, _ input: FuzzInput, contentType: MediaType?,
        body: [UInt8]? = nil, sameCode: Bool = true
    ) -> Value? {
        let body = body ?? input.bytes
        let limits = FuzzLimits.tight
        let whole = FuzzCheck.outcome("\(what) decode") {
            try serializer.decode(body, contentType: contentType, limits: limits)
        }
        guard let decoder = serializer.makeIncrementalReader(contentType: contentType, limits: limits) else {
            return try? whole.get()
        }
        let chunked = FuzzCheck.outcome("\(what) incremental decode") { () throws -> Value? in
            for chunk in input.chunks(of: body) {
                try chunk.withUnsafeBytes { try decoder.feed($0) }
            }
            return try decoder.finish()
        }
        FuzzCheck.agree(what, whole: whole, chunked: chunked, sameCode: sameCode, same: FuzzCheck.same)
        return try? whole.get()
    }
}
