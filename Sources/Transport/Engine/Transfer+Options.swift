import CSatchelCurl
import HTTPTypes
import SerializerRegistry

extension Transfer {
    /// libcurl's read buffer: large enough to move a loopback download at full speed.
    static let bufferSize = 256 * 1024

    /// Sets every option of this attempt on `handle` (a fresh or reset handle).
    /// - Throws: ``SatchelError`` when libcurl refuses an option.
    func configure(_ handle: EasyHandle, share: UnsafeMutableRawPointer?) throws(SatchelError) {
        self.handle = handle
        let me = Unmanaged.passUnretained(self).toOpaque()
        try handle.set(CURLOPT_URL, options.url)
        try handle.set(CURLOPT_NOSIGNAL, true)
        try handle.set(CURLOPT_ERRORBUFFER, pointer: UnsafeMutableRawPointer(errorBuffer))
        try handle.set(CURLOPT_BUFFERSIZE, Self.bufferSize)
        try handle.set(CURLOPT_FOLLOWLOCATION, false)  // the session follows redirects itself
        try handle.set(CURLOPT_SUPPRESS_CONNECT_HEADERS, true)
        try handle.set(CURLOPT_TCP_KEEPALIVE, true)

        try configureMethodAndBody(handle)
        try configureHeaders(handle)
        if options.acceptsCompressedResponses && options.request.headerFields[.acceptEncoding] == nil {
            try handle.set(CURLOPT_ACCEPT_ENCODING, "")  // every encoding this libcurl decodes
        }
        if options.handlesCookies, let share {
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

        let write = satchel_curl_easy_setopt_write_function
        guard write(handle.raw, CURLOPT_WRITEFUNCTION, Self.writeCallback) == CURLE_OK,
            write(handle.raw, CURLOPT_HEADERFUNCTION, Self.headerCallback) == CURLE_OK,
            satchel_curl_easy_setopt_progress_function(handle.raw, Self.progressCallback) == CURLE_OK
        else { throw SatchelError(.internal, "libcurl refused the transfer callbacks") }
        try handle.set(CURLOPT_WRITEDATA, pointer: me)
        try handle.set(CURLOPT_HEADERDATA, pointer: me)
        try handle.set(CURLOPT_XFERINFODATA, pointer: me)
        try handle.set(CURLOPT_NOPROGRESS, false)
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
        try handle.set(CURLOPT_UPLOAD_BUFFERSIZE, Self.bufferSize)
        let me = Unmanaged.passUnretained(self).toOpaque()
        guard satchel_curl_easy_setopt_read_function(handle.raw, Self.readCallback) == CURLE_OK,
            satchel_curl_easy_setopt_seek_function(handle.raw, Self.seekCallback) == CURLE_OK
        else { throw SatchelError(.internal, "libcurl refused the body callbacks") }
        try handle.set(CURLOPT_READDATA, pointer: me)
        try handle.set(CURLOPT_SEEKDATA, pointer: me)
    }

    private func configureHeaders(_ handle: EasyHandle) throws(SatchelError) {
        var list: UnsafeMutablePointer<curl_slist>?
        func add(_ line: String) {
            list = curl_slist_append(list, line)
        }
        for field in options.request.headerFields {
            // libcurl writes these itself from the body it is given.
            if field.name == .contentLength || field.name == .transferEncoding { continue }
            add(field.value.isEmpty ? "\(field.name.rawName);" : "\(field.name.rawName): \(field.value)")
        }
        if options.request.headerFields[.accept] == nil { add("Accept:") }  // no libcurl "*/*"
        add("Expect:")  // no 100-continue round trip, as NSURLSession
        headerList = list
        try handle.set(CURLOPT_HTTPHEADER, pointer: UnsafeMutableRawPointer(list))
    }
}
