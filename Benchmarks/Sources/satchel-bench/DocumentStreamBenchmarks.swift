// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import XMLCoder

/// Huge single documents read as record streams (issue 40): the elements of a JSON array at a
/// pointer and the entries of an Atom feed, fed in 256 KiB chunks as a transport would, against
/// the whole-document typed decoders that hold the body and the model array; and the peak
/// memory of a 1 GiB document read that way, in a process of its own
/// (``DocumentStreamContender``).
///
/// The bodies are made in memory, like the record-stream group's: the JSON from
/// `transport/small.json` (one element per record, each with its own `id`), the feed from
/// ``AtomEntry/text(_:)``.
struct DocumentStreamBenchmarks {
    let corpus: Corpus
    let sampler: Sampler
    let options: BenchmarkOptions

    static let chunkSize = 256 * 1024

    /// The envelope the JSON documents come in, as a paged API sends it.
    struct Page: Decodable {
        struct Contents: Decodable {
            var items: [APIRecord]
        }

        var data: Contents
        var next: String
    }

    func run() throws -> [ComparisonTable] {
        let record = try corpus.file("transport/small.json").bytes
        let page = Self.jsonPage(from: record, bytes: options.quick ? 4_000_000 : 100_000_000)
        try check(page)
        Progress.note("documents: JSON elements into models")
        let json = try sampler.measure([
            { try Self.satchelElements(page) },
            { try Self.satchelWhole(page) },
            { try Self.foundationWhole(page) },
        ])
        let size = "the document"
        var whole = ComparisonTable(
            title: "JSON array elements into models: Satchel's element reader vs its whole-document decoder",
            satchelCall:
                "JSONElementReader(pointer: \"/data/items\").feed(chunk, as: APIRecord.self) { … } per 256 KiB chunk",
            peerName: "whole document",
            peerCall: "JSONModelDecoder().decode(Page.self, from: body) (the body and [APIRecord] held)", sizeNote: size
        )
        whole.target = 0.9
        whole.rows.append(Comparison(input: "page.json", bytes: page.count, satchel: json[0], peer: json[1]))
        var foundation = ComparisonTable(
            title: "JSON array elements into models: Satchel's element reader vs JSONDecoder",
            satchelCall:
                "JSONElementReader(pointer: \"/data/items\").feed(chunk, as: APIRecord.self) { … } per 256 KiB chunk",
            peerName: "JSONDecoder",
            peerCall: "JSONDecoder().decode(Page.self, from: Data(body)) (the body and [APIRecord] held)",
            sizeNote: size)
        foundation.rows.append(Comparison(input: "page.json", bytes: page.count, satchel: json[0], peer: json[2]))
        return [whole, foundation] + (try atomTables())
    }

    /// Atom entries into models against XMLCoder (the target: 2× per byte) and Satchel's own
    /// whole-document model decoder, on a feed XMLCoder can hold: under 10 MB. Foundation's
    /// `XMLParser` hands libxml2 the whole document in one `xmlParseChunk` call, which libxml2
    /// refuses past `XML_MAX_LOOKUP_LIMIT` (10 000 000 bytes) without `XML_PARSE_HUGE`
    /// ("Huge input lookup", NSXMLParserErrorDomain 1): a 50 MB feed fails in XMLCoder.
    private func atomTables() throws -> [ComparisonTable] {
        let feed = Self.atomFeed(bytes: options.quick ? 2_000_000 : 9_500_000)
        let streamed = try Self.satchelEntries(feed, keeping: true)
        let peer = try XMLCoder.XMLDecoder().decode(AtomFeed.self, from: Data(feed))
        guard streamed == peer.entry, try XMLModelDecoder().decode(AtomFeed.self, from: feed) == peer,
            streamed.count > 1000
        else { throw BenchmarkFailure.guardFailed("the XML element reader and the whole-document decoders disagree") }
        Progress.note("documents: Atom entries into models")
        let xml = try sampler.measure([
            { try Self.satchelEntries(feed, keeping: false).count },
            { try XMLCoder.XMLDecoder().decode(AtomFeed.self, from: Data(feed)).entry.count },
            { try XMLModelDecoder().decode(AtomFeed.self, from: feed).entry.count },
        ])
        let call = "XMLElementReader(path: \"/feed/entry\").feed(chunk, as: AtomEntry.self) { … } per 256 KiB chunk"
        var coder = ComparisonTable(
            title: "Atom feed entries into models: Satchel's element reader vs XMLCoder", satchelCall: call,
            peerName: "XMLCoder 0.18.2",
            peerCall: "XMLCoder.XMLDecoder().decode(AtomFeed.self, from: data) (the body and [AtomEntry] held)",
            sizeNote: "the feed")
        coder.target = 2
        coder.rows.append(Comparison(input: "feed.atom", bytes: feed.count, satchel: xml[0], peer: xml[1]))
        var own = ComparisonTable(
            title: "Atom feed entries into models: Satchel's element reader vs its whole-document decoder",
            satchelCall: call, peerName: "whole document",
            peerCall: "XMLModelDecoder().decode(AtomFeed.self, from: bytes) (the body and [AtomEntry] held)",
            sizeNote: "the feed")
        own.rows.append(Comparison(input: "feed.atom", bytes: feed.count, satchel: xml[0], peer: xml[2]))
        return [coder, own]
    }

