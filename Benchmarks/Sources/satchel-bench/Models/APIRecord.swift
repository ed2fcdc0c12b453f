// SPDX-License-Identifier: Apache-2.0
/// A record of `transport/small.json`'s shape; `transport/array.json` is about 1 MB of them.
struct APIRecord: Codable, Equatable, Sendable {
    var id: Int
    var name: String
    var active: Bool
    var score: Double
    var parent: String?
    var tags: [String]
    var owner: Owner
    var items: [Item]
    var updatedAt: String

    /// Who owns the record.
    struct Owner: Codable, Equatable, Sendable {
        var login: String
        var id: Int
        var siteAdmin: Bool

        enum CodingKeys: String, CodingKey {
            case login, id
            case siteAdmin = "site_admin"
        }
    }

    /// One line of the record.
    struct Item: Codable, Equatable, Sendable {
        var sku: String
        var quantity: Int
        var price: Double
    }

    enum CodingKeys: String, CodingKey {
        case id, name, active, score, parent, tags, owner, items
        case updatedAt = "updated_at"
    }
}
