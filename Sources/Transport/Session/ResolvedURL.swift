// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import HTTPTypes
import SerializerRegistry

/// An absolute http or https URL, resolved and normalised by libcurl's URL parser (RFC 3986).
struct ResolvedURL: Sendable, Hashable {
    /// The whole URL.
    let absolute: String
    /// `http` or `https`, lower case.
    let scheme: String
    /// `host[:port]` as it appears in the URL.
    let authority: String
    /// The path and query, starting with `/`.
    let pathAndQuery: String
    /// Scheme, host and port (the default port filled in): what "same origin" compares.
    let origin: String
    /// The host in lower case (an IPv6 address in brackets).
    let host: String
    /// `host:port`, the default port filled in: what per-host settings are keyed by.
    let hostAndPort: String

    /// Resolves `reference` against `base` (or takes it as absolute when `base` is `nil`).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for anything that is not an http(s) URL.
    init(_ reference: String, relativeTo base: String?) throws(SatchelError) {
        _ = CurlGlobal.initialised
        guard let handle = curl_url() else { throw SatchelError(.internal, "libcurl could not allocate a URL") }
        defer { curl_url_cleanup(handle) }
        if let base, curl_url_set(handle, CURLUPART_URL, base, 0) != CURLUE_OK {
            throw SatchelError(.invalidArgument, "the base URL \(base) is not a valid absolute URL")
        }
        let code = curl_url_set(handle, CURLUPART_URL, reference, 0)
        if code != CURLUE_OK, base == nil, !reference.contains("://") {
            throw SatchelError(
                .invalidArgument,
                "\(reference) has no scheme: an absolute URL starts with http:// or https:// (https://\(reference))")
        }
        guard code == CURLUE_OK else {
            throw SatchelError(
                .invalidArgument,
                "\(reference) is not a valid URL\(base.map { " relative to \($0)" } ?? ""): \(String(cString: curl_url_strerror(code)))"
            )
        }
        func part(_ which: CURLUPart, _ flags: Int32 = 0) -> String? {
            var value: UnsafeMutablePointer<CChar>?
            guard curl_url_get(handle, which, &value, UInt32(flags)) == CURLUE_OK, let value else { return nil }
            defer { curl_free(value) }
            return String(cString: value)
        }
        guard let absolute = part(CURLUPART_URL), let scheme = part(CURLUPART_SCHEME)?.lowercased(),
            scheme == "http" || scheme == "https", let host = part(CURLUPART_HOST)
        else {
            let scheme = part(CURLUPART_SCHEME).map { "the scheme \($0)" } ?? "no scheme"
            throw SatchelError(.invalidArgument, "\(reference) has \(scheme): Satchel sends http and https URLs")
        }
        let port = part(CURLUPART_PORT)
        let defaultPort = part(CURLUPART_PORT, CURLU_DEFAULT_PORT) ?? ""
        let path = part(CURLUPART_PATH) ?? "/"
        let query = part(CURLUPART_QUERY)
        self.absolute = absolute
        self.scheme = scheme
        self.authority = port.map { "\(host):\($0)" } ?? host
        self.pathAndQuery = query.map { "\(path)?\($0)" } ?? path
        self.host = host.lowercased()
        self.hostAndPort = "\(self.host):\(defaultPort)"
        self.origin = "\(scheme)://\(hostAndPort)"
    }

    /// This URL with the path and query `head` goes to (a request serializer may have put the
    /// parameters in its query): itself when they are the same, else resolved again.
    /// - Throws: ``SatchelError/Code/invalidArgument`` when the new path is not a valid URL path.
    func withPathAndQuery(of head: HTTPRequest) throws(SatchelError) -> ResolvedURL {
        let pathAndQuery = head.path ?? "/"
        guard pathAndQuery != self.pathAndQuery else { return self }
        return try ResolvedURL("\(scheme)://\(authority)\(pathAndQuery)", relativeTo: nil)
    }

    /// A base URL as AFNetworking keeps it: a slash appended when it has a path, so relative
    /// references resolve beneath it.
    static func base(_ string: String) throws(SatchelError) -> String {
        let url = try ResolvedURL(string, relativeTo: nil)
        let path = url.pathAndQuery.split(separator: "?", maxSplits: 1).first.map(String.init) ?? "/"
        if path != "/" && !path.hasSuffix("/") && !url.pathAndQuery.contains("?") { return url.absolute + "/" }
        return url.absolute
    }
}
