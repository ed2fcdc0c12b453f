// SPDX-License-Identifier: Apache-2.0
import Satchel

/// One httpie-style request item of `satchel request`: `Header:value`, `key==value` (query),
/// `key=value` (data field), `key:=json` (raw JSON value), `key@path` (file part),
/// `key=@path` (a field read from a file) and `key:=@path` (a JSON value read from a file).
///
/// A backslash makes the next separator character literal (`a\=b=c` is the field `a=b` with
/// the value `c`); any other backslash is kept.
enum RequestItem: Equatable {
    /// A request header.
    case header(name: String, value: String)
    /// A query parameter, appended to the URL in order.
    case query(name: String, value: String)
    /// A data field (form field, or JSON string with `--json`).
    case field(name: String, value: String)
    /// A field whose value is a file's text (`key=@path`).
    case fieldFromFile(name: String, path: String)
    /// A raw JSON value (`key:=json`).
    case json(name: String, text: String)
    /// A raw JSON value read from a file (`key:=@path`).
    case jsonFromFile(name: String, path: String)
    /// A file part (`key@path`, optionally `;type=MEDIA-TYPE`).
    case file(name: String, path: String, mediaType: String?)

    /// The separators, longest first so that `:=@` wins over `:=` and `:` at the same position.
    private static let separators = [":=@", "==", "=@", ":=", "@", "=", ":"]
    /// The characters a backslash escapes.
    private static let escapable: Set<Character> = ["=", ":", "@", "\\", ";"]

    /// Parses one item.
    /// - Throws: ``UsageError`` for an item with no separator or an empty key.
    init(parsing text: String) throws {
        // Each character with whether a backslash escaped it.
        var characters: [(character: Character, escaped: Bool)] = []
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if character == "\\", next < text.endIndex, Self.escapable.contains(text[next]) {
                characters.append((text[next], true))
                index = text.index(after: next)
            } else {
                characters.append((character, false))
                index = next
            }
        }
        guard let (position, separator) = Self.firstSeparator(in: characters) else {
            throw UsageError(
                "unknown request item '\(text)': expected Header:value, key==value, key=value, key:=json or key@file")
        }
        let key = String(characters[..<position].map(\.character))
        let value = String(characters[(position + separator.count)...].map(\.character))
        if key.isEmpty && separator != ":" {
            throw UsageError("request item '\(text)' has an empty name")
        }
        switch separator {
        case ":":
            guard !key.isEmpty else { throw UsageError("request item '\(text)' has an empty header name") }
            self = .header(name: key, value: value.trimmingLeadingSpaces)
        case "==": self = .query(name: key, value: value)
        case "=": self = .field(name: key, value: value)
        case "=@": self = .fieldFromFile(name: key, path: value)
        case ":=": self = .json(name: key, text: value)
        case ":=@": self = .jsonFromFile(name: key, path: value)
        default:
            var path = Substring(value)
            var mediaType: String?
            if let semicolon = path.range(of: ";type=") {
                mediaType = String(path[semicolon.upperBound...])
                path = path[..<semicolon.lowerBound]
            }
            guard !path.isEmpty else { throw UsageError("request item '\(text)' names no file") }
            self = .file(name: key, path: String(path), mediaType: mediaType)
        }
    }

    /// The first unescaped separator: its position and text (the longest at that position).
    private static func firstSeparator(in characters: [(character: Character, escaped: Bool)]) -> (Int, String)? {
        for position in characters.indices where !characters[position].escaped {
            for separator in separators {
                let end = position + separator.count
                guard end <= characters.count else { continue }
                let candidate = characters[position..<end]
                if candidate.allSatisfy({ !$0.escaped }) && String(candidate.map(\.character)) == separator {
                    return (position, separator)
                }
            }
        }
        return nil
    }

    /// Whether the item contributes to the body (rather than the URL or the head).
    var isData: Bool {
        switch self {
        case .header, .query: false
        default: true
        }
    }
}

extension String {
    /// The string without leading spaces and tabs.
    fileprivate var trimmingLeadingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" })
    }
}
