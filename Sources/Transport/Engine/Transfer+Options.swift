// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import HTTPTypes
import SerializerRegistry

extension Transfer {
    /// libcurl's read buffer for streams and downloads: large enough to move a loopback download
    /// at full speed.
    static let bufferSize = 256 * 1024
    /// libcurl's read buffer for a body collected in memory: libcurl's default.
    static let collectedBufferSize = 16 * 1024

    /// The options of an attempt without a body or pinning that are the same from one such
    /// attempt to the next (everything but the URL, the header list and the pointers to the
    /// transfer): a handle that carried one keeps them for the next, without `curl_easy_reset`
    /// and twenty `curl_easy_setopt` calls (about 12 000 instructions of the engine thread's
    /// 150 000 per small request).
    struct SharedOptions: Equatable {
        var method: HTTPRequest.Method
        var decompresses: Bool
        var handlesCookies: Bool
        var cookieShare: UnsafeMutableRawPointer?
        var connectTimeout: Duration?
        var requestTimeout: Duration?
        var verifiesPeer: Bool
        var verifiesHost: Bool
        var certificateAuthoritiesPath: String?
        var route: Route
        var mayMultiplex: Bool

        /// The shared options of `options`, or `nil` when an attempt sends a body, pins,
        /// authenticates or presents a client certificate (its handle is reset after it).
        init?(_ options: Options) {
            guard options.body == nil, options.security.pinningMode == .none, options.credential == nil,
                options.clientIdentity == nil
            else {
                return nil
            }
            method = options.request.method
            decompresses = options.acceptsCompressedResponses && !options.request.headerFields.contains(.acceptEncoding)
            handlesCookies = options.handlesCookies
            cookieShare = options.cookieShare
            connectTimeout = options.timeouts.connect
            requestTimeout = options.timeouts.request
            verifiesPeer = !options.security.allowInvalidCertificates
            verifiesHost = options.security.validatesDomainName
            certificateAuthoritiesPath = options.security.certificateAuthoritiesPath
            route = options.route
            mayMultiplex = options.mayMultiplex
        }
    }

    /// Sets every option of this attempt on `handle`: only those that differ from attempt to
    /// attempt when the handle's ``EasyHandle/sharedOptions`` are this attempt's, else all of
    /// them on the reset handle.
    /// - Throws: ``SatchelError`` when libcurl refuses an option.
    func configure(_ handle: EasyHandle) throws(SatchelError) {
        self.handle = handle
        downloadLimiter = options.route.rateLimit.download.map(RateLimiter.init)
        uploadLimiter = options.route.rateLimit.upload.map(RateLimiter.init)
        let shared = SharedOptions(options)
        if let shared, handle.sharedOptions == shared {
            return try configurePerAttempt(handle)
        }
        if handle.sharedOptions != nil { handle.reset() }
        try configurePerAttempt(handle)
        try handle.set(CURLOPT_NOSIGNAL, true)
        // A rate limit is kept between reads of the buffer: a buffer as large as a second of the
        // limit would let a whole small body through in one go.
        try handle.set(CURLOPT_BUFFERSIZE, options.bufferSize)
        handle.bufferSize = options.bufferSize

        try handle.set(CURLOPT_FOLLOWLOCATION, false)  // the session follows redirects itself
        try handle.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true)
        try handle.set(CURLOPT_TCP_KEEPALIVE, true)
        try handle.set(CURLOPT_MAXAGE_CONN, max(1, Int(options.route.idleConnectionLifetime.components.seconds)))
        if let upload = options.route.rateLimit.upload {
            try handle.set(CURLOPT_MAX_SEND_SPEED_LARGE, offset: Int64(upload))
        }
        if let download = options.route.rateLimit.download {
            try handle.set(CURLOPT_MAX_RECV_SPEED_LARGE, offset: Int64(download))
        }

        try configureMethodAndBody(handle)
        if options.acceptsCompressedResponses && !options.request.headerFields.contains(.acceptEncoding) {
            try handle.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding this libcurl decodes
        }
        if options.handlesCookies, let share = options.cookieShare {
            try handle.set(CURLOPT_SHARE, pointer: share)
            try handle.set(CURLOPT_COOKIEFILE, "")  // the cookie engine, without a file
        }
        if let connect = options.timeouts.connect {
            try handle.set(CURLOPT_CONNECTTIMEOUT_MS, connect.wholeMilliseconds)
        }
        if let whole = options.timeouts.request {
            try handle.set(CURLOPT_TIMEOUT_MS, whole.wholeMilliseconds)
        }
        try configureSecurity(handle)
        try configureRoute(handle)
        try handle.set(CURLOPT_HTTP_VERSION, options.route.httpVersion.curlVersion)
        // Wait for a connection being set up that may multiplex (HTTP/2) instead of opening another.
        try handle.set(CURLOPT_PIPEWAIT, options.mayMultiplex)
        if let credential = options.credential {
            try handle.set(CURLOPT_HTTPAUTH, credential.curlAuthentication)
            try handle.set(CURLOPT_USERNAME, credential.user)
            try handle.set(CURLOPT_PASSWORD, credential.password)
        }

