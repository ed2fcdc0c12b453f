// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry

extension Transfer {
    /// Sets the route: a unix socket, else the proxy options — none for
    /// ``ProxyPolicy/environment`` (libcurl reads the variables itself), an empty proxy for
    /// ``ProxyPolicy/direct``, else the proxy with its own credential, bypass list and CA file.
    func configureRoute(_ handle: EasyHandle) throws(SatchelError) {
        if let path = options.route.unixSocketPath {
            try handle.set(CURLOPT_UNIX_SOCKET_PATH, path)
            // libcurl 7.88 would connect to a proxy (the environment's too) instead of the socket.
            try handle.set(CURLOPT_PROXY, "")
            return
        }
        switch options.route.proxy {
        case .environment:
            break
        case .direct:
            try handle.set(CURLOPT_PROXY, "")
        case .through(let proxy):
            try handle.set(CURLOPT_PROXY, proxy.url)
            if let credential = proxy.credential {
                try handle.set(CURLOPT_PROXYAUTH, credential.curlAuthentication)
                try handle.set(CURLOPT_PROXYUSERNAME, credential.user)
                try handle.set(CURLOPT_PROXYPASSWORD, credential.password)
            }
            if !proxy.bypass.isEmpty { try handle.set(CURLOPT_NOPROXY, proxy.bypass.joined(separator: ",")) }
            if let path = proxy.certificateAuthoritiesPath {
                try handle.set(CURLOPT_PROXY_CAINFO, path)
                try handle.set(CURLOPT_PROXY_CAPATH, nil as String?)
            }
        }
    }

    /// Sets the `--resolve` and `--connect-to` lists (per attempt: each attempt owns its lists,
    /// which a reused handle must not keep pointing at after the attempt that made them).
    func configureHostOverrides(_ handle: EasyHandle) throws(SatchelError) {
        for list in overrideLists { curl_slist_free_all(list) }
        overrideLists = []
        for (option, resolves) in [(CURLOPT_RESOLVE, true), (CURLOPT_CONNECT_TO, false)] {
            var list: UnsafeMutablePointer<curl_slist>?
            for override in options.route.hostOverrides {
                let isResolve: Bool
                switch override.target {
                case .addresses: isResolve = true
                case .endpoint: isResolve = false
                }
                if isResolve == resolves { list = curl_slist_append(list, override.curlLine) }
            }
            if let list { overrideLists.append(list) }
            try handle.set(option, pointer: list.map { UnsafeMutableRawPointer($0) })
        }
    }
}
