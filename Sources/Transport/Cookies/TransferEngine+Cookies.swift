import CSatchelCurl
import Glibc
import SerializerRegistry

/// What a cookie command does to the store.
enum CookieOperation: Sendable {
    /// Nothing: the cookies are read.
    case read
    /// Adds or replaces a cookie (a libcurl cookie-list line).
    case set(String)
    /// Removes the cookies `predicate` selects.
    case remove(@Sendable (Cookie) -> Bool)
}

extension TransferEngine {
    /// Applies `operation` to the cookie share and returns the cookies after it, expired ones
    /// left out. Engine thread only.
    func cookies(after operation: CookieOperation) -> [Cookie] {
        guard let share, let handle = cookieJarHandle(share) else { return [] }
        switch operation {
        case .read:
            break
        case .set(let line):
            try? handle.set(CURLOPT_COOKIELIST, line)
        case .remove(let predicate):
            let kept = storedCookies(handle).filter { !predicate($0) }
            try? handle.set(CURLOPT_COOKIELIST, "ALL")
            for cookie in kept {
                if let line = try? cookie.netscapeLine() { try? handle.set(CURLOPT_COOKIELIST, line) }
            }
        }
        let now = Int64(time(nil))
        return storedCookies(handle).filter { ($0.expires ?? .max) > now }
    }

    /// The handle that reads and writes the share's cookies, made on first use.
    private func cookieJarHandle(_ share: UnsafeMutableRawPointer) -> EasyHandle? {
        if let cookieHandle { return cookieHandle }
        guard let handle = EasyHandle() else { return nil }
        do {
            try handle.set(CURLOPT_SHARE, pointer: share)
            try handle.set(CURLOPT_COOKIEFILE, "")
        } catch {
            return nil
        }
        cookieHandle = handle
        return handle
    }

    /// Every cookie in the store, expired ones included, in libcurl's order.
    private func storedCookies(_ handle: EasyHandle) -> [Cookie] {
        var list: UnsafeMutablePointer<curl_slist>?
        guard satchel_curl_easy_getinfo_list(handle.raw, CURLINFO_COOKIELIST, &list) == CURLE_OK else { return [] }
        defer { curl_slist_free_all(list) }
        var cookies: [Cookie] = []
        var item = list
        while let node = item {
            if let data = node.pointee.data, let cookie = Cookie(netscapeLine: String(cString: data)) {
                cookies.append(cookie)
            }
            item = node.pointee.next
        }
        return cookies
    }
}