    /// An Atom feed of about `bytes`.
    static func atomFeed(bytes: Int) -> [UInt8] {
        var feed = Array(AtomEntry.feedHead.utf8)
        feed.reserveCapacity(bytes + 4096)
        var index = 0
        while feed.count < bytes {
            feed += Array(AtomEntry.text(index).utf8)
            index += 1
        }
        return feed + Array(AtomEntry.feedTail.utf8)
    }

    static func satchelEntries(_ feed: [UInt8], keeping: Bool) throws -> [AtomEntry] {
        let reader = try XMLElementReader(path: "/feed/entry")
        var entries: [AtomEntry] = []
        var start = 0
        while start < feed.count {
            let end = min(start + chunkSize, feed.count)
            try feed[start..<end].withUnsafeBytes { chunk in
                try reader.feed(chunk, as: AtomEntry.self) { if keeping { entries.append($0) } }
            }
            start = end
        }
        try reader.finish(as: AtomEntry.self) { if keeping { entries.append($0) } }
        return entries
    }

    // MARK: Inputs

    /// `{"data":{"items":[record,…]},"next":"…"}` of about `bytes`, each record with its own `id`.
    static func jsonPage(from record: [UInt8], bytes: Int) -> [UInt8] {
        var body = Array(#"{"data":{"items":["#.utf8)
        body.reserveCapacity(bytes + 4096)
        var index = 0
        forEachRecord(from: record) { text in
            if index > 0 { body.append(UInt8(ascii: ",")) }
            body += text
            index += 1
            return body.count < bytes
        }
        body += Array(#"]},"next":"cursor-2"}"#.utf8)
        return body
    }

    /// Hands `emit` `record` again and again with `"id":N` counting up, until it returns false.
    static func forEachRecord(from record: [UInt8], _ emit: ([UInt8]) -> Bool) {
        let text = String(decoding: record, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let idRange = text.range(of: "\"id\":4711") else { return }
        let head = Array(text[..<idRange.lowerBound].utf8) + Array("\"id\":".utf8)
        let tail = Array(text[idRange.upperBound...].utf8)
        var index = 0
        while emit(head + Array(String(index).utf8) + tail) { index += 1 }
    }

    /// Every contender reads the same records.
    private func check(_ page: [UInt8]) throws {
        var streamed: [APIRecord] = []
        let reader = JSONElementReader(pointer: try JSONPointer("/data/items"))
        try Self.feed(page) { chunk in try reader.feed(chunk, as: APIRecord.self) { streamed.append($0) } }
        try reader.finish(as: APIRecord.self) { streamed.append($0) }
        let whole = try JSONModelDecoder().decode(Page.self, from: page)
        let foundation = try JSONDecoder().decode(Page.self, from: Data(page))
        guard streamed == whole.data.items, streamed == foundation.data.items, reader.rest?["next"] == "cursor-2",
            streamed.count > 1000
        else { throw BenchmarkFailure.guardFailed("the element reader and the whole-document decoders disagree") }
    }

    // MARK: Contenders

    static func feed(_ body: [UInt8], _ take: ([UInt8]) throws -> Void) rethrows {
        var start = 0
        while start < body.count {
            let end = min(start + chunkSize, body.count)
            try take(Array(body[start..<end]))
            start = end
        }
    }

    static func satchelElements(_ body: [UInt8]) throws -> Int {
        let reader = JSONElementReader(pointer: try JSONPointer("/data/items"))
        var count = 0
        var start = 0
        while start < body.count {
            let end = min(start + chunkSize, body.count)
            try body[start..<end].withUnsafeBytes { chunk in
                try reader.feed(chunk, as: APIRecord.self) { record in count &+= record.id }
            }
            start = end
        }
        try reader.finish(as: APIRecord.self) { _ in }
        return count
    }

    static func satchelWhole(_ body: [UInt8]) throws -> Int {
        try JSONModelDecoder().decode(Page.self, from: body).data.items.reduce(0) { $0 &+ $1.id }
    }

    static func foundationWhole(_ body: [UInt8]) throws -> Int {
        try JSONDecoder().decode(Page.self, from: Data(body)).data.items.reduce(0) { $0 &+ $1.id }
    }
}
