// SPDX-License-Identifier: Apache-2.0
/// `ctm.json` (`citm_catalog.json`): a concert hall's catalogue of events, performances, seat
/// categories and prices.
///
/// Covers every member of the file. The `…Names` tables and `events` are objects keyed by
/// decimal ids, so they decode as dictionaries.
struct CitmCatalog: Codable, Equatable, Sendable {
    /// Area id to area name.
    var areaNames: [String: String]
    /// Audience sub-category id to name.
    var audienceSubCategoryNames: [String: String]
    /// Block id to name (empty in this corpus).
    var blockNames: [String: String]
    /// Event id to event.
    var events: [String: Event]
    /// Every performance of every event.
    var performances: [Performance]
    /// Seat category id to name.
    var seatCategoryNames: [String: String]
    /// Sub-topic id to name.
    var subTopicNames: [String: String]
    /// Subject id to name (empty in this corpus).
    var subjectNames: [String: String]
    /// Topic id to name.
    var topicNames: [String: String]
    /// Topic id to its sub-topic ids.
    var topicSubTopics: [String: [Int]]
    /// Venue code to name.
    var venueNames: [String: String]

    /// An event (a show that may have several performances).
    struct Event: Codable, Equatable, Sendable {
        /// Always null in this corpus.
        var description: String?
        var id: Int
        var logo: String?
        var name: String
        var subTopicIds: [Int]
        /// Always null in this corpus.
        var subjectCode: String?
        /// Always null in this corpus.
        var subtitle: String?
        var topicIds: [Int]
    }

    /// One performance of an event.
    struct Performance: Codable, Equatable, Sendable {
        var eventId: Int
        var id: Int
        var logo: String?
        /// Always null in this corpus.
        var name: String?
        var prices: [Price]
        var seatCategories: [SeatCategory]
        /// Always null in this corpus.
        var seatMapImage: String?
        /// Milliseconds since 1970.
        var start: Int64
        var venueCode: String
    }

    /// The price of a seat category for an audience sub-category, in cents.
    struct Price: Codable, Equatable, Sendable {
        var amount: Int
        var audienceSubCategoryId: Int
        var seatCategoryId: Int
    }

    /// A seat category and the areas it covers.
    struct SeatCategory: Codable, Equatable, Sendable {
        var areas: [Area]
        var seatCategoryId: Int
    }

    /// An area of the hall.
    struct Area: Codable, Equatable, Sendable {
        var areaId: Int
        /// Always empty in this corpus.
        var blockIds: [Int]
    }
}
