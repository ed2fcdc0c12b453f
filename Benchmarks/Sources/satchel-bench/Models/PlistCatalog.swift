// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Corpus/plist/catalog.(b)plist` as a model both decoders read (every member but `count`,
/// whose values span -2^40 to 2^64-1: no Swift integer type holds them all).
struct PlistCatalog: Codable, Equatable {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var description: String
        var price: Double
        var ratio: Double
        var active: Bool
        var created: Date
        var digest: Data
        var tags: [String]
        var dimensions: Dimensions
    }

    struct Dimensions: Codable, Equatable {
        var width: Int
        var height: Int
        var unit: String
    }

    var version: Int
    var generated: Date
    var records: [Record]
}
