// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// What a JSON API returns most of the time: small documents of many small objects (1 KB,
/// 10 KB, 100 KB, and the 820 objects of the page `scripts/measure-cache` serves, 94 KB without
/// the spaces Python's `json.dumps` puts after `,` and `:`), read
/// into a ``Value`` against `JSONSerialization` and into models against `JSONDecoder`. The
/// documents are made in memory, `{"records":[{"id":…,"name":…,"active":…,"score":…,"tags":[…],
/// "owner":{…}}, …]}`, about 130 bytes per object.
struct JSONSmallDocumentBenchmarks {
    /// The timer.
    let sampler: Sampler

    struct Page: Codable, Equatable {
        struct Record: Codable, Equatable {
            struct Owner: Codable, Equatable {
                var login: String
                var id: Int
            }

            var id: Int
            var name: String
            var active: Bool
            var score: Double
            var tags: [String]
            var owner: Owner
        }

        var records: [Record]
    }

    /// The documents: a name and the text.
    static let documents: [(name: String, bytes: [UInt8])] = [
        ("1 KB", page(bytes: 1_000)), ("10 KB", page(bytes: 10_000)), ("100 KB", page(bytes: 100_000)),
        ("94 KB", page(records: 820)),
    ]

    /// A page of records until it holds `records` of them or reaches about `bytes`.
    static func page(records: Int = .max, bytes: Int = .max) -> [UInt8] {
        var text = #"{"records":["#
        var index = 0
        while index < records && text.utf8.count < bytes - 140 {
            if index > 0 { text += "," }
            let score = Double(index) * 0.5
            text +=
                #"{"id":\#(index),"name":"item \#(index)","active":\#(index % 2 == 0),"score":\#(score),"#
                + #""tags":["a","b","c"],"owner":{"login":"user\#(index)","id":\#(index)}}"#
            index += 1
        }
        return Array((text + "]}").utf8)
    }

    func run() throws -> [ComparisonTable] {
        var values = ComparisonTable(
            title: "Small JSON documents to a tree: Satchel vs Foundation",
            satchelCall: "JSONReader().read(bytes)", peerName: "JSONSerialization",
            peerCall: "JSONSerialization.jsonObject(with: data)", sizeNote: "the document", target: 1.5)
        var models = ComparisonTable(
            title: "Small JSON documents to Decodable models: Satchel vs Foundation",
            satchelCall: "JSONReader().read(Page.self, from: bytes)", peerName: "JSONDecoder",
            peerCall: "JSONDecoder().decode(Page.self, from: data)", sizeNote: "the document", target: 1.5)
        for (name, bytes) in Self.documents {
            let data = Data(bytes)
            let ours = try JSONReader().read(Page.self, from: bytes)
            let theirs = try JSONDecoder().decode(Page.self, from: data)
            let value = try JSONReader().read(bytes)
            guard ours == theirs, ours.records.count > 1,
                TreeShape(value) == TreeShape(foundation: try JSONSerialization.jsonObject(with: data))
            else { throw BenchmarkFailure.guardFailed("small JSON \(name): the readers disagree") }
            let input = "\(name), \(ours.records.count) objects"
            Progress.note("small JSON \(input)")
            let samples = try sampler.measure([
                { try JSONReader().read(bytes) },
                { try JSONSerialization.jsonObject(with: data) },
                { try JSONReader().read(Page.self, from: bytes) },
                { try JSONDecoder().decode(Page.self, from: data) },
            ])
            values.rows.append(Comparison(input: input, bytes: bytes.count, satchel: samples[0], peer: samples[1]))
            models.rows.append(Comparison(input: input, bytes: bytes.count, satchel: samples[2], peer: samples[3]))
        }
        return [values, models]
    }
}
