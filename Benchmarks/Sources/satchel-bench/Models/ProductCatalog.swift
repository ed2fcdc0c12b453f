/// `Corpus/xml/catalog.xml` as a model both XML decoders read: attributes and child elements by
/// key, the repeated `product` element as an array, a price's text under the key `""`.
struct ProductCatalog: Decodable, Equatable {
    struct Product: Decodable, Equatable {
        var id: String
        var sku: Int
        var stock: Int
        var name: String
        var price: Price
        var dims: Dimensions
    }

    struct Price: Decodable, Equatable {
        var currency: String
        var value: Double

        enum CodingKeys: String, CodingKey {
            case currency
            case value = ""
        }
    }

    struct Dimensions: Decodable, Equatable {
        var w: Int
        var h: Int
        var d: Int
    }

    var version: Int
    var product: [Product]
}
