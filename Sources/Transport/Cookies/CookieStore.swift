// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import Dispatch
import Glibc
import HTTPTypes
import SerializerRegistry
import Synchronization

/// The cookies responses set and later requests carry back, for one session or shared by
/// several (AFNetworking's and URLSession's `HTTPCookieStorage`).
///
/// A session given no store makes its own, in memory. Give one store to several sessions and a
/// cookie set by a response to any of them goes with the next request of every one; give it a
/// ``CookieStorage/file(_:)`` and the next process finds the cookies again.
///
/// ```swift
/// let cookies = CookieStore(.file("/var/lib/app/cookies.txt"))
/// var configuration = SessionConfiguration()
/// configuration.cookieStore = cookies
/// let api = try Session(baseURL: "https://api.example.com", configuration: configuration)
/// let files = try Session(baseURL: "https://files.example.com", configuration: configuration)
/// for cookie in cookies.cookies() { print(cookie.domain, cookie.name, cookie.value) }
/// ```
///
/// The cookies live in libcurl's cookie engine (RFC 6265 parsing, domain and path matching,
/// public suffixes refused) inside a share whose locks let sessions on different threads use it
/// at once; the methods here are safe from any thread and return at once.
public final class CookieStore: @unchecked Sendable {
    // @unchecked: `share` is a libcurl share whose lock callbacks (over `locks`) make it usable
    // from any thread; the easy handle that reads and changes it sits behind `state`'s Mutex.

    /// What the lock guards.
    private struct State {
        /// The easy handle that reads and changes the share.
        var reader: EasyHandle?
        /// The `SameSite` of the cookies that had one (libcurl does not keep it).
        var sameSite: [Cookie.Key: Cookie.SameSite] = [:]
    }

    /// Where the cookies are kept besides memory.
    public let storage: CookieStorage
    /// The libcurl share that holds the cookies; `nil` when libcurl could not allocate one (the
    /// store then keeps nothing).
    let share: UnsafeMutableRawPointer?
    /// One mutex per kind of data libcurl locks in the share.
    private let locks: UnsafeMutablePointer<pthread_mutex_t>
    private let state: Mutex<State>
    /// Warnings from loading the file, not yet reported to a session's event monitors.
    private let pendingWarnings = Mutex<[SatchelError]>([])
    /// Writes the cookie file after responses set cookies, off the sessions' tasks.
    private let writer = DispatchQueue(label: "satchel.cookie-file")
    /// Whether a write is queued on `writer` and has not started.
    private let writeQueued = Mutex(false)

    /// Creates a store, loading the cookie file of a ``CookieStorage/file(_:)`` storage:
    /// expired cookies are dropped; a file that cannot be read, or lines that are not cookies,
    /// become a warning that the first session using the store hands to its event monitors
    /// (``EventMonitor/sessionDidWarn(_:)``).
    public init(_ storage: CookieStorage = .memory) {
        self.storage = storage
        let kinds = Int(CURL_LOCK_DATA_LAST.rawValue)
        locks = .allocate(capacity: kinds)
        for kind in 0..<kinds { pthread_mutex_init(locks + kind, nil) }
        share = Self.makeShare(locks: locks)
        var handle = share.flatMap { share in EasyHandle() }
        if let share, let reader = handle {
            do {
                try reader.set(CURLOPT_SHARE, pointer: share)
                try reader.set(CURLOPT_COOKIEFILE, "")
            } catch {
                handle = nil
            }
        }
        state = Mutex(State(reader: handle))
        load()
    }

    deinit {
        state.withLock { $0.reader = nil }
        // Every session using the store holds it, so no easy handle is attached any more; were
        // one still attached, the share and the locks are left alone rather than freed under it.
        guard share.map({ curl_share_cleanup($0) == CURLSHE_OK }) ?? true else { return }
        let kinds = Int(CURL_LOCK_DATA_LAST.rawValue)
        for kind in 0..<kinds { pthread_mutex_destroy(locks + kind) }
        locks.deallocate()
    }

    /// The cookies in the store, expired ones left out.
    public func cookies() -> [Cookie] {
        (try? change(saving: false, reading: true)) ?? []
    }

