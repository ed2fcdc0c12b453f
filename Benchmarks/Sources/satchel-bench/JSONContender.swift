// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// One contender of the JSON benchmarks, named so that `satchel-bench --contender NAME` can run
/// it alone in a fresh process (``IsolatedContender``); `scripts/callgrind json` counts each
/// one's instructions so.
enum JSONContender: String, CaseIterable, Sendable {
    /// `JSONReader().read(bytes)`, to a ``Value``.
    case satchelValue = "json-satchel-value"
    /// `JSONModelDecoder().decode(Value.self, from:)`: a ``Value`` from the validating index of
    /// the text, without json-c (measured for the engine question in
    /// docs/notes/typed-coding-costs.md; `JSONReader`'s `Value`s come from json-c).
    case satchelIndexValue = "json-satchel-index-value"
    /// `JSONSerialization.jsonObject(with:)`.
    case foundationValue = "json-foundation-value"
    /// json-c's own strict parse, then `json_object_put`.
    case jsonc = "json-jsonc"
    /// `JSONReader().read(Model.self, from:)` with the file's model (twitter, ctm, canada).
    case satchelDecode = "json-satchel-decode"
    /// `JSONDecoder().decode(Model.self, from:)` with the file's model.
    case foundationDecode = "json-foundation-decode"

    /// The work to time on `file`.
    /// - Throws: ``BenchmarkFailure/usage(_:)`` for a decode contender on a file without a model.
    func work(on file: Corpus.File) throws -> Sampler.Work {
        let bytes = file.bytes
        let data = file.data
        switch self {
        case .satchelValue: return { try JSONReader().read(bytes) }
        case .satchelIndexValue: return { try JSONModelDecoder().decode(Value.self, from: bytes) }
        case .foundationValue: return { try JSONSerialization.jsonObject(with: data) }
        case .jsonc: return { JSONParseBenchmarks.jsoncParse(bytes) }
        case .satchelDecode, .foundationDecode:
            switch file.name {
            case "twitter.json": return decodeWork(TwitterSearch.self, bytes: bytes, data: data)
            case "ctm.json": return decodeWork(CitmCatalog.self, bytes: bytes, data: data)
            case "canada.json": return decodeWork(CanadaGeometry.self, bytes: bytes, data: data)
            default: throw BenchmarkFailure.usage("no model for \(file.name) (twitter.json, ctm.json, canada.json)")
            }
        }
    }

    private func decodeWork<Model: Decodable>(_ type: Model.Type, bytes: [UInt8], data: Data) -> Sampler.Work {
        if self == .satchelDecode { return { try JSONReader().read(Model.self, from: bytes) } }
        return { try JSONDecoder().decode(Model.self, from: data) }
    }
}
