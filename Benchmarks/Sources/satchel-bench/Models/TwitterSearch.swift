// SPDX-License-Identifier: Apache-2.0
/// `twitter.json`: one page of Twitter's v1.1 search API (100 statuses, 73 of them retweets).
///
/// Covers every member of the file; members absent from some objects are optional.
struct TwitterSearch: Codable, Equatable, Sendable {
    /// The tweets found.
    var statuses: [Status]
    /// Paging metadata.
    var searchMetadata: SearchMetadata

    private enum CodingKeys: String, CodingKey {
        case statuses
        case searchMetadata = "search_metadata"
    }

    /// The search's paging metadata.
    struct SearchMetadata: Codable, Equatable, Sendable {
        var completedIn: Double
        var maxId: Int64
        var maxIdStr: String
        var nextResults: String
        var query: String
        var refreshUrl: String
        var count: Int
        var sinceId: Int64
        var sinceIdStr: String

        private enum CodingKeys: String, CodingKey {
            case completedIn = "completed_in"
            case maxId = "max_id"
            case maxIdStr = "max_id_str"
            case nextResults = "next_results"
            case query
            case refreshUrl = "refresh_url"
            case count
            case sinceId = "since_id"
            case sinceIdStr = "since_id_str"
        }
    }

    /// One tweet.
    struct Status: Codable, Equatable, Sendable {
        var metadata: StatusMetadata
        var createdAt: String
        var id: Int64
        var idStr: String
        var text: String
        var source: String
        var truncated: Bool
        var inReplyToStatusId: Int64?
        var inReplyToStatusIdStr: String?
        var inReplyToUserId: Int64?
        var inReplyToUserIdStr: String?
        var inReplyToScreenName: String?
        var user: User
        /// Always null in this corpus.
        var geo: String?
        /// Always null in this corpus.
        var coordinates: String?
        /// Always null in this corpus.
        var place: String?
        /// Always null in this corpus.
        var contributors: [Int64]?
        /// The original tweet of a retweet (one level; its own `retweeted_status` is absent).
        var retweetedStatus: Boxed<Status>?
        var retweetCount: Int
        var favoriteCount: Int
        var entities: Entities
        var favorited: Bool
        var retweeted: Bool
        var possiblySensitive: Bool?
        var lang: String

        private enum CodingKeys: String, CodingKey {
            case metadata
            case createdAt = "created_at"
            case id
            case idStr = "id_str"
            case text
            case source
            case truncated
            case inReplyToStatusId = "in_reply_to_status_id"
            case inReplyToStatusIdStr = "in_reply_to_status_id_str"
            case inReplyToUserId = "in_reply_to_user_id"
            case inReplyToUserIdStr = "in_reply_to_user_id_str"
            case inReplyToScreenName = "in_reply_to_screen_name"
            case user
            case geo
            case coordinates
            case place
            case contributors
            case retweetedStatus = "retweeted_status"
            case retweetCount = "retweet_count"
            case favoriteCount = "favorite_count"
            case entities
            case favorited
            case retweeted
            case possiblySensitive = "possibly_sensitive"
            case lang
        }
    }

    /// Why the tweet matched.
    struct StatusMetadata: Codable, Equatable, Sendable {
        var resultType: String
        var isoLanguageCode: String

        private enum CodingKeys: String, CodingKey {
            case resultType = "result_type"
            case isoLanguageCode = "iso_language_code"
        }
    }

    /// The author of a tweet.
    struct User: Codable, Equatable, Sendable {
        var id: Int64
        var idStr: String
        var name: String
        var screenName: String
        var location: String
        var description: String
        var url: String?
        var entities: UserEntities
        var protected: Bool
        var followersCount: Int
        var friendsCount: Int
        var listedCount: Int
        var createdAt: String
        var favouritesCount: Int
        var utcOffset: Int?
        var timeZone: String?
        var geoEnabled: Bool
        var verified: Bool
        var statusesCount: Int
        var lang: String
        var contributorsEnabled: Bool
        var isTranslator: Bool
        var isTranslationEnabled: Bool
        var profileBackgroundColor: String
        var profileBackgroundImageUrl: String
        var profileBackgroundImageUrlHttps: String
        var profileBackgroundTile: Bool
        var profileImageUrl: String
        var profileImageUrlHttps: String
        var profileBannerUrl: String?
        var profileLinkColor: String
        var profileSidebarBorderColor: String
        var profileSidebarFillColor: String
        var profileTextColor: String
        var profileUseBackgroundImage: Bool
        var defaultProfile: Bool
        var defaultProfileImage: Bool
        var following: Bool
        var followRequestSent: Bool
        var notifications: Bool

