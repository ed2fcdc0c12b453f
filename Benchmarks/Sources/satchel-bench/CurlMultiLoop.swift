// SPDX-License-Identifier: Apache-2.0
import CCurlBaseline

/// The libcurl multi loop in C (`CCurlBaseline`): one multi handle, `inFlight` easy handles
/// re-added after each response so their connections stay alive, each body parsed by json-c.
final class CurlMultiLoop {
    private let loop: OpaquePointer

    /// Sets up the loop for `url`; `nil` when libcurl cannot.
    init?(url: String, inFlight: Int) {
        guard let loop = satchel_bench_curl_loop_create(url, Int32(inFlight)) else { return nil }
        self.loop = loop
    }

    deinit {
        satchel_bench_curl_loop_destroy(loop)
    }

    /// Runs `count` GETs; fails unless every one was a 200 with a `bodySize`-byte JSON object.
    func run(count: Int, bodySize: Int) throws -> Int {
        var bytes: Int64 = 0
        let decoded = satchel_bench_curl_loop_run(loop, count, &bytes)
        guard decoded == count, bytes == Int64(count * bodySize) else {
            throw BenchmarkFailure.guardFailed(
                "libcurl multi loop: \(decoded) of \(count) bodies decoded, \(bytes) bytes")
        }
        return decoded
    }
}
