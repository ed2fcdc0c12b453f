// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Serializers
import Testing

/// The elements of the array at a JSON Pointer, read from a document fed whole, byte by byte
/// and split at every position.
@Suite struct JSONElementReaderTests {
    struct Read {
        var records: [Value]
        var rest: Value?
        var error: SatchelError?
    }

    /// The records, rest and error of `text` fed in the chunks `splits` cut it into.
    static func read(
        _ text: [UInt8], _ pointer: String, options: JSONReadingOptions, limits: Limits, splits: [Int]
    ) throws -> Read {
        let reader = JSONElementReader(pointer: try JSONPointer(pointer), options: options, limits: limits)
        var read = Read(records: [])
        var start = 0
        do {
            for end in splits + [text.count] where end >= start {
                try reader.feed(Array(text[start..<end])) { read.records.append($0) }
                start = end
            }
            try reader.finish { read.records.append($0) }
            read.rest = reader.rest
            #expect(reader.recordCount == read.records.count)
        } catch {
            read.error = error
        }
        return read
    }

    /// `text` read whole; every split into two chunks and byte-by-byte feeding must agree on the
    /// records, the rest and the error's code and offset.
    func elements(
        _ text: String, at pointer: String = "", options: JSONReadingOptions = JSONReadingOptions(),
        limits: Limits = .default, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Read {
        let bytes = Array(text.utf8)
        let whole = try Self.read(bytes, pointer, options: options, limits: limits, splits: [])
        var ways: [[Int]] = (0...bytes.count).map { [$0] }
        ways.append(Array(0...bytes.count))
        for splits in ways {
            let split = try Self.read(bytes, pointer, options: options, limits: limits, splits: splits)
            let way = splits.count == 1 ? "split at \(splits[0])" : "byte by byte"
            #expect(split.records == whole.records, "\(way)", sourceLocation: sourceLocation)
            #expect(split.rest == whole.rest, "\(way)", sourceLocation: sourceLocation)
            #expect(split.error?.code == whole.error?.code, "\(way)", sourceLocation: sourceLocation)
            #expect(split.error?.offset == whole.error?.offset, "\(way)", sourceLocation: sourceLocation)
        }
        return whole
    }

    @Test func aTopLevelArrayGivesItsElementsOfAnyKind() throws {
        let read = try elements(
            " \u{FEFF}[ {\"a\":[1,{\"b\":\"]}\\\"[\"}]}, 2 ,\"x,]\\\"\" ,null,[3,[]],true,-1.5e3,{} ]\n")
        #expect(read.error?.code == .syntaxError)  // a BOM after a space is not a BOM
        let clean = try elements(
            "\u{FEFF}[ {\"a\":[1,{\"b\":\"]}\\\"[\"}]}, 2 ,\"x,]\\\"\" ,null,[3,[]],true,-1.5e3,{} ]\n")
        #expect(clean.error == nil)
        #expect(
            clean.records == [["a": [1, ["b": "]}\"["]]], 2, "x,]\"", .null, [3, []], true, -1500.0, [:]])
        #expect(clean.rest == [])
        #expect(try elements("[]").records.isEmpty)
        #expect(try elements("[]").rest == [])
    }

    @Test func anArrayInsideAnEnvelopeLeavesTheRestOfTheDocument() throws {
        let text = """
            {"meta":{"items":[9],"deep":[[{"items":[8]}]]},"data":{"total":2,"items":[{"id":1},{"id":2}],"more":[7]},"next":"c2"}
            """
        let read = try elements(text, at: "/data/items")
        #expect(read.error == nil)
        #expect(read.records == [["id": 1], ["id": 2]])
        #expect(
            read.rest == [
                "meta": ["items": [9], "deep": [[["items": [8]]]]], "data": ["total": 2, "items": [], "more": [7]],
                "next": "c2",
            ])
        // Escaped member names, `~1` and `~0` in the pointer, indices on the way.
        let escaped = try elements(#"{"a/b":{"it\u0065ms":[1]},"m~n":[0,{"x":[2,3]}]}"#, at: "/a~1b/items")
        #expect(escaped.records == [1])
        #expect(try elements(#"{"a/b":{},"m~n":[0,{"x":[2,3]}]}"#, at: "/m~0n/1/x").records == [2, 3])
        #expect(try elements(#"{"m":[0,{"x":[2,3]}]}"#, at: "/m/01/x").error?.code == .valueNotFound)
    }

