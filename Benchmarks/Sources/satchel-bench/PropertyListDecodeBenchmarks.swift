// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// Property lists straight to a `Decodable` model: Satchel's `PropertyListReader.read(_:from:)`
/// (binary: from the object table; XML: through its value) against Foundation's
/// `PropertyListDecoder`.
struct PropertyListDecodeBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// Guards, then times both formats.
    func run() throws -> [ComparisonTable] {
        var encode = ComparisonTable(
            title: "Encodable model to plist: Satchel vs Foundation",
            satchelCall: "PropertyListWriter(format: f).write(model: catalog)", peerName: "PropertyListEncoder",
            peerCall: "PropertyListEncoder() with outputFormat f, encode(catalog)", sizeNote: "Satchel's output",
            target: 3)
        var table = ComparisonTable(
            title: "Plist parse to Decodable models: Satchel vs Foundation",
            satchelCall: "PropertyListReader().read(PlistCatalog.self, from: bytes)", peerName: "PropertyListDecoder",
            peerCall: "PropertyListDecoder().decode(PlistCatalog.self, from: data)", sizeNote: "the input", target: 3)
        for name in ["catalog.plist", "catalog.bplist"] {
            let file = try PropertyListBenchmarks.read(corpus, name)
            let bytes = file.bytes
            let data = file.data
            let satchel = try PropertyListReader().read(PlistCatalog.self, from: bytes)
            let foundation = try PropertyListDecoder().decode(PlistCatalog.self, from: data)
            guard satchel == foundation, satchel.records.count == 1200 else {
                throw BenchmarkFailure.guardFailed("\(name): Satchel and PropertyListDecoder decode different catalogs")
            }
            Progress.note("decode \(name) as PlistCatalog")
            let samples = try sampler.measure([
                { try PropertyListReader().read(PlistCatalog.self, from: bytes) },
                { try PropertyListDecoder().decode(PlistCatalog.self, from: data) },
            ])
            table.rows.append(Comparison(input: name, bytes: bytes.count, satchel: samples[0], peer: samples[1]))

            let format: PropertyListFormat = name.hasSuffix(".bplist") ? .binary : .xml
            let writer = PropertyListWriter(format: format)
            let encoder = PropertyListEncoder()
            encoder.outputFormat = format == .binary ? .binary : .xml
            let written = try writer.write(model: satchel)
            guard try PropertyListDecoder().decode(PlistCatalog.self, from: Data(written)) == satchel,
                try PropertyListReader().read(PlistCatalog.self, from: Array(try encoder.encode(satchel))) == satchel
            else {
                throw BenchmarkFailure.guardFailed("\(name): an encoded catalog does not read back")
            }
            Progress.note("encode PlistCatalog as \(format)")
            let encodeSamples = try sampler.measure([
                { try writer.write(model: satchel) },
                { try encoder.encode(satchel) },
            ])
            encode.rows.append(
                Comparison(input: name, bytes: written.count, satchel: encodeSamples[0], peer: encodeSamples[1]))
        }
        return [table, encode]
    }
}
