// SPDX-License-Identifier: Apache-2.0
/// An Atom feed (RFC 4287) as the documents group makes it: entries with a title, an ID, a
/// date, a link, an author, a summary and categories.
struct AtomFeed: Decodable, Equatable, Sendable {
    var title: String
    var entry: [AtomEntry]
}

/// One entry of an ``AtomFeed``.
struct AtomEntry: Decodable, Equatable, Sendable {
    struct Link: Decodable, Equatable, Sendable {
        var href: String
        var rel: String
    }

    struct Person: Decodable, Equatable, Sendable {
        var name: String
    }

    struct Category: Decodable, Equatable, Sendable {
        var term: String
    }

    var title: String
    var id: String
    var updated: String
    var link: Link
    var author: Person
    var summary: String
    var category: [Category]

    /// Entry `index` as XML text.
    static func text(_ index: Int) -> String {
        "<entry><title>Entry \(index): a title of some length</title><id>urn:uuid:00000000-0000-0000-0000-\(index)</id>"
            + "<updated>2026-11-28T12:00:00Z</updated><link href=\"https://example.com/entries/\(index)\" rel=\"alternate\"/>"
            + "<author><name>Author \(index % 97)</name></author>"
            + "<summary>A summary of entry \(index), long enough to look like one: text &amp; more text.</summary>"
            + "<category term=\"news\"/><category term=\"tag\(index % 13)\"/></entry>\n"
    }

    /// The feed's start, up to its first entry.
    static let feedHead =
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\"><title>Example feed</title>\n"
    /// The feed's end.
    static let feedTail = "</feed>\n"
}