    /// The cookies a request to `url` would carry (domain, path and `Secure` matched as RFC
    /// 6265 §5.4 says; like libcurl, and browsers, `localhost`, `127.0.0.1` and `::1` count as
    /// secure contexts over plain HTTP).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a URL that is not absolute http(s).
    public func cookies(for url: String) throws(SatchelError) -> [Cookie] {
        let resolved = try ResolvedURL(url, relativeTo: nil)
        return cookies(for: resolved)
    }

    /// The cookies a request to `url` would carry.
    func cookies(for url: ResolvedURL) -> [Cookie] {
        let path = String(url.pathAndQuery.prefix { $0 != "?" })
        let secure = url.scheme == "https" || ["localhost", "127.0.0.1", "[::1]"].contains(url.host)
        return cookies().filter { $0.matches(host: url.host, path: path, secure: secure) }
    }

    /// Adds a cookie, or replaces the one with its name, domain and path; later requests to its
    /// domain carry it.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an empty name or domain, a path not
    ///   starting with `/`, or a tab, line end or `;` in a field; ``SatchelError/Code/io`` when
    ///   the cookie file cannot be written (the cookie is kept in memory).
    public func setCookie(_ cookie: Cookie) throws(SatchelError) {
        try setCookies([cookie])
    }

    /// Adds or replaces several cookies, writing the cookie file once.
    /// - Throws: as ``setCookie(_:)``; a malformed cookie sets none of them.
    /// - Complexity: libcurl looks for the cookie to replace among those of its domain, so
    ///   setting *n* cookies of one domain costs O(*n*²) comparisons.
    public func setCookies(_ cookies: [Cookie]) throws(SatchelError) {
        var lines: [String] = []
        for cookie in cookies { lines.append(try cookie.netscapeLine()) }
        try change(saving: true) { state in
            for line in lines { try? state.reader?.set(CURLOPT_COOKIELIST, line) }
            for cookie in cookies { state.sameSite[cookie.key] = cookie.sameSite }
        }
    }

    /// Removes the cookies `predicate` selects, such as those of one domain.
    /// - Throws: ``SatchelError/Code/io`` when the cookie file cannot be written (the cookies
    ///   are removed from memory).
    public func removeCookies(where predicate: (Cookie) -> Bool) throws(SatchelError) {
        try change(saving: true) { state in
            guard let handle = state.reader else { return }
            let all = Self.storedCookies(handle, sameSite: state.sameSite)
            let kept = all.filter { !predicate($0) }
            try? handle.set(CURLOPT_COOKIELIST, "ALL")
            for line in kept.compactMap({ try? $0.netscapeLine() }) { try? handle.set(CURLOPT_COOKIELIST, line) }
            for removed in all where predicate(removed) { state.sameSite[removed.key] = nil }
        }
    }

    /// Removes every cookie.
    /// - Throws: ``SatchelError/Code/io`` when the cookie file cannot be written.
    public func removeAllCookies() throws(SatchelError) {
        try change(saving: true) { state in
            try? state.reader?.set(CURLOPT_COOKIELIST, "ALL")
            state.sameSite = [:]
        }
    }

    /// Writes the cookies to the cookie file, if there is one, after a response set some: on
    /// the store's own queue, never on the caller's task (a disk write would hold a thread of
    /// the cooperative pool). Calls made while a write waits to start share it; the file ends
    /// with the last change all the same, as a write reads the cookies when it starts.
    /// - Parameter failed: Told when the file cannot be written (``SatchelError/Code/io``).
    func save(reportingTo failed: @escaping @Sendable (SatchelError) -> Void) {
        guard case .file = storage else { return }
        let queued = writeQueued.withLock { queued in
            defer { queued = true }
            return queued
        }
        guard !queued else { return }
        writer.async { [self] in
            writeQueued.withLock { $0 = false }
            do throws(SatchelError) {
                try change(saving: true)
            } catch {
                failed(error)
            }
        }
    }

    /// Waits until the cookie file holds every change made so far (the writes that responses'
    /// cookies queued). A session waits for them when it shuts down and when it is released.
    public func flush() {
        writer.sync {}
    }

    /// Returns once the cookie file holds every change made so far, as ``flush()`` does, without
    /// blocking the caller's thread.
    public func flushed() async {
        await withCheckedContinuation { continuation in writer.async { continuation.resume() } }
    }

    /// The warnings from loading the file, once: the first session to ask reports them.
    func takeWarnings() -> [SatchelError] {
        pendingWarnings.withLock { warnings in
            defer { warnings = [] }
            return warnings
        }
    }

