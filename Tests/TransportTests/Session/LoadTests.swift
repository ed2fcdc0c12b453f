// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Load and faults on loopback: many requests in flight against `satchel serve` and against
/// servers that cut bodies, stall, or send a wrong Content-Length. Every request must end with
/// its expected value or a precise error; nothing may hang or crash. Resident memory is sampled
/// during the run and must stay flat when the suite runs alone in its own process
/// (`SATCHEL_MEMORY_PROBE=1`, `scripts/measure-transport-memory`); in the shared test process
/// other suites allocate too, so there it is only printed.
@Suite(.serialized, .hangGuard)
struct LoadTests {
    /// One kind of request in the mix and the outcome it must have.
    struct Probe: Sendable {
        var name: String
        var request: SessionRequest
        var check: @Sendable (Result<DataResponse, SatchelError>) -> Bool
    }

    /// Growth of resident memory allowed over the second half of a run (the first half warms up
    /// connections, allocator arenas and caches).
    static let allowedGrowth = 8 << 20

    @Test func twoThousandRequestsWithSixtyFourInFlightAgainstSatchelServe() async throws {
        let server = try ServeProcess()
        let session = try SessionSupport.session(try #require(URL(string: server.url)))
        var cut = SessionRequest(.get, "bytes/300000")
        cut.headers[HTTPField.Name("X-Satchel-Cut-After")!] = "100000"
        let probes: [Probe] = [
            Probe(name: "json", request: SessionRequest(.get, "json")) {
                $0.error == nil && $0.response?.serializerName == "json" && $0.response?.value?.objectValue != nil
            },
            Probe(name: "echo", request: SessionRequest(.post, "echo", parameters: ["who": "load-test"])) {
                $0.error == nil && $0.response?.value?.canonicalJSON().contains("load-test") == true
            },
            Probe(name: "png", request: SessionRequest(.get, "png")) {
                $0.error == nil && $0.response?.serializerName == "image"
            },
            Probe(name: "xml", request: SessionRequest(.get, "xml")) {
                $0.error == nil && $0.response?.serializerName == "xml"
            },
            Probe(name: "plist", request: SessionRequest(.get, "plist-binary")) {
                $0.error == nil && $0.response?.serializerName == "plist"
            },
            Probe(name: "bytes", request: SessionRequest(.get, "bytes/65536")) {
                $0.response?.response.status.code == 200 && $0.response?.body.count == 65536
            },
            Probe(name: "404", request: SessionRequest(.get, "status/404")) {
                $0.response?.response.status.code == 404 && $0.error?.code == .unacceptableStatusCode
            },
            Probe(name: "cut mid-body", request: cut) {
                $0.error?.code == .networkFailure && $0.error?.message.contains("remaining") == true
            },
        ]
        let failures = try await Self.run(probes, count: 2000, inFlight: 64, session: session)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
    }

    @Test func faultyServersEndEveryRequestWithAValueOrAPreciseError() async throws {
        let servers = try TestServers.shared()
        let session = try SessionSupport.session(servers.fast) {
            $0.timeouts = TransferTimeouts(connect: .seconds(5), request: .seconds(20), idle: .milliseconds(1500))
        }
        let probes: [Probe] = [
            Probe(name: "whole body", request: SessionRequest(.get, "large/20000")) {
                $0.response?.response.status.code == 200 && $0.response?.body == SessionSupport.largeBytes(0..<20000)
            },
            Probe(name: "closed mid-body", request: SessionRequest(.get, "large/200000?cut=50000")) {
                $0.error?.code == .networkFailure && $0.error?.message.contains("150000 bytes remaining") == true
            },
            Probe(name: "stalled", request: SessionRequest(.get, "stall?body=10&max_s=20")) {
                $0.error?.code == .timedOut && $0.error?.message.contains("idle") == true
            },
            Probe(
                name: "Content-Length too large", request: SessionRequest(.get, "wrong-length?declared=100&actual=10")
            ) {
                $0.error?.code == .networkFailure && $0.error?.message.contains("90 bytes remaining") == true
            },
            Probe(name: "Content-Length too small", request: SessionRequest(.get, "wrong-length?declared=5&actual=50"))
            {
                // The body is the declared 5 bytes (`"xxxx`), which JSON then finds cut short.
                $0.response?.body.count == 5 && $0.error?.code == .truncatedInput
            },
            Probe(
                name: "Content-Length not a number", request: SessionRequest(.get, "wrong-length?length=abc&actual=5")
            ) {
                $0.error?.code == .networkFailure && $0.error?.message.contains("Content-Length") == true
            },
            Probe(name: "two Content-Lengths", request: SessionRequest(.get, "wrong-length?length=5,7&actual=7")) {
                $0.error?.code == .networkFailure
                    && $0.error?.message.contains("conflicting Content-Length values (5, 7)") == true
            },
            Probe(name: "a repeated Content-Length", request: SessionRequest(.get, "wrong-length?length=7,7&actual=7"))
            {
                $0.error == nil && $0.response?.value == "xxxxx"
            },
        ]
        let failures = try await Self.run(probes, count: 840, inFlight: 64, session: session)
        #expect(failures.isEmpty, "\(failures.prefix(5))")
        let after = try await session.result(for: SessionRequest(.get, "large/1000")).get()
        #expect(after.response.status.code == 200 && after.body == SessionSupport.largeBytes(0..<1000))
    }

    /// Many at once on one session (issue 39): 3 000 GETs with 500 in flight, each answered with
    /// its own query: none lost, none swapped, none hung (scripts/measure-many-at-once runs
    /// 10 000 with 1 000 in flight beside async-http-client, with descriptors and memory).
    @Test func threeThousandRequestsWithFiveHundredInFlight() async throws {
        let server = try ServeProcess()
        let session = try SessionSupport.session(try #require(URL(string: server.url)))
        defer { session.invalidateAndCancel() }
        let count = 3000
        let inFlight = 500
        let answered = await withTaskGroup(of: (Int, String?).self) { group in
            var next = 0
            var answered = [String?](repeating: nil, count: count)
            func launch() {
                let index = next
                next += 1
                group.addTask {
                    let response = try? await session.get("get?i=\(index)")
                    return (index, response?.value?["query"]?["i"]?.stringValue)
                }
            }
            while next < inFlight { launch() }
            while let (index, value) = await group.next() {
                answered[index] = value
                if next < count { launch() }
            }
            return answered
        }
        let wrong = answered.indices.filter { answered[$0] != "\($0)" }
        #expect(
            wrong.isEmpty, "\(wrong.count) of \(count) requests not answered with their own query: \(wrong.prefix(5))")
    }

    /// Sends `count` requests cycling through `probes`, `inFlight` at a time, and returns a
    /// description of each request whose outcome failed its check.
    static func run(_ probes: [Probe], count: Int, inFlight: Int, session: Session) async throws -> [String] {
        var failures: [String] = []
        var samples: [Int] = []
        try await withThrowingTaskGroup(of: (Int, Result<DataResponse, SatchelError>).self) { group in
            var next = 0
            func launch() {
                let index = next
                let probe = probes[index % probes.count]
                group.addTask { (index, await session.result(for: probe.request)) }
                next += 1
            }
            while next < min(inFlight, count) { launch() }
            var done = 0
            while let (index, response) = try await group.next() {
                done += 1
                let probe = probes[index % probes.count]
                if !probe.check(response) {
                    failures.append(
                        "#\(index) \(probe.name): status \(response.response?.response.status.code ?? 0), \(response.response?.body.count ?? 0) bytes, \(response.error.map(String.init(describing:)) ?? "no error")"
                    )
                }
                if done % (count / 4) == 0 { samples.append(try ProcessMemory.resident) }
                if next < count { launch() }
            }
        }
        print(
            "load: \(count) requests, \(inFlight) in flight, resident MiB at each quarter: \(samples.map { $0 >> 20 })")
        if ProcessInfo.processInfo.environment["SATCHEL_MEMORY_PROBE"] == "1", samples.count == 4 {
            #expect(
                samples[3] - samples[1] < allowedGrowth,
                "resident memory grew from \(samples[1] >> 20) to \(samples[3] >> 20) MiB")
        }
        return failures
    }
}
