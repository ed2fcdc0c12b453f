// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry

/// One libcurl easy handle, with typed option setters. Used only by the thread holding its engine's wheel.
final class EasyHandle {
    /// The `CURL *`.
    let raw: UnsafeMutableRawPointer
    /// What the handle's options were last set for, when the next attempt with the same
    /// ``Transfer/SharedOptions`` may keep them; `nil` when they must be reset first.
    var sharedOptions: Transfer.SharedOptions?
    /// The receive buffer size set on the handle, 0 before the first; libcurl refuses another
    /// once the handle has transferred.
    var bufferSize = 0

    /// Makes a handle, or `nil` when libcurl cannot allocate one.
    init?() {
        _ = CurlGlobal.initialised
        guard let raw = curl_easy_init() else { return nil }
        self.raw = raw
    }

    deinit { curl_easy_cleanup(raw) }

    /// Clears every option so the handle can carry another transfer (connections stay cached
    /// in the multi handle).
    func reset() {
        sharedOptions = nil
        // libcurl 7.88 (Debian 12) leaks the CURLOPT_COOKIEFILE list on curl_easy_reset
        // (curl/curl#10694, fixed in 8.0 by #10709); clearing the option first frees it. The
        // cookies themselves live in the session's share handle and stay.
        _ = satchel_curl_easy_setopt_string(raw, CURLOPT_COOKIEFILE, nil)
        curl_easy_reset(raw)
    }

    func set(_ option: CURLoption, _ value: Int) throws(SatchelError) {
        try check(satchel_curl_easy_setopt_long(raw, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(SatchelError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, offset value: Int64) throws(SatchelError) {
        try check(satchel_curl_easy_setopt_offset(raw, option, curl_off_t(value)), option)
    }

    /// Sets a string option; libcurl copies the string.
    func set(_ option: CURLoption, _ value: String?) throws(SatchelError) {
        let code =
            value.map { satchel_curl_easy_setopt_string(raw, option, $0) }
            ?? satchel_curl_easy_setopt_string(raw, option, nil)
        try check(code, option)
    }

    func set(_ option: CURLoption, pointer value: UnsafeMutableRawPointer?) throws(SatchelError) {
        try check(satchel_curl_easy_setopt_pointer(raw, option, value), option)
    }

    /// Sets a blob option; libcurl copies the bytes.
    func set(_ option: CURLoption, blob bytes: [UInt8]) throws(SatchelError) {
        var copy = bytes
        let code = copy.withUnsafeMutableBytes { buffer in
            var blob = curl_blob(data: buffer.baseAddress, len: buffer.count, flags: UInt32(CURL_BLOB_COPY))
            return satchel_curl_easy_setopt_blob(raw, option, &blob)
        }
        try check(code, option)
    }

    func long(_ info: CURLINFO) -> Int {
        var value = 0
        return satchel_curl_easy_getinfo_long(raw, info, &value) == CURLE_OK ? value : 0
    }

    func offset(_ info: CURLINFO) -> Int64 {
        var value: curl_off_t = 0
        return satchel_curl_easy_getinfo_offset(raw, info, &value) == CURLE_OK ? Int64(value) : 0
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard satchel_curl_easy_getinfo_string(raw, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(SatchelError) {
        guard code != CURLE_OK else { return }
        throw SatchelError(
            .internal, "libcurl refused option \(option.rawValue): \(String(cString: curl_easy_strerror(code)))")
    }
}
