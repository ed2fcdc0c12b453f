// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

/// One contender of the property-list model benchmarks, named so that
/// `satchel-bench --contender NAME --input FILE` can run it alone (``IsolatedContender``) and
/// `scripts/callgrind plist` can count its instructions. The input's suffix picks the format:
/// `.bplist` binary, anything else XML; the encoders encode the catalog decoded from it.
enum PropertyListContender: String, CaseIterable, Sendable {
    /// `PropertyListReader().read(PlistCatalog.self, from:)`.
    case satchelDecode = "plist-satchel-decode"
    /// `PropertyListDecoder().decode(PlistCatalog.self, from:)`.
    case foundationDecode = "plist-foundation-decode"
    /// `PropertyListWriter(format:).write(model:)`.
    case satchelEncode = "plist-satchel-encode"
    /// `PropertyListEncoder().encode(_:)` with the input's format.
    case foundationEncode = "plist-foundation-encode"

    /// The work to time on the file at `path`, read into memory first.
    func work(input path: String) throws -> Sampler.Work {
        let file = try Corpus.File(reading: path)
        let bytes = file.bytes
        let data = file.data
        let binary = path.hasSuffix(".bplist")
        switch self {
        case .satchelDecode: return { try PropertyListReader().read(PlistCatalog.self, from: bytes) }
        case .foundationDecode: return { try PropertyListDecoder().decode(PlistCatalog.self, from: data) }
        case .satchelEncode:
            let catalog = try PropertyListReader().read(PlistCatalog.self, from: bytes)
            let writer = PropertyListWriter(format: binary ? .binary : .xml)
            return { try writer.write(model: catalog) }
        case .foundationEncode:
            let catalog = try PropertyListReader().read(PlistCatalog.self, from: bytes)
            let encoder = PropertyListEncoder()
            encoder.outputFormat = binary ? .binary : .xml
            return { try encoder.encode(catalog) }
        }
    }
}
