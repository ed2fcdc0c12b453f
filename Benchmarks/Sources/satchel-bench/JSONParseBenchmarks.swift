// SPDX-License-Identifier: Apache-2.0
import CJSONCBaseline
import Foundation
import Satchel

/// JSON text to a tree: Satchel's `JSONReader` against Foundation's `JSONSerialization` and
/// against json-c alone (the library Satchel's reader builds on, without Satchel's strict
/// validator and without converting json-c's tree into a ``Value``).
struct JSONParseBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// Guards, then times every JSON file; returns the table against Foundation and the table
    /// against json-c.
    func run() throws -> [ComparisonTable] {
        var foundation = ComparisonTable(
            title: "JSON parse to a tree: Satchel vs Foundation",
            satchelCall: "JSONReader().read(bytes)", peerName: "JSONSerialization",
            peerCall: "JSONSerialization.jsonObject(with: data)", sizeNote: "the JSON file", target: 1.5)
        var jsonc = ComparisonTable(
            title: "JSON parse to a tree: Satchel vs raw json-c",
            satchelCall: "JSONReader().read(bytes)", peerName: "json-c",
            peerCall: "satchel_bench_jsonc_parse (json_tokener_parse_ex, strict, then json_object_put)",
            sizeNote: "the JSON file", target: 0.8)
        for name in Corpus.jsonNames {
            let file = try corpus.json(name)
            try check(file)
            Progress.note("parse \(file.name)")
            let bytes = file.bytes
            let data = file.data
            let samples = try sampler.measure([
                { try JSONReader().read(bytes) },
                { try JSONSerialization.jsonObject(with: data) },
                { Self.jsoncParse(bytes) },
            ])
            foundation.rows.append(
                Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[1]))
            jsonc.rows.append(Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[2]))
        }
        return [foundation, jsonc]
    }

    /// Fails unless all three read `file` successfully and Satchel's tree has the same shape as
    /// Foundation's.
    private func check(_ file: Corpus.File) throws {
        let value: Value
        do {
            value = try JSONReader().read(file.bytes)
        } catch {
            throw BenchmarkFailure.guardFailed("Satchel's JSONReader cannot read \(file.name): \(error)")
        }
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: file.data)
        } catch {
            throw BenchmarkFailure.guardFailed("JSONSerialization cannot read \(file.name): \(error)")
        }
        let satchelShape = TreeShape(value)
        let foundationShape = TreeShape(foundation: object)
        guard satchelShape == foundationShape else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): Satchel read \(satchelShape), Foundation read \(foundationShape)")
        }
        let status = Self.jsoncParse(file.bytes)
        guard status == 0 else {
            throw BenchmarkFailure.guardFailed("json-c rejects \(file.name) (status \(status))")
        }
    }

    /// json-c's strict parse of `bytes`; 0 on success.
    static func jsoncParse(_ bytes: [UInt8]) -> Int32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { characters in
                satchel_bench_jsonc_parse(characters.baseAddress, characters.count)
            }
        }
    }
}
