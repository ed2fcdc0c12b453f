// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// A request serializer that can also write parameters as a URL query string: the form
/// serializer, which every format uses for AFNetworking's rule that parameters of GET, HEAD and
/// DELETE requests go into the query (`Set.encodingParametersInURI`).
///
/// The transport reaches it through ``Registry/queryString(from:)``, never by its type.
public protocol QueryStringSerializer: RequestSerializer {
    /// `parameters` as an escaped query string without the leading `?`; empty for none.
    /// - Throws: ``SatchelError`` when the parameters cannot be written as a query.
    func queryString(from parameters: Value) throws(SatchelError) -> String
}

extension Set where Element == HTTPRequest.Method {
    /// GET, HEAD and DELETE: the methods whose parameters go into the query string rather than
    /// the body (AFNetworking's `HTTPMethodsEncodingParametersInURI`). Every request serializer's
    /// default, defined here once.
    public static var encodingParametersInURI: Set<HTTPRequest.Method> { [.get, .head, .delete] }
}

/// Query strings in request targets.
public enum URLQuery {
    /// Appends an encoded query to a request path, as AFNetworking does for GET.
    ///
    /// The query goes after `?`, or after `&` when `path` already has a query (directly when that
    /// query is empty or ends with `&`); a fragment stays at the end.
    ///
    /// - Parameters:
    ///   - query: The encoded query, without `?`.
    ///   - path: The request target, such as `/search?lang=en#top`.
    /// - Returns: The path with the query appended, such as `/search?lang=en&q=1#top`.
    public static func appending(_ query: String, to path: String) -> String {
        var base = Substring(path)
        var fragment: Substring = ""
        if let hash = base.firstIndex(of: "#") {
            fragment = base[hash...]
            base = base[..<hash]
        }
        let separator: String
        if let questionMark = base.firstIndex(of: "?") {
            let existing = base[base.index(after: questionMark)...]
            separator = existing.isEmpty || existing.hasSuffix("&") ? "" : "&"
        } else {
            separator = "?"
        }
        return "\(base)\(separator)\(query)\(fragment)"
    }
}
