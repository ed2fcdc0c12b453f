// SPDX-License-Identifier: Apache-2.0
// A tiny driver for profiling the transport's per-request cost (valgrind callgrind, perf):
// `count` keep-alive GETs of `url`, each decoded, by Satchel's Session or by the C multi loop.
//
//   transport-probe satchel|c|ahc URL COUNT [IN_FLIGHT [SWITCHES]]
//
// `ahc`: async-http-client 1.37's `execute`, `body.collect(upTo:)` and `JSONDecoder` into the
// same struct as Satchel's `typed` switch, configured as in satchel-bench (a connection per
// request in flight).
//
// Instructions per request: run under callgrind with two counts (200 and 1200) and divide the
// difference by 1000, which cancels start-up. Valgrind 3.19 cannot read Swift 6.3's DWARF 5, so
// profile a copy without debug info (symbols stay):
//   strip --strip-debug -o /tmp/probe transport-probe
//   valgrind --tool=callgrind --separate-threads=no /tmp/probe satchel $URL 1200
//   callgrind_annotate --inclusive=yes callgrind.out.<pid>
// SWITCHES (comma-separated, Satchel only): nocookies, nocompress, shortaccept, typed (each body
// decoded into a `Codable` struct by `decode(_:)` rather than into a `Value`), h1 (HTTP/1.1
// only) or h2 (HTTP/2 when offered, the default), ca=PATH (trust this CA file; for
// scripts/measure-http2), cache=DIR (an HTTPCache in DIR only, entries up to 2 GiB) or memcache
// (an HTTPCache in memory only), stream (each body read as a stream and counted, not decoded;
// the cache switches and stream are for scripts/measure-cache), array (with typed: each body is a
// JSON array of such records, decoded into `[Record]`), beside=URL (while the GETs run, one more
// task of the same session GETs URL over and over, each decoded into `[Record]`: how a large
// body's decoding weighs on the session's other transfers; for scripts/measure-engine-stall).
import AsyncHTTPClient
import CCurlBaseline
import Dispatch
import Foundation
import Glibc
import HTTPTypes
import NIOFoundationCompat
import Satchel

