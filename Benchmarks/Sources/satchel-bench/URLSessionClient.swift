// SPDX-License-Identifier: Apache-2.0
import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// FoundationNetworking's `URLSession` (libcurl underneath on Linux) as a reference peer, with
/// completion handlers, no cache, and `maximumConnections` connections per host.
final class URLSessionClient: TransportClient {
    private let server: URL
    private let session: URLSession

    /// A session for `server` with caching off.
    init(server: URL, maximumConnections: Int) {
        self.server = server
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.httpMaximumConnectionsPerHost = maximumConnections
        session = URLSession(configuration: configuration)
    }

    func download(_ name: String, to path: String) throws -> Int {
        let outcome = Outcome<Int>()
        let done = DispatchSemaphore(value: 0)
        session.downloadTask(with: server.appendingPathComponent(name)) { location, response, error in
            outcome.set(
                Result {
                    let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                    guard let location, error == nil, status == 200 else {
                        throw BenchmarkFailure.guardFailed(
                            "URLSession download: status \(status), \(String(describing: error))")
                    }
                    // The temporary file is deleted when this handler returns; keep it for the guard.
                    try? FileManager.default.removeItem(atPath: path)
                    try FileManager.default.moveItem(at: location, to: URL(fileURLWithPath: path))
                    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int ?? 0
                    guard size == TransportBenchmarks.bigSize else {
                        throw BenchmarkFailure.guardFailed("URLSession downloaded \(size) bytes")
                    }
                    return size
                })
            done.signal()
        }.resume()
        done.wait()
        return try outcome.get()
    }

    func upload(file path: String, to name: String) throws -> Int {
        var request = URLRequest(url: server.appendingPathComponent(name))
        request.httpMethod = "PUT"
        request.setValue("application/octet-stream", forHTTPHeaderField: "Content-Type")
        let outcome = Outcome<Int>()
        let done = DispatchSemaphore(value: 0)
        session.uploadTask(with: request, fromFile: URL(fileURLWithPath: path)) { _, response, error in
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            outcome.set(
                error == nil && status == 204
                    ? .success(status)
                    : .failure(
                        BenchmarkFailure.guardFailed(
                            "URLSession upload: status \(status), \(String(describing: error))")))
            done.signal()
        }.resume()
        done.wait()
        return try outcome.get()
    }

    func getRecords(_ name: String, count: Int, inFlight: Int) throws -> Int {
        let url = server.appendingPathComponent(name)
        let tally = Tally(count: count)
        let done = DispatchSemaphore(value: 0)
        let session = self.session
        @Sendable func start() {
            session.dataTask(with: url) { data, response, error in
                let record = data.flatMap { try? JSONDecoder().decode(APIRecord.self, from: $0) }
                let decoded = error == nil && (response as? HTTPURLResponse)?.statusCode == 200 && record != nil
                switch tally.finish(decoded: decoded) {
                case .startAnother: start()
                case .allDone: done.signal()
                case .wait: break
                }
            }.resume()
        }
        for _ in 0..<tally.claimFirst(inFlight) { start() }
        done.wait()
        let decoded = tally.decoded
        guard decoded == count else {
            throw BenchmarkFailure.guardFailed("URLSession: \(decoded) of \(count) bodies decoded")
        }
        return decoded
    }

    func getArray(_ name: String, count: Int) throws -> [APIRecord] {
        let url = server.appendingPathComponent(name)
        var records: [APIRecord] = []
        for _ in 0..<count {
            let outcome = Outcome<[APIRecord]>()
            let done = DispatchSemaphore(value: 0)
            session.dataTask(with: url) { data, response, error in
                outcome.set(
                    Result {
                        guard let data, error == nil, (response as? HTTPURLResponse)?.statusCode == 200 else {
                            throw BenchmarkFailure.guardFailed("URLSession GET \(name) failed")
                        }
                        return try JSONDecoder().decode([APIRecord].self, from: data)
                    })
                done.signal()
            }.resume()
            done.wait()
            records = try outcome.get()
        }
        return records
    }

    func firstRecord(_ name: String) throws -> APIRecord {
        let outcome = Outcome<APIRecord>()
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: server.appendingPathComponent(name)) { data, _, error in
            outcome.set(
                Result {
                    guard let data, error == nil else {
                        throw BenchmarkFailure.guardFailed("URLSession GET \(name) failed")
                    }
                    return try JSONDecoder().decode(APIRecord.self, from: data)
                })
            done.signal()
        }.resume()
        done.wait()
        return try outcome.get()
    }
}

/// Counts started, finished and decoded requests of one `getRecords` run across callback threads.
final class Tally: Sendable {
    /// What a callback does after counting its response.
    enum Next { case startAnother, allDone, wait }

    private struct Counts { var started = 0, finished = 0, decoded = 0 }
    private let counts = Mutex(Counts())
    private let count: Int

    /// A tally for `count` requests.
    init(count: Int) { self.count = count }

    /// Claims up to `inFlight` requests to start; returns how many were claimed.
    func claimFirst(_ inFlight: Int) -> Int {
        counts.withLock { counts in
            counts.started = min(inFlight, count)
            return counts.started
        }
    }

    /// Counts one finished request and says whether to start another.
    func finish(decoded: Bool) -> Next {
        counts.withLock { counts in
            counts.finished += 1
            if decoded { counts.decoded += 1 }
            if counts.started < count {
                counts.started += 1
                return .startAnother
            }
            return counts.finished == count ? .allDone : .wait
        }
    }

    /// Requests that decoded to a JSON object.
    var decoded: Int { counts.withLock { $0.decoded } }
}
