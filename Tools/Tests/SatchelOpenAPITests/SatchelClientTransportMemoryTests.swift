// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import OpenAPIRuntime
import Satchel
import SatchelOpenAPI
import SatchelTestSupport
import Testing

/// 1 GiB up and 1 GiB down through `SatchelClientTransport` in constant memory, against the
/// fast test server (`PUT /discard` counts and drops the body, `/large/N` streams N bytes).
/// Peak RSS is a property of the whole process, so these run alone in their own test process
/// (`scripts/measure-transport-memory`, called by `scripts/test`), enabled by
/// `SATCHEL_MEMORY_PROBE=1`.
@Suite(
    .serialized, .hangGuard,
    .enabled(if: ProcessInfo.processInfo.environment["SATCHEL_MEMORY_PROBE"] == "1"))
struct SatchelClientTransportMemoryTests {
    static let gibibyte = 1 << 30
    static let budget = 16 << 20

    let servers: TestServers
    let transport = SatchelClientTransport(configuration: .init(timeout: .seconds(240)))

    init() throws {
        servers = try TestServers.shared()
    }

    func send(
        _ method: HTTPRequest.Method, _ path: String, body: HTTPBody? = nil
    ) async throws -> (
        HTTPResponse, HTTPBody?
    ) {
        try await transport.send(
            HTTPRequest(method: method, scheme: nil, authority: nil, path: path), body: body, baseURL: servers.fast,
            operationID: "memory")
    }

    @Test func aOneGibibyteStreamedUploadRunsInConstantMemory() async throws {
        _ = try await send(.get, "/retry-count")  // warm up
        let chunk = [UInt8](repeating: 7, count: 256 << 10)
        let chunks = AsyncStream<ArraySlice<UInt8>> { continuation in
            for _ in 0..<(Self.gibibyte / chunk.count) { continuation.yield(chunk[...]) }
            continuation.finish()
        }
        try ProcessMemory.resetPeak()
        let before = try ProcessMemory.peakResident
        let (response, body) = try await send(.put, "/discard", body: HTTPBody(chunks, length: .unknown))
        let answer = try await String(collecting: body ?? HTTPBody(), upTo: 4096)
        let peak = try ProcessMemory.peakResident
        print("openapi-memory upload: \(answer), peak RSS \(peak >> 20) MiB (\(before >> 20) MiB before)")
        #expect(response.status == .ok)
        #expect(answer.contains("\"bytes\": \(Self.gibibyte)") || answer.contains("\"bytes\":\(Self.gibibyte)"))
        #expect(peak - before < Self.budget)
    }

    @Test func aOneGibibyteDownloadRunsInConstantMemory() async throws {
        _ = try await send(.get, "/retry-count")
        try ProcessMemory.resetPeak()
        let before = try ProcessMemory.peakResident
        let (response, body) = try await send(.get, "/large/\(Self.gibibyte)")
        var received = 0
        for try await chunk in try #require(body) { received += chunk.count }
        let peak = try ProcessMemory.peakResident
        print("openapi-memory download: \(received) bytes, peak RSS \(peak >> 20) MiB (\(before >> 20) MiB before)")
        #expect(response.status == .ok)
        #expect(received == Self.gibibyte)
        #expect(peak - before < Self.budget)
    }
}