        private enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case name
            case screenName = "screen_name"
            case location
            case description
            case url
            case entities
            case protected
            case followersCount = "followers_count"
            case friendsCount = "friends_count"
            case listedCount = "listed_count"
            case createdAt = "created_at"
            case favouritesCount = "favourites_count"
            case utcOffset = "utc_offset"
            case timeZone = "time_zone"
            case geoEnabled = "geo_enabled"
            case verified
            case statusesCount = "statuses_count"
            case lang
            case contributorsEnabled = "contributors_enabled"
            case isTranslator = "is_translator"
            case isTranslationEnabled = "is_translation_enabled"
            case profileBackgroundColor = "profile_background_color"
            case profileBackgroundImageUrl = "profile_background_image_url"
            case profileBackgroundImageUrlHttps = "profile_background_image_url_https"
            case profileBackgroundTile = "profile_background_tile"
            case profileImageUrl = "profile_image_url"
            case profileImageUrlHttps = "profile_image_url_https"
            case profileBannerUrl = "profile_banner_url"
            case profileLinkColor = "profile_link_color"
            case profileSidebarBorderColor = "profile_sidebar_border_color"
            case profileSidebarFillColor = "profile_sidebar_fill_color"
            case profileTextColor = "profile_text_color"
            case profileUseBackgroundImage = "profile_use_background_image"
            case defaultProfile = "default_profile"
            case defaultProfileImage = "default_profile_image"
            case following
            case followRequestSent = "follow_request_sent"
            case notifications
        }
    }

    /// Links in a user's profile URL and description.
    struct UserEntities: Codable, Equatable, Sendable {
        var url: URLEntities?
        var description: URLEntities
    }

    /// A list of links.
    struct URLEntities: Codable, Equatable, Sendable {
        var urls: [URLEntity]
    }

    /// What a tweet's text links to.
    struct Entities: Codable, Equatable, Sendable {
        var hashtags: [Hashtag]
        /// Cashtags; always empty in this corpus, shaped like hashtags.
        var symbols: [Hashtag]
        var urls: [URLEntity]
        var userMentions: [UserMention]
        var media: [Media]?

        private enum CodingKeys: String, CodingKey {
            case hashtags
            case symbols
            case urls
            case userMentions = "user_mentions"
            case media
        }
    }

    /// A hashtag and where it is in the text.
    struct Hashtag: Codable, Equatable, Sendable {
        var text: String
        var indices: [Int]
    }

    /// A link and where it is in the text.
    struct URLEntity: Codable, Equatable, Sendable {
        var url: String
        var expandedUrl: String
        var displayUrl: String
        var indices: [Int]

        private enum CodingKeys: String, CodingKey {
            case url
            case expandedUrl = "expanded_url"
            case displayUrl = "display_url"
            case indices
        }
    }

    /// A mentioned user.
    struct UserMention: Codable, Equatable, Sendable {
        var screenName: String
        var name: String
        var id: Int64
        var idStr: String
        var indices: [Int]

        private enum CodingKeys: String, CodingKey {
            case screenName = "screen_name"
            case name
            case id
            case idStr = "id_str"
            case indices
        }
    }

    /// An attached photo.
    struct Media: Codable, Equatable, Sendable {
        var id: Int64
        var idStr: String
        var indices: [Int]
        var mediaUrl: String
        var mediaUrlHttps: String
        var url: String
        var displayUrl: String
        var expandedUrl: String
        var type: String
        var sizes: MediaSizes
        var sourceStatusId: Int64?
        var sourceStatusIdStr: String?

        private enum CodingKeys: String, CodingKey {
            case id
            case idStr = "id_str"
            case indices
            case mediaUrl = "media_url"
            case mediaUrlHttps = "media_url_https"
            case url
            case displayUrl = "display_url"
            case expandedUrl = "expanded_url"
            case type
            case sizes
            case sourceStatusId = "source_status_id"
            case sourceStatusIdStr = "source_status_id_str"
        }
    }

    /// The sizes a photo is served in.
    struct MediaSizes: Codable, Equatable, Sendable {
        var medium: MediaSize
        var small: MediaSize
        var thumb: MediaSize
        var large: MediaSize
    }

    /// One served size.
    struct MediaSize: Codable, Equatable, Sendable {
        var w: Int
        var h: Int
        var resize: String
    }
}