    @Test func aValueThatIsNotAnArrayIsAnErrorAsSoonAsItIsSeen() throws {
        let reader = JSONElementReader(pointer: try JSONPointer("/data/items"))
        var records: [Value] = []
        #expect(throws: SatchelError.self) {
            try reader.feed(Array(#"{"data":{"items":{"a":"#.utf8)) { records.append($0) }
        }
        let read = try elements(#"{"data":{"items":{"a":1}}}"#, at: "/data/items")
        #expect(read.error?.code == .typeMismatch && read.error?.offset == 17)
        #expect(read.error?.message == "/data/items is an object, not an array")
        #expect(try elements("\"text\"").error?.message == "the document is a string, not an array")
        #expect(try elements(#"{"data":[1]}"#, at: "/data/items").error?.code == .valueNotFound)
        #expect(try elements(#"{"data":[1]}"#, at: "/data/items").error?.message.contains("/data/items") == true)
    }

    @Test func aMalformedDocumentDeliversTheGoodElementsFirst() throws {
        let bad = try elements(#"{"items":[1,{"a":2},{"a":},4]}"#, at: "/items")
        #expect(bad.records == [1, ["a": 2]])
        #expect(bad.error?.code == .syntaxError)
        #expect(bad.error?.message.hasPrefix("/items/2: ") == true)
        #expect((20..<26).contains(bad.error?.offset ?? -1))
        let envelope = try elements(#"{"items":[1,2],"x":}"#, at: "/items")
        #expect(envelope.records == [1, 2] && envelope.error?.code == .syntaxError)
        #expect(envelope.error?.offset == 19)
        let trailingComma = try elements("[1,2,]")
        #expect(trailingComma.records == [1, 2] && trailingComma.error?.code == .syntaxError)
        #expect(try elements("[1 2]").error?.code == .syntaxError)
        #expect(try elements("[1,2]]").error?.code == .syntaxError)
        #expect(try elements("[1,2] 3").records == [1, 2])
        #expect(try elements("[1,2] 3").error?.code == .syntaxError)
        #expect(try elements("[1,{]}]").error?.code == .syntaxError)
        #expect(try elements("[1,[}]").error?.code == .syntaxError)
        #expect(try elements("[01]").error?.code == .syntaxError)
        #expect(try elements("[\"\u{1}\"]").error?.code == .syntaxError)
        let cut = try elements(#"[1,2,{"a":"#)
        #expect(cut.records == [1, 2] && cut.error?.code == .truncatedInput)
        #expect(try elements(#"{"items":[1,2]"#, at: "/items").error?.code == .truncatedInput)
        #expect(try elements("").error?.code == .truncatedInput)
        #expect(try elements("[1,2,").error?.code == .truncatedInput)
    }

    @Test func limitsBoundEachElementTheRestAndTheCount() throws {
        var limits = Limits()
        limits.maxRecordBytes = 12
        let long = try elements("[[1],[1,2,3,4,5,6,7,8]]", limits: limits)
        #expect(long.records == [[1]] && long.error?.limit == "maxRecordBytes")
        #expect(long.error?.offset == 5)
        let wideOutside = try elements(#"{"other":"0123456789abcdef","items":[]}"#, at: "/items", limits: limits)
        #expect(wideOutside.error?.limit == "maxRecordBytes" && wideOutside.error?.offset == 12)
        limits = Limits()
        limits.maxDepth = 3
        // Depth counts inside each element.
        #expect(try elements("[[[[1]]]]", limits: limits).records == [[[[1]]]])
        #expect(try elements("[[[[[1]]]]]", limits: limits).error?.limit == "maxDepth")
        let deepOutside = try elements(#"{"x":[[[[1]]]],"items":[1]}"#, at: "/items", limits: limits)
        #expect(deepOutside.error?.limit == "maxDepth")
        // A member name on the way to the array is read whole, and bounded as a string.
        limits = Limits()
        limits.maxStringBytes = 8
        let longName = try elements(#"{"0123456789":[1],"items":[2]}"#, at: "/items", limits: limits)
        #expect(longName.records.isEmpty && longName.error?.limit == "maxStringBytes")
        limits = Limits()
        limits.maxRecords = 2
        let many = try elements("[1,2,3]", limits: limits)
        #expect(many.records == [1, 2] && many.error?.limit == "maxRecords")
    }

    @Test func optionsApplyToEachElement() throws {
        var options = JSONReadingOptions()
        options.allowsTopLevelScalars = false
        #expect(try elements("[1,\"a\"]", options: options).records == [1, "a"])
        options = JSONReadingOptions()
        options.removesKeysWithNullValues = true
        let nulls = try elements(#"[{"a":null,"b":1},null,2]"#, options: options)
        #expect(nulls.records.first == ["b": 1] && nulls.records.count == 3)
    }

    struct Order: Decodable, Equatable {
        var id: Int
        var name: String
    }

    @Test func elementsDecodeIntoModels() throws {
        let text = Array(#"{"data":{"items":[{"id":1,"name":"a"},{"id":2,"name":"b\"]"}]},"next":null}"#.utf8)
        for size in [1, 3, 7, text.count] {
            let reader = JSONElementReader(pointer: try JSONPointer("/data/items"))
            var orders: [Order] = []
            for start in stride(from: 0, to: text.count, by: size) {
                try reader.feed(Array(text[start..<min(start + size, text.count)]), as: Order.self) {
                    orders.append($0)
                }
            }
            try reader.finish(as: Order.self) { orders.append($0) }
            #expect(orders == [Order(id: 1, name: "a"), Order(id: 2, name: "b\"]")])
            #expect(reader.rest == ["data": ["items": []], "next": .null])
        }
        let reader = JSONElementReader(pointer: try JSONPointer(""))
        var orders: [Order] = []
        let error = #expect(throws: SatchelError.self) {
            try reader.feed(Array(#"[{"id":1,"name":"a"},{"id":"2","name":"b"}]"#.utf8), as: Order.self) {
                orders.append($0)
            }
        }
        #expect(orders == [Order(id: 1, name: "a")])
        #expect(error?.code == .typeMismatch && error?.message.hasPrefix("/1: ") == true)
        #expect(error?.keyPath == "$.id" && (27..<32).contains(error?.offset ?? -1))
    }

    /// Thousands of elements, more than a batch, in chunks of every size up to a few: the same
    /// elements the whole-document reader finds.
    @Test func manyElementsInAnyChunksMatchTheWholeDocument() throws {
        var text = #"{"page":3,"items":["#
        for index in 0..<3000 {
            text += index == 0 ? "" : ",\n "
            text += #"{"id":\#(index),"name":"item \#(index)","tags":["a","b\"c"],"price":\#(index).25}"#
        }
        text += #"],"next":"p4"}"#
        let bytes = Array(text.utf8)
        guard case let .object(whole) = try JSONReader().read(bytes), case let .array(expected)? = whole["items"] else {
            Issue.record("the document does not read")
            return
        }
        for size in [1, 97, 4096, 70_000, bytes.count] {
            let splits = Array(stride(from: size, to: bytes.count, by: size))
            let read = try Self.read(bytes, "/items", options: JSONReadingOptions(), limits: .default, splits: splits)
            #expect(read.error == nil)
            #expect(read.records == expected, "chunks of \(size)")
            #expect(read.rest == ["page": 3, "items": [], "next": "p4"])
        }
    }

    @Test func pointersParseAsRFC6901Says() throws {
        #expect(try JSONPointer("").tokens == [])
        #expect(try JSONPointer("/").tokens == [""])
        #expect(try JSONPointer("/a~1b/m~0n/0").tokens == ["a/b", "m~n", "0"])
        #expect(throws: SatchelError.self) { try JSONPointer("data") }
        #expect(throws: SatchelError.self) { try JSONPointer("/a~2") }
        #expect(throws: SatchelError.self) { try JSONPointer("/a~") }
    }
}
