// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// Huge single documents read as record streams (issue 40): the elements of a JSON array at a
/// pointer, fed in 256 KiB chunks as a transport would, against the whole-document typed
/// decoders that hold the body and the model array; and the peak memory of a 1 GiB document
/// read that way, in a process of its own (``DocumentStreamContender``).
///
/// The bodies are made in memory from `transport/small.json` (one element per record, each with
/// its own `id`), like the record-stream group's.
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
        return [whole, foundation]
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