let arguments = CommandLine.arguments
guard arguments.count >= 4, let count = Int(arguments[3]), count > 0 else {
    print("usage: transport-probe satchel|c|ahc URL COUNT [IN_FLIGHT [SWITCHES]]")
    exit(64)
}
let url = arguments[2]
let inFlight = arguments.count > 4 ? Int(arguments[4]) ?? 1 : 1
let started = ContinuousClock.now
var decoded = 0
switch arguments[1] {
case "c":
    guard let loop = satchel_bench_curl_loop_create(url, Int32(inFlight)) else { exit(1) }
    var bytes: Int64 = 0
    decoded = satchel_bench_curl_loop_run(loop, count, &bytes)
    satchel_bench_curl_loop_destroy(loop)
case "ahc":
    // As satchel-bench configures it: as many connections as requests in flight (AHC's default
    // is 8 per host, where Satchel's session opens one per transfer), kept 300 s, decompression
    // off.
    var configuration = HTTPClient.Configuration()
    configuration.connectionPool = .init(
        idleTimeout: .seconds(300), concurrentHTTP1ConnectionsPerHostSoftLimit: max(8, inFlight))
    configuration.decompression = .disabled
    let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    decoded = runConcurrently(count: count, inFlight: inFlight) {
        guard let response = try? await client.execute(HTTPClientRequest(url: url), timeout: .seconds(30)),
            let body = try? await response.body.collect(upTo: 1 << 20)
        else { return false }
        return (try? JSONDecoder().decode(Record.self, from: body)) != nil
    }
    try? client.syncShutdown()
default:
    let switches = arguments.count > 5 ? arguments[5].split(separator: ",").map(String.init) : []
    var configuration = SessionConfiguration()
    configuration.handlesCookies = !switches.contains("nocookies")
    configuration.acceptsCompressedResponses = !switches.contains("nocompress")
    configuration.httpVersion = switches.contains("h1") ? .http1_1 : .http2WhenOffered
    if let ca = switches.first(where: { $0.hasPrefix("ca=") }) {
        configuration.securityPolicy = .certificateAuthorities(path: String(ca.dropFirst(3)))
    }
    if let directory = switches.first(where: { $0.hasPrefix("cache=") }) {
        configuration.cache = try HTTPCache(
            memoryCapacity: 0, directory: String(directory.dropFirst(6)), diskCapacity: 4 << 30,
            maximumEntrySize: 2 << 30)
    } else if switches.contains("memcache") {
        configuration.cache = try HTTPCache(memoryCapacity: 64 << 20)
    }
    let session = try Session(configuration: configuration)
    // shortaccept: a one-type Accept instead of the registry's short list.
    let headers: HTTPFields = switches.contains("shortaccept") ? [.accept: "application/json"] : [:]
    let typed = switches.contains("typed")
    if switches.contains("stream") {
        // The body as it comes, counted, not decoded (never whole in memory).
        decoded = runConcurrently(count: count, inFlight: inFlight) {
            guard let stream = try? await session.bytes(url, headers: headers) else { return false }
            var bytes = 0
            do {
                for try await chunk in stream { bytes += chunk.count }
            } catch {
                return false
            }
            return stream.response.status.code == 200 && bytes > 0
        }
        session.invalidateAndCancel()
        break
    }
    let array = switches.contains("array")
    let beside = switches.first(where: { $0.hasPrefix("beside=") }).map { String($0.dropFirst(7)) }
    let background = beside.map { large in
        Task.detached {
            var bodies = 0
            while !Task.isCancelled, let records = try? await session.get(large).decode([Record].self),
                !records.isEmpty
            {
                bodies += 1
            }
            return bodies
        }
    }
    decoded = runConcurrently(count: count, inFlight: inFlight) {
        let result = try? await session.get(url, headers: headers)
        if typed && array { return (try? result?.decode([Record].self))?.isEmpty == false }
        if typed { return (try? result?.decode(Record.self)) != nil }
        guard result?.response.status.code == 200, case .object? = result?.value else { return false }
        return true
    }
    if let background {
        background.cancel()
        let bodies = blocking { await background.value }
        print("beside: \(bodies) large bodies decoded")
    }
    session.invalidateAndCancel()
}
let elapsed = ContinuousClock.now - started
let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
let rate = Double(count) / seconds
// Whole requests per second, or tenths below 100 (large bodies).
let shown = rate < 100 ? "\((rate * 10).rounded() / 10)" : "\(Int(rate))"
print("\(arguments[1]): \(decoded)/\(count) decoded, \(shown) req/s")
exit(decoded == count ? 0 : 1)

/// `small.json`'s record, for the `typed` switch.
struct Record: Decodable {
    struct Owner: Decodable {
        var login: String
        var id: Int
        var site_admin: Bool
    }
    struct Item: Decodable {
        var sku: String
        var quantity: Int
        var price: Double
    }
    var id: Int
    var name: String
    var active: Bool
    var score: Double
    var parent: String?
    var tags: [String]
    var owner: Owner
    var items: [Item]
    var updated_at: String
}

/// The result of `operation`, waited for from synchronous code.
func blocking(_ operation: @escaping @Sendable () async -> Int) -> Int {
    let done = DispatchSemaphore(value: 0)
    let box = Box()
    Task.detached {
        box.set(await operation())
        done.signal()
    }
    done.wait()
    return box.get()
}

/// Runs `request` `count` times from `inFlight` tasks at once and blocks until all are done;
/// returns how many succeeded.
func runConcurrently(count: Int, inFlight: Int, _ request: @escaping @Sendable () async -> Bool) -> Int {
    let done = DispatchSemaphore(value: 0)
    let box = Box()
    Task.detached {
        let total = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<inFlight {
                let share = count / inFlight + (worker < count % inFlight ? 1 : 0)
                group.addTask {
                    var good = 0
                    for _ in 0..<share where await request() { good += 1 }
                    return good
                }
            }
            var total = 0
            for await good in group { total += good }
            return total
        }
        box.set(total)
        done.signal()
    }
    done.wait()
    return box.get()
}
