// SPDX-License-Identifier: Apache-2.0
/// A media type as RFC 9110 §8.3.1 defines it: `type/subtype` plus parameters.
///
/// Type, subtype and parameter names are case-insensitive and stored in lower case; the value
/// of `charset` is case-insensitive too and stored in lower case; other values keep their case.
/// A media type can also act as a pattern (see ``matches(_:)``): `*/*`, `text/*`, and the
/// structured-suffix wildcard `application/*+json` (RFC 6839).
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` parameter.
    public struct Parameter: Sendable, Hashable {
        /// The name, in lower case.
        public var name: String
        /// The value, unquoted.
        public var value: String

        /// Creates a parameter; the name is lower-cased, and so is a `charset` value.
        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = self.name == "charset" ? value.lowercased() : value
        }
    }

    /// The top-level type in lower case, such as `application`; `*` for any.
    public var type: String
    /// The subtype in lower case, such as `vnd.api+json`; `*` for any.
    public var subtype: String
    /// The parameters in their order.
    public var parameters: [Parameter]

    /// Creates a media type from its parts (lower-casing type and subtype).
    public init(type: String, subtype: String, parameters: [Parameter] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// `type/subtype` without parameters.
    public var essence: String { "\(type)/\(subtype)" }

    /// The structured syntax suffix (RFC 6839): `json` for `application/vnd.api+json`.
    public var suffix: String? {
        guard let plus = subtype.lastIndex(of: "+") else { return nil }
        let suffix = subtype[subtype.index(after: plus)...]
        return suffix.isEmpty ? nil : String(suffix)
    }

    /// The value of the parameter `name` (case-insensitive), if present.
    public subscript(parameter name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    /// The `charset` parameter, in lower case.
    public var charset: String? { self[parameter: "charset"] }

    /// Returns a copy with the parameter `name` set to `value` (replacing an existing one).
    public func setting(parameter name: String, to value: String) -> MediaType {
        var copy = self
        let parameter = Parameter(name: name, value: value)
        if let index = copy.parameters.firstIndex(where: { $0.name == parameter.name }) {
            copy.parameters[index] = parameter
        } else {
            copy.parameters.append(parameter)
        }
        return copy
    }

    /// Whether this type, used as a pattern, matches `candidate`.
    ///
    /// `*` matches any type or subtype; a subtype `*+suffix` matches any subtype with that
    /// structured suffix. Every parameter of the pattern must appear in `candidate` with the same
    /// value; parameters the pattern does not name are ignored.
    public func matches(_ candidate: MediaType) -> Bool {
        guard type == "*" || type == candidate.type else { return false }
        if subtype != "*" && subtype != candidate.subtype {
            guard subtype.hasPrefix("*+"), let suffix, candidate.suffix == suffix else { return false }
        }
        return parameters.allSatisfy { candidate[parameter: $0.name] == $0.value }
    }

    /// How specific this type is as a pattern: exact types rank above `*+suffix`, which ranks
    /// above `type/*`, above `*/*`; more parameters rank higher among equals (RFC 9110 §12.5.1).
    public var specificity: Int {
        let base: Int
        if type == "*" {
            base = 0
        } else if subtype == "*" {
            base = 1
        } else if subtype.hasPrefix("*+") {
            base = 2
        } else {
            base = 3
        }
        return base * 1_000 + parameters.count
    }

    /// The media type as header text, each parameter after `; ` as curl, browsers and every
    /// HTTP library write them; values are quoted only when they must be.
    public var description: String { text(parameterSeparator: "; ") }

    /// The media type as text with `separator` before each parameter: `"; "` in a Content-Type,
    /// `";"` in an Accept header's ranges (as browsers and RFC 9110's examples write them).
    func text(parameterSeparator separator: String) -> String {
        var text = essence
        for parameter in parameters {
            text += "\(separator)\(parameter.name)=\(MediaTypeParser.quotedIfNeeded(parameter.value))"
        }
        return text
    }
}

extension MediaType {
    /// `application/json`
    public static let json = MediaType(type: "application", subtype: "json")
    /// `application/x-www-form-urlencoded`
    public static let formURLEncoded = MediaType(type: "application", subtype: "x-www-form-urlencoded")
    /// `application/octet-stream`
    public static let octetStream = MediaType(type: "application", subtype: "octet-stream")
    /// `text/plain`
    public static let plainText = MediaType(type: "text", subtype: "plain")
    /// `*/*`
    public static let any = MediaType(type: "*", subtype: "*")
}
