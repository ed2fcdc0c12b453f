// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// JSON text straight to `Decodable` models: Satchel's `JSONReader.read(_:from:)` against
/// Foundation's `JSONDecoder`, for the files that have a model.
struct JSONDecodeBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// Guards, then times each modelled file.
    func run() throws -> [ComparisonTable] {
        var table = ComparisonTable(
            title: "JSON parse to Decodable models: Satchel vs Foundation",
            satchelCall: "JSONReader().read(Model.self, from: bytes)", peerName: "JSONDecoder",
            peerCall: "JSONDecoder().decode(Model.self, from: data)", sizeNote: "the JSON file", target: 1.5)
        table.rows.append(try measure(TwitterSearch.self, file: corpus.json("twitter")))
        table.rows.append(try measure(CitmCatalog.self, file: corpus.json("ctm")))
        table.rows.append(try measure(CanadaGeometry.self, file: corpus.json("canada")))
        return [table]
    }

    private func measure<Model: Codable & Equatable>(_ type: Model.Type, file: Corpus.File) throws -> Comparison {
        _ = try Self.verifiedModel(type, file: file)
        Progress.note("decode \(file.name) as \(Model.self)")
        let bytes = file.bytes
        let data = file.data
        let samples = try sampler.measure([
            { try JSONReader().read(Model.self, from: bytes) },
            { try JSONDecoder().decode(Model.self, from: data) },
        ])
        return Comparison(input: file.name, bytes: bytes.count, satchel: samples[0], peer: samples[1])
    }

    /// Decodes `file` as `Model` with both decoders and fails unless both succeed, agree, and
    /// the model covers every member of the file. Returns the model.
    static func verifiedModel<Model: Codable & Equatable>(_ type: Model.Type, file: Corpus.File) throws -> Model {
        let satchelResult = Result { try JSONReader().read(Model.self, from: file.bytes) }
        let foundationResult = Result { try JSONDecoder().decode(Model.self, from: file.data) }
        var failures: [String] = []
        if case .failure(let error) = satchelResult {
            failures.append("Satchel cannot decode \(file.name) as \(Model.self): \(error)")
        }
        if case .failure(let error) = foundationResult {
            failures.append("JSONDecoder cannot decode \(file.name) as \(Model.self): \(error)")
        }
        guard case .success(let satchelModel) = satchelResult, case .success(let foundationModel) = foundationResult
        else {
            throw BenchmarkFailure.guardFailed(failures.joined(separator: "; "))
        }
        guard satchelModel == foundationModel else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): Satchel and JSONDecoder decode different \(Model.self) values")
        }
        let missing = ModelCoverage.missingPaths(
            document: try JSONReader().read(file.bytes), encodedModel: try ValueEncoder().encode(satchelModel))
        guard missing.isEmpty else {
            throw BenchmarkFailure.guardFailed(
                "\(Model.self) does not cover \(file.name); missing: \(missing.prefix(10).joined(separator: ", "))")
        }
        return satchelModel
    }
}
