// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// Trees and models to JSON text: Satchel's `JSONWriter` against Foundation's
/// `JSONSerialization` (tree to text) and `JSONEncoder` (model to text).
struct JSONWriteBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// The encoding work for one modelled file, verified before it is timed.
    private struct ModelWork {
        /// `JSONEncoder().encode(model)`.
        let foundation: Sampler.Work
        /// `JSONModelEncoder().encode(model)`.
        let satchel: Sampler.Work
    }

    private static let sizeNote = "Satchel's compact output of the file's tree"

    /// Guards, then times every JSON file (and the models of the modelled ones).
    func run() throws -> [ComparisonTable] {
        var serialization = ComparisonTable(
            title: "JSON write from a tree: Satchel vs Foundation",
            satchelCall: "JSONWriter().write(value)", peerName: "JSONSerialization",
            peerCall: "JSONSerialization.data(withJSONObject: object)", sizeNote: Self.sizeNote, target: 10)
        var treeVersusEncoder = ComparisonTable(
            title: "JSON write: Satchel from its tree vs JSONEncoder from a Codable model",
            satchelCall: "JSONWriter().write(value)", peerName: "JSONEncoder",
            peerCall: "JSONEncoder().encode(model)", sizeNote: Self.sizeNote)
        var codable = ComparisonTable(
            title: "JSON encode a Codable model: Satchel vs Foundation",
            satchelCall: "JSONModelEncoder().encode(model)", peerName: "JSONEncoder",
            peerCall: "JSONEncoder().encode(model)", sizeNote: Self.sizeNote, target: 1.5)

        for name in Corpus.jsonNames {
            let file = try corpus.json(name)
            let value = try JSONReader().read(file.bytes)
            let object = try JSONSerialization.jsonObject(with: file.data)
            let outputSize = try checkTreeWriters(value: value, object: object, file: file)
            let modelWork: ModelWork? =
                switch name {
                case "twitter": try makeModelWork(TwitterSearch.self, file: file)
                case "ctm": try makeModelWork(CitmCatalog.self, file: file)
                case "canada": try makeModelWork(CanadaGeometry.self, file: file)
                default: nil
                }

            Progress.note("write \(file.name)")
            var contenders: [Sampler.Work] = [
                { try JSONWriter().write(value) },
                { try JSONSerialization.data(withJSONObject: object) },
            ]
            if let modelWork { contenders += [modelWork.foundation, modelWork.satchel] }
            let samples = try sampler.measure(contenders)
            serialization.rows.append(
                Comparison(input: file.name, bytes: outputSize, satchel: samples[0], peer: samples[1]))
            if modelWork != nil {
                treeVersusEncoder.rows.append(
                    Comparison(input: file.name, bytes: outputSize, satchel: samples[0], peer: samples[2]))
                codable.rows.append(
                    Comparison(input: file.name, bytes: outputSize, satchel: samples[3], peer: samples[2]))
            }
        }
        return [serialization, treeVersusEncoder, codable]
    }

    /// Fails unless both tree writers produce text that reads back as the tree they wrote.
    /// Returns the size of Satchel's output.
    private func checkTreeWriters(value: Value, object: Any, file: Corpus.File) throws -> Int {
        let satchelText = try JSONWriter().write(value)
        guard try JSONReader().read(satchelText) == value else {
            throw BenchmarkFailure.guardFailed("\(file.name): JSONWriter's output does not read back as the same Value")
        }
        let foundationText = try JSONSerialization.data(withJSONObject: object)
        let reread = try JSONSerialization.jsonObject(with: foundationText)
        guard TreeShape(foundation: reread) == TreeShape(foundation: object) else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): JSONSerialization's output does not read back as the same tree")
        }
        return satchelText.count
    }

    /// Verifies `Model` against `file`, checks that both encoders' output decodes back to the
    /// same model, and returns the work to time.
    private func makeModelWork<Model: Codable & Equatable>(_ type: Model.Type, file: Corpus.File) throws -> ModelWork {
        let model = try JSONDecodeBenchmarks.verifiedModel(type, file: file)
        let foundationText = try JSONEncoder().encode(model)
        guard try JSONDecoder().decode(Model.self, from: foundationText) == model else {
            throw BenchmarkFailure.guardFailed("\(file.name): JSONEncoder's output does not decode back as the model")
        }
        let satchelText = try JSONModelEncoder().encode(model)
        guard try JSONReader().read(Model.self, from: satchelText) == model,
            try JSONReader().read(satchelText) == JSONReader().read(JSONWriter().write(ValueEncoder().encode(model)))
        else {
            throw BenchmarkFailure.guardFailed(
                "\(file.name): Satchel's encoded model does not decode back as the model")
        }
        return ModelWork(
            foundation: { try JSONEncoder().encode(model) },
            satchel: { try JSONModelEncoder().encode(model) })
    }
}