        let write = satchel_curl_easy_setopt_write_function
        guard write(handle.raw, CURLOPT_WRITEFUNCTION, Self.writeCallback) == CURLE_OK,
            write(handle.raw, CURLOPT_HEADERFUNCTION, Self.headerCallback) == CURLE_OK,
            satchel_curl_easy_setopt_progress_function(handle.raw, Self.progressCallback) == CURLE_OK
        else { throw SatchelError(.internal, "libcurl refused the transfer callbacks") }
        try handle.set(CURLOPT_NOPROGRESS, false)
        handle.sharedOptions = shared
    }

    /// The options that differ from attempt to attempt: the URL, the header list, and the
    /// pointers to this transfer and its error buffer.
    private func configurePerAttempt(_ handle: EasyHandle) throws(SatchelError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        try handle.set(CURLOPT_URL, options.url)
        try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try configureHeaders(handle)
        if !options.route.hostOverrides.isEmpty { try configureHostOverrides(handle) }
        try handle.set(CURLOPT_WRITEDATA, pointer: me)
        try handle.set(CURLOPT_HEADERDATA, pointer: me)
        try handle.set(CURLOPT_XFERINFODATA, pointer: me)
    }

    private func configureMethodAndBody(_ handle: EasyHandle) throws(SatchelError) {
        let method = options.request.method
        guard let body = options.body else {
            switch method {
            case .get: try handle.set(CURLOPT_HTTPGET, true)
            case .head: try handle.set(CURLOPT_NOBODY, true)
            default: try handle.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
            }
            return
        }
        // UPLOAD pulls the body through the read callback for any method; CUSTOMREQUEST names it.
        try handle.set(CURLOPT_UPLOAD, true)
        try handle.set(CURLOPT_CUSTOMREQUEST, method.rawValue)
        try handle.set(CURLOPT_INFILESIZE_LARGE, offset: body.length ?? -1)  // -1: chunked
        try handle.set(
            CURLOPT_UPLOAD_BUFFERSIZE,
            min(Self.bufferSize, max(16 * 1024, (options.route.rateLimit.upload ?? .max) / 16)))
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard satchel_curl_easy_setopt_read_function(handle.raw, Self.readCallback) == CURLE_OK,
            satchel_curl_easy_setopt_seek_function(handle.raw, Self.seekCallback) == CURLE_OK
        else { throw SatchelError(.internal, "libcurl refused the body callbacks") }
        try handle.set(CURLOPT_READDATA, pointer: me)
        try handle.set(CURLOPT_SEEKDATA, pointer: me)
    }

    private func configureHeaders(_ handle: EasyHandle) throws(SatchelError) {
        var list: UnsafeMutablePointer<curl_slist>?
        for field in options.request.headerFields {
            // libcurl writes these itself from the body it is given.
            if field.name == .contentLength || field.name == .transferEncoding { continue }
            list = Self.append(field.name.rawName, field.value, to: list)
        }
        // No libcurl "*/*" when the request names no Accept.
        if !options.request.headerFields.contains(.accept) { list = Self.append("Accept:", to: list) }
        if !options.sendsExpectContinue {
            list = Self.append("Expect:", to: list)  // no 100-continue round trip, as NSURLSession
        }
        if let headerList { curl_slist_free_all(headerList) }  // a first handle refused the attempt
        headerList = list
        try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(list))
    }

    /// Appends the line `name: value` to `list`, or `name;` for an empty value (libcurl's way
    /// to send a field without a value), built in place: this runs for every header of every
    /// attempt, on the engine thread.
    private static func append(
        _ name: String, _ value: String, to list: UnsafeMutablePointer<curl_slist>?
    ) -> UnsafeMutablePointer<curl_slist>? {
        var name = name
        var value = value
        return name.withUTF8 { name in
            value.withUTF8 { value in
                withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + value.count + 3) { line in
                    var end = line.initialize(fromContentsOf: name)
                    if value.isEmpty {
                        line[end] = UInt8(ascii: ";")
                        end += 1
                    } else {
                        line[end] = UInt8(ascii: ":")
                        line[end + 1] = UInt8(ascii: " ")
                        end = line[(end + 2)...].initialize(fromContentsOf: value)
                    }
                    line[end] = 0
                    return line.withMemoryRebound(to: CChar.self) { curl_slist_append(list, $0.baseAddress) }
                }
            }
        }
    }

    /// Appends a fixed line such as `Expect:` (a field libcurl must not send) to `list`.
    private static func append(
        _ line: StaticString, to list: UnsafeMutablePointer<curl_slist>?
    )
        -> UnsafeMutablePointer<curl_slist>?
    {
        UnsafeRawPointer(line.utf8Start).withMemoryRebound(to: CChar.self, capacity: line.utf8CodeUnitCount + 1) {
            curl_slist_append(list, $0)
        }
    }
}
