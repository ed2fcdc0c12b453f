import SerializerRegistry

extension Session {
    /// The cookies the session holds (set by responses or by ``setCookie(_:)``), expired ones
    /// left out.
    ///
    /// ```swift
    /// for cookie in await session.cookies() { print(cookie.domain, cookie.name, cookie.value) }
    /// ```
    public func cookies() async -> [Cookie] {
        await cookies(after: .read)
    }

    /// The cookies a request to `url` would carry (domain, path and `Secure` matched as
    /// RFC 6265 §5.4 says; like libcurl, and browsers, `localhost`, `127.0.0.1` and `::1` count as
    /// secure contexts over plain HTTP).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a URL that does not resolve.
    public func cookies(for url: String) async throws(SatchelError) -> [Cookie] {
        let resolved: ResolvedURL
        do {
            resolved = try resolvedURLs.resolve(url, relativeTo: baseURL)
        } catch {
            throw SatchelError.wrap(error)
        }
        let hostAndPort = resolved.origin.dropFirst(resolved.scheme.count + 3)
        let host = String(hostAndPort[..<(hostAndPort.lastIndex(of: ":") ?? hostAndPort.endIndex)])
        let path = String(resolved.pathAndQuery.prefix { $0 != "?" })
        let secure = resolved.scheme == "https" || ["localhost", "127.0.0.1", "[::1]"].contains(host.lowercased())
        return await cookies().filter { $0.matches(host: host, path: path, secure: secure) }
    }

    /// Adds a cookie, or replaces the one with its name, domain and path; later requests to its
    /// domain carry it.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty name or domain, a path not
    ///   starting with `/`, or a tab, line end or `;` in a field.
    public func setCookie(_ cookie: Cookie) async throws(SatchelError) {
        _ = await cookies(after: .set(try cookie.netscapeLine()))
    }

    /// Removes the cookies `predicate` selects, such as those of one domain.
    public func removeCookies(where predicate: @escaping @Sendable (Cookie) -> Bool) async {
        _ = await cookies(after: .remove(predicate))
    }

    /// Removes every cookie.
    public func removeAllCookies() async {
        _ = await cookies(after: .remove { _ in true })
    }

    /// Runs `operation` on the engine thread, which owns the cookie store.
    private func cookies(after operation: CookieOperation) async -> [Cookie] {
        await withCheckedContinuation { continuation in
            engine.enqueue(.cookies(operation) { continuation.resume(returning: $0) })
        }
    }
}
