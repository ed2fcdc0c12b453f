// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Who drives the multi handle: a request alone on its session is driven by the thread that
/// asked for it; a stream, a request among others and a slow one hand the wheel to the engine
/// thread, and every one of them ends as it would on the engine thread alone.
@Suite(.hangGuard)
struct TransferEngineTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// One request after another: the callers lead (the engine thread may still hold the wheel
    /// for the first, so not every one is counted).
    @Test func requestsOneAfterAnotherAreLedByTheirCallers() async throws {
        let session = try SessionSupport.session(servers.fast)
        defer { session.invalidateAndCancel() }
        for index in 0..<20 {
            let response = try await session.get("echo-headers?i=\(index)")
            #expect(response.response.status.code == 200 && response.value != nil)
        }
        #expect(session.engine.ledTransfers.load(ordering: .relaxed) > 0)
    }

    /// A streamed body waits on its consumer's task: never led.
    @Test func streamsAreNotLed() async throws {
        let session = try SessionSupport.session(servers.fast)
        defer { session.invalidateAndCancel() }
        for _ in 0..<5 {
            var received = 0
            for try await chunk in try await session.bytes("large/100000") { received += chunk.count }
            #expect(received == 100_000)
        }
        #expect(session.engine.ledTransfers.load(ordering: .relaxed) == 0)
    }

    /// A response slower than the lead budget: the caller hands the wheel to the engine thread,
    /// which finishes it; a request started meanwhile, and one after, go through too.
    @Test func aSlowRequestIsHandedToTheEngineThread() async throws {
        let session = try SessionSupport.session(servers.httpbin)
        defer { session.invalidateAndCancel() }
        async let slow = session.get("delay/1")
        let quick = try await session.get("get?quick=1")
        #expect(quick.value?["args"]?["quick"]?.stringValue == "1")
        #expect(try await slow.response.status.code == 200)
        #expect(try await session.get("get?after=1").response.status.code == 200)
    }

    /// A caller cancelled while its transfer runs past the lead budget ends with `cancelled`,
    /// and a shutdown with such a transfer in flight ends it too.
    @Test func cancellationAndShutdownReachALedTransfer() async throws {
        let session = try SessionSupport.session(servers.fast)
        let task = Task { await session.result(for: SessionRequest(.get, "stall?body=10&max_s=10")) }
        try await Task.sleep(for: .milliseconds(100))
        task.cancel()
        #expect(await task.value.error?.code == .cancelled)
        let stalled = session.task(for: SessionRequest(.get, "stall?body=10&max_s=10"))
        try await Task.sleep(for: .milliseconds(100))
        await session.shutdown()
        #expect(await stalled.result.error?.code == .cancelled)
    }
}
