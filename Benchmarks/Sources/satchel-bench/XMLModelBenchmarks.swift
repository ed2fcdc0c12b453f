// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel
import XMLCoder

/// XML straight to a `Decodable` model: Satchel's `XMLModelDecoder` against CoreOffice's
/// XMLCoder, the decoder Swift users pick for XML models.
struct XMLModelBenchmarks {
    /// The inputs.
    let corpus: Corpus
    /// The timer.
    let sampler: Sampler

    /// Guards, then times the catalog.
    func run() throws -> [ComparisonTable] {
        var table = ComparisonTable(
            title: "XML parse to Decodable models: Satchel vs XMLCoder",
            satchelCall: "XMLModelDecoder().decode(ProductCatalog.self, from: bytes)", peerName: "XMLCoder 0.18.2",
            peerCall: "XMLCoder.XMLDecoder().decode(ProductCatalog.self, from: data)", sizeNote: "the XML file",
            target: 3)
        let url = corpus.directory.appendingPathComponent("xml/catalog.xml")
        guard let data = try? Data(contentsOf: url) else {
            throw BenchmarkFailure.corpus("cannot read \(url.path) (run scripts/corpus xml first)")
        }
        let bytes = [UInt8](data)
        let satchel = try XMLModelDecoder().decode(ProductCatalog.self, from: bytes)
        let peer = try XMLCoder.XMLDecoder().decode(ProductCatalog.self, from: data)
        guard satchel == peer, satchel.product.count == 30_000 else {
            throw BenchmarkFailure.guardFailed("catalog.xml: Satchel and XMLCoder decode different catalogs")
        }
        Progress.note("decode catalog.xml as ProductCatalog")
        let samples = try sampler.measure([
            { try XMLModelDecoder().decode(ProductCatalog.self, from: bytes) },
            { try XMLCoder.XMLDecoder().decode(ProductCatalog.self, from: data) },
        ])
        table.rows.append(Comparison(input: "catalog.xml", bytes: bytes.count, satchel: samples[0], peer: samples[1]))
        return [table, try encodeTable(satchel)]
    }

    /// The catalog model written back as XML by both encoders, each output checked to decode as
    /// the model.
    private func encodeTable(_ catalog: ProductCatalog) throws -> ComparisonTable {
        var table = ComparisonTable(
            title: "Encodable model to XML: Satchel vs XMLCoder",
            satchelCall: "XMLModelEncoder (attributeKeys) .encode(catalog, rootElement: \"catalog\")",
            peerName: "XMLCoder 0.18.2",
            peerCall: "XMLCoder.XMLEncoder().encode(catalog, withRootKey: \"catalog\") (DynamicNodeEncoding)",
            sizeNote: "Satchel's output", target: 3)
        var encoder = XMLModelEncoder()
        encoder.attributeKeys = ProductCatalog.attributeKeys
        let satchelText = try encoder.encode(catalog, rootElement: "catalog")
        let peerText = try XMLCoder.XMLEncoder().encode(catalog, withRootKey: "catalog")
        guard try XMLModelDecoder().decode(ProductCatalog.self, from: satchelText) == catalog,
            try XMLModelDecoder().decode(ProductCatalog.self, from: [UInt8](peerText)) == catalog
        else {
            throw BenchmarkFailure.guardFailed("catalog: an encoder's XML does not decode back as the catalog")
        }
        Progress.note("encode ProductCatalog as XML")
        let samples = try sampler.measure([
            { try encoder.encode(catalog, rootElement: "catalog") },
            { try XMLCoder.XMLEncoder().encode(catalog, withRootKey: "catalog") },
        ])
        table.rows.append(
            Comparison(input: "catalog.xml", bytes: satchelText.count, satchel: samples[0], peer: samples[1]))
        return table
    }
}

/// XMLCoder writes a property as an attribute only when the model says so.
extension ProductCatalog: DynamicNodeEncoding {
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        attributeKeys.contains(key.stringValue) ? .attribute : .element
    }
}

extension ProductCatalog.Product: DynamicNodeEncoding {
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        ProductCatalog.attributeKeys.contains(key.stringValue) ? .attribute : .element
    }
}

extension ProductCatalog.Price: DynamicNodeEncoding {
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        ProductCatalog.attributeKeys.contains(key.stringValue) ? .attribute : .element
    }
}

extension ProductCatalog.Dimensions: DynamicNodeEncoding {
    static func nodeEncoding(for key: any CodingKey) -> XMLEncoder.NodeEncoding {
        ProductCatalog.attributeKeys.contains(key.stringValue) ? .attribute : .element
    }
}
