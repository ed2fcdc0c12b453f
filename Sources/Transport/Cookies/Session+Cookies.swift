import Glibc
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
        let path = String(resolved.pathAndQuery.prefix { $0 != "?" })
        let secure = resolved.scheme == "https" || ["localhost", "127.0.0.1", "[::1]"].contains(resolved.host)
        return await cookies().filter { $0.matches(host: resolved.host, path: path, secure: secure) }
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

    /// Runs `operation` on the engine thread, which owns the cookie store; a change is
    /// written to the cookie file, if there is one.
    private func cookies(after operation: CookieOperation) async -> [Cookie] {
        let cookies = await withCheckedContinuation { continuation in
            engine.enqueue(.cookies(operation) { continuation.resume(returning: $0) })
        }
        if case .read = operation {} else { persist(cookies) }
        return cookies
    }

    /// Writes the cookies to the session's cookie file, if it has one, after a response set
    /// some.
    func persistCookies() async {
        guard case .file = configuration.cookieStorage else { return }
        persist(await cookies(after: .read))
    }

    /// Writes `cookies` to the cookie file, if there is one; a failure is a warning.
    private func persist(_ cookies: [Cookie]) {
        guard case .file(let path) = configuration.cookieStorage else { return }
        do {
            try CookieFile.write(cookies, to: path)
        } catch {
            warn(error)
        }
    }

    /// Loads the cookie file, if there is one, into the store (on the engine thread, before
    /// any request of the session).
    func loadCookies() {
        guard case .file(let path) = configuration.cookieStorage else { return }
        do {
            let (cookies, skipped) = try CookieFile.read(path, now: Int64(time(nil)))
            if skipped > 0 {
                warn(
                    SatchelError(
                        .syntaxError, "\(path): \(skipped) line(s) are not cookies and were skipped"))
            }
            for cookie in cookies {
                guard let line = try? cookie.netscapeLine() else { continue }
                engine.enqueue(.cookies(.set(line)) { _ in })
            }
        } catch {
            warn(error)
        }
    }

    private func warn(_ warning: SatchelError) {
        for monitor in configuration.eventMonitors { monitor.sessionDidWarn(warning) }
    }
}
