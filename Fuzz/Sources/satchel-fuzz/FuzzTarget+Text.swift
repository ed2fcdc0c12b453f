// SPDX-License-Identifier: Apache-2.0
import Satchel

extension FuzzTarget {
    /// `FormReader` on bytes and on the same text as a `String`, with options picked by the
    /// input's hash; a decoded object re-encoded by `FormWriter` must decode to itself.
    static let form = FuzzTarget(name: "form", summary: "FormReader (bytes and String), write/read round trip") {
        input in
        let options = FormReader.Options(
            duplicateKeys: input.flag(0) ? .collectIntoArray : .lastWins,
            parsesNestedKeys: !input.flag(1), indexedKeysAsArrays: !input.flag(2))
        let reader = FormReader(options: options, limits: FuzzLimits.tight)
        let fromBytes = FuzzCheck.outcome("FormReader.read(bytes)") { try reader.read(input.bytes) }
        if let text = String(validating: input.bytes, as: UTF8.self) {
            let fromText = FuzzCheck.outcome("FormReader.read(String)") { try reader.read(text) }
            FuzzCheck.agree("form bytes vs String", whole: fromBytes, chunked: fromText, same: FuzzCheck.same)
        }
        // Round trip with the default options only: nested keys and indexed arrays are what the
        // encoder writes; `collectIntoArray` and flat keys read a different language.
        guard case .success(let value) = fromBytes, options == FormReader.Options() else { return }
        // Members in insertion order (not AFNetworking's sorted keys), so the objects compare.
        let writer = FormWriter(options: FormWriter.Options(sortsKeys: false))
        let encoded = FuzzCheck.outcome("FormWriter.write") { try writer.write(value) }
        guard case .success(let bytes) = encoded else { return }
        switch FuzzCheck.outcome("FormReader.read(re-encoded)", { try reader.read(bytes) }) {
        case .success(let again) where FuzzCheck.same(value, again):
            break
        case let other:
            FuzzCheck.fail(
                "form round trip: \(value) encoded as \(String(decoding: bytes, as: UTF8.self)) decodes to \(other)")
        }
    }

    /// `JSONReader` on the whole input and fed in chunks (the two must agree), `read(_:from:)`
    /// into a recursive `Decodable`, and the value written by `JSONWriter` read back to itself.
    static let json = FuzzTarget(
        name: "json", summary: "JSONReader whole and chunked, JSONModelDecoder, write/read round trip"
    ) { input in
        var options = JSONReadingOptions()
        options.bigIntegers = input.flag(0) ? .throw : .double
        options.removesKeysWithNullValues = input.flag(1)
        let reader = JSONReader(options: options, limits: FuzzLimits.tight)
        let whole = FuzzCheck.outcome("JSONReader.read") { try reader.read(input.bytes) }
        let chunked = FuzzCheck.outcome("JSONIncrementalReader") { () throws -> Value in
            let incremental = reader.makeIncrementalReader()
            for chunk in input.chunks(of: input.bytes) {
                try chunk.withUnsafeBytes { try incremental.feed($0) }
            }
            guard let value = try incremental.finish() else {
                FuzzCheck.fail("JSONIncrementalReader.finish gave no value")
            }
            return value
        }
        FuzzCheck.agree("json", whole: whole, chunked: chunked, same: FuzzCheck.same)
        let decoded = FuzzCheck.outcome("JSONReader.read(FuzzJSONNode)") {
            try reader.read(FuzzJSONNode.self, from: input.bytes)
        }
        if case .success = whole, case .failure(let error) = decoded, error.code != .numberOutOfRange {
            FuzzCheck.fail("json: the Value path reads the text but the Decodable path fails: \(error)")
        }
        // The typed path indexes the text with its own scanner: same verdict, same value.
        let typed = FuzzCheck.outcome("JSONModelDecoder.decode(Value)") {
            try JSONModelDecoder(options: options, limits: FuzzLimits.tight).decode(Value.self, from: input.bytes)
        }
        switch (whole, typed) {
        case (.success(let value), .success(let again)) where FuzzCheck.same(value, again): break
        case (.failure(let error), .failure(let again)) where error.code == again.code: break
        default: FuzzCheck.fail("json: JSONReader gives \(whole), JSONModelDecoder gives \(typed)")
        }
        guard case .success(let value) = whole else { return }
        var writing = JSONWriter.Options()
        writing.maxDepth = FuzzLimits.tight.maxDepth + 1
        let written = FuzzCheck.outcome("JSONWriter.write") { try JSONWriter(options: writing).write(value) }
        guard case .success(let text) = written else {
            FuzzCheck.fail("json: JSONWriter cannot write the value JSONReader read: \(written)")
        }
        switch FuzzCheck.outcome("JSONReader.read(written)", { try reader.read(text) }) {
        case .success(let again) where FuzzCheck.same(value, again):
            break
        case let other:
            FuzzCheck.fail(
                "json round trip: \(value) written as \(String(decoding: text, as: UTF8.self)) reads as \(other)")
        }
    }

    /// `MediaType`, `MediaRangeList` and `ContentRange` parsing of each line; what parses must
    /// re-parse from its description to an equal value. The first two lines also meet as a range
    /// list and a type for `quality(for:)`.
    static let mediaType = FuzzTarget(
        name: "media-type", summary: "MediaType, MediaRangeList, ContentRange parse/describe round trips"
    ) { input in
        let lines = String(decoding: input.bytes, as: UTF8.self).split(
            separator: "\n", omittingEmptySubsequences: false)
        var types: [MediaType] = []
        var lists: [MediaRangeList] = []
        for line in lines.prefix(8).map(String.init) {
            if case .success(let type) = FuzzCheck.outcome("MediaType(parsing:)", { try MediaType(parsing: line) }) {
                types.append(type)
                let again = FuzzCheck.outcome("MediaType(parsing: description)") {
                    try MediaType(parsing: type.description)
                }
                guard case .success(type) = again else {
                    FuzzCheck.fail(
                        "media type \(line.debugDescription) describes as \(type.description.debugDescription), which parses as \(again)"
                    )
                }
                _ = (type.suffix, type.charset, type.specificity, type.matches(type))
            }
            if case .success(let list) = FuzzCheck.outcome(
                "MediaRangeList(parsing:)", { try MediaRangeList(parsing: line) })
            {
                lists.append(list)
                let again = FuzzCheck.outcome("MediaRangeList(parsing: description)") {
                    try MediaRangeList(parsing: list.description)
                }
                guard case .success(list) = again else {
                    FuzzCheck.fail(
                        "media range list \(line.debugDescription) describes as \(list.description.debugDescription), which parses as \(again)"
                    )
                }
            }
            if case .success(let range) = FuzzCheck.outcome(
                "ContentRange(parsing:)", { try ContentRange(parsing: line) })
            {
                let again = FuzzCheck.outcome("ContentRange(parsing: description)") {
                    try ContentRange(parsing: range.description)
                }
                guard case .success(range) = again else {
                    FuzzCheck.fail(
                        "content range \(line.debugDescription) describes as \(range.description.debugDescription), which parses as \(again)"
                    )
                }
                _ = range.count
            }
        }
        for list in lists {
            for type in types {
                let quality = list.quality(for: type)
                if !(0...1).contains(quality) {
                    FuzzCheck.fail("quality \(quality) of \(type) in \(list) is outside 0...1")
                }
            }
        }
    }
}
