import CSatchelCurl
import SerializerRegistry

extension Transfer {
    /// Sets the proxy options: none for ``ProxyPolicy/environment`` (libcurl reads the
    /// variables itself), an empty proxy for ``ProxyPolicy/direct``, else the proxy with its
    /// own credential, bypass list and CA file.
    func configureProxy(_ handle: EasyHandle) throws(SatchelError) {
        switch options.proxy {
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
}