    /// Applies `operation` to the store; with `saving`, writes the cookies after it to the
    /// cookie file, if there is one; with `reading`, returns them (else nothing), expired ones
    /// left out. All of it happens under the lock, so the file always ends with the last change
    /// of this process.
    /// - Throws: ``SatchelError/Code/io`` when the file cannot be written.
    @discardableResult
    private func change(
        saving: Bool, reading: Bool = false, _ operation: (inout State) -> Void = { _ in }
    ) throws(SatchelError) -> [Cookie] {
        let path: String? = if saving, case .file(let path) = storage { path } else { nil }
        let now = Int64(time(nil))
        return try state.withLock { state throws(SatchelError) in
            operation(&state)
            guard let handle = state.reader, reading || path != nil else { return [] }
            let cookies = Self.storedCookies(handle, sameSite: state.sameSite).filter { ($0.expires ?? .max) > now }
            if let path { try CookieFile.write(cookies, to: path) }
            return cookies
        }
    }

    /// Notes the `SameSite` of the cookies in a response's `Set-Cookie` fields, which libcurl
    /// stores without it; `url` is the request's (for a cookie's default domain and path).
    func noteSameSite(of fields: HTTPFields, from url: ResolvedURL) {
        let setCookies = fields[values: .setCookie]
        guard !setCookies.isEmpty else { return }
        let requestPath = String(url.pathAndQuery.prefix { $0 != "?" })
        state.withLock { state in
            for field in setCookies {
                guard
                    let (key, sameSite) = Cookie.sameSite(ofSetCookie: field, host: url.host, requestPath: requestPath)
                else { continue }
                state.sameSite[key] = sameSite
            }
        }
    }

    /// Loads the cookie file into the store, keeping its warnings for the first session.
    private func load() {
        guard case .file(let path) = storage else { return }
        do {
            let (cookies, skipped) = try CookieFile.read(path, now: Int64(time(nil)))
            if skipped > 0 {
                pendingWarnings.withLock {
                    $0.append(
                        SatchelError(.syntaxError, "\(path): \(skipped) line(s) are not cookies and were skipped"))
                }
            }
            try change(saving: false) { state in
                for line in cookies.compactMap({ try? $0.netscapeLine() }) {
                    try? state.reader?.set(CURLOPT_COOKIELIST, line)
                }
            }
        } catch {
            pendingWarnings.withLock { $0.append(error) }
        }
    }

    /// Every cookie in the store, expired ones included, in libcurl's order, with the
    /// `SameSite` noted for it.
    private static func storedCookies(_ handle: EasyHandle, sameSite: [Cookie.Key: Cookie.SameSite]) -> [Cookie] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard satchel_curl_easy_getinfo_list(handle.raw, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { curl_slist_free_all(list) }
        var cookies: [Cookie] = []
        var item = list
        while let node = item {
            if let data = node.pointee.data, var cookie = Cookie(netscapeLine: String(cString: data)) {
                cookie.sameSite = sameSite[cookie.key]
                cookies.append(cookie)
            }
            item = node.pointee.next
        }
        return cookies
    }

    /// A share of cookies whose lock callbacks take `locks[kind]`, or `nil`.
    private static func makeShare(locks: UnsafeMutablePointer<pthread_mutex_t>) -> UnsafeMutableRawPointer? {
        guard CurlGlobal.initialised == CURLE_OK, let share = curl_share_init() else { return nil }
        let lock: curl_lock_function = { _, kind, _, locks in
            _ = pthread_mutex_lock(locks!.assumingMemoryBound(to: pthread_mutex_t.self) + Int(kind.rawValue))
        }
        let unlock: curl_unlock_function = { _, kind, locks in
            _ = pthread_mutex_unlock(locks!.assumingMemoryBound(to: pthread_mutex_t.self) + Int(kind.rawValue))
        }
        guard satchel_curl_share_setopt_pointer(share, CURLSHOPT_USERDATA, locks) == CURLSHE_OK,
            satchel_curl_share_setopt_lock_function(share, lock) == CURLSHE_OK,
            satchel_curl_share_setopt_unlock_function(share, unlock) == CURLSHE_OK,
            satchel_curl_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)) == CURLSHE_OK
        else {
            curl_share_cleanup(share)
            return nil
        }
        return share
    }
}
