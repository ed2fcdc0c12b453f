// SPDX-License-Identifier: Apache-2.0
/// `Corpus/xml/catalog.xml` as a model both XML decoders read and both encoders write: attributes and child elements by
/// key, the repeated `product` element as an array, a price's text under the key `""`.
struct ProductCatalog: Codable, Equatable, Sendable {
    struct Product: Codable, Equatable, Sendable {
        var id: String
        var sku: Int
        var stock: Int
        var name: String
        var price: Price
        var dims: Dimensions
    }

    struct Price: Codable, Equatable, Sendable {
        var currency: String
        var value: Double

        enum CodingKeys: String, CodingKey {
            case currency
            case value = ""
        }
    }

    struct Dimensions: Codable, Equatable, Sendable {
        var w: Int
        var h: Int
        var d: Int
    }

    var version: Int
    var product: [Product]
}

extension ProductCatalog {
    /// The keys the catalog writes as attributes (``XMLModelEncoder/attributeKeys``).
    static let attributeKeys: Set<String> = ["version", "id", "sku", "stock", "currency", "w", "h", "d"]
}
