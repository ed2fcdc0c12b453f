// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Testing

@testable import Transport

/// Request bodies written from an async sequence while they are sent, against the fast test
/// server's `/ingest` (which opens the gate (key, I) as line I arrives) and `/discard`.
@Suite(.hangGuard)
struct BodyChunksTests {
    struct Ingested: Decodable, Equatable {
        var lines: Int
        var bytes: Int
        var chunked: Bool
        var sha256: String
    }

    struct Failure: Error {}

    func hex(_ digest: [UInt8]) -> String {
        digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// Whether the server has line `index` of the body sent with `key`: asks until it answers
    /// 204 (each ask waits up to 10 s; on a loaded machine, with sanitizers and every suite in
    /// parallel, the upload's task can take longer than that to be scheduled).
    static func awaitLine(_ index: Int, key: String, session: Session) async -> Bool {
        for _ in 0..<8 {
            let answer = await session.result(for: SessionRequest(.get, "await-gate?key=\(key)&i=\(index)"))
            if answer.response?.response.status.code == 204 { return true }
            if answer.response?.response.status.code != 408 { return false }
        }
        return false
    }

    let servers: TestServers
    let session: Session

    init() throws {
        servers = try TestServers.shared()
        session = try SessionSupport.session(servers.fast)
    }

    /// The producer writes line I+1 only once the server has line I: a body collected before it
    /// is sent, or sent only when libcurl's buffer fills, would never get past the first wait.
    /// A pipe with nothing buffered would block (a transfer pauses), and a plain read of it is
    /// a misuse, never a short body; once written, the bytes are there, then the end.
    @Test func aPipeWithNothingBufferedWouldBlock() async throws {
        let (writes, continuation) = AsyncStream<[UInt8]>.makeStream()
        let pipe = BodyPipe(BodyChunks { write in for await chunk in writes { try await write(chunk) } })
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try pipe.readAvailable(into: $0) } == .wouldBlock)
        let misuse = #expect(throws: SatchelError.self) {
            _ = try buffer.withUnsafeMutableBytes { try pipe.read(into: $0) }
        }
        #expect(misuse?.code == .misuse)
        let woken = AsyncStream<Void>.makeStream()
        pipe.connect { woken.continuation.yield() }
        continuation.yield([7, 8, 9])
        continuation.finish()
        for await _ in woken.stream { break }  // the write wakes the waiting reader
        #expect(try buffer.withUnsafeMutableBytes { try pipe.readAvailable(into: $0) } == .bytes(3))
        #expect(buffer[0..<3] == [7, 8, 9])
        pipe.close()
    }

    @Test func eachChunkIsSentBeforeTheNextIsWritten() async throws {
        let key = UUID().uuidString
        let session = session
        let body = BodyChunks { write in
            for index in 0..<5 {
                try await write(Array("line \(index)\n".utf8))
                guard await Self.awaitLine(index, key: key, session: session) else { throw Failure() }
            }
        }
        let response = try await session.upload(.chunks(body, contentType: .plainText), to: "ingest?key=\(key)")
        let ingested = try response.decode(Ingested.self)
        let text = (0..<5).map { "line \($0)\n" }.joined()
        #expect(ingested.lines == 5)
        #expect(ingested.bytes == text.utf8.count)
        #expect(ingested.chunked)
        #expect(ingested.sha256 == hex(SHA256.hash(Array(text.utf8))))
    }

    /// Far more than the 1 MiB the pipe buffers, from an `AsyncStream`: every byte, in order.
    @Test func aLargeSequenceArrivesWhole() async throws {
        let (stream, input) = AsyncStream.makeStream(of: [UInt8].self)
        var expected: [UInt8] = []
        for index in 0..<(8 << 4) {
            let chunk = [UInt8](repeating: UInt8(index % 251), count: 64 * 1024 + index)
            expected += chunk
            input.yield(chunk)
        }
        input.finish()
        let response = try await session.upload(
            .chunks(BodyChunks(stream), contentType: .octetStream), to: "discard?hash=1")
        #expect(response.value?["bytes"] == .integer(Int64(expected.count)))
        #expect(response.value?["chunked"] == true)
        #expect(response.value?["sha256"] == .string(hex(SHA256.hash(expected))))
    }

    @Test func aFailingSequenceFailsTheRequestInsteadOfSendingAShortBody() async throws {
        let body = BodyChunks { write in
            try await write(Array("partial".utf8))
            throw Failure()
        }
        do {
            _ = try await session.upload(.chunks(body, contentType: nil), to: "discard")
            Issue.record("a body whose sequence failed was sent as complete")
        } catch {
            #expect(error.code == .io)
            #expect(error.message.contains("sequence failed"), "\(error.message)")
        }
    }

    @Test func aBodyThatWasSentCannotFollowA307() async throws {
        let body = BodyChunks { write in try await write(Array("once".utf8)) }
        let target = servers.fast.appendingPathComponent("discard").absoluteString
        do {
            _ = try await session.upload(
                .chunks(body, contentType: nil), to: "redirect-cross?status=307&to=\(target)")
            Issue.record("the body was sent twice")
        } catch {
            #expect(error.code == .invalidArgument)
            #expect(error.message.contains("307") && error.message.contains("cannot rewind"), "\(error.message)")
        }
    }

    /// Cancelling the request stops the producer: its next write throws.
    @Test func cancellingTheRequestStopsTheProducer() async throws {
        let key = UUID().uuidString
        let (stopped, stop) = AsyncStream.makeStream(of: Bool.self)
        let session = session
        let task = Task {
            try await session.upload(
                .chunks(
                    BodyChunks { write in
                        try await write(Array("first\n".utf8))
                        do {
                            while true {
                                try await Task.sleep(for: .milliseconds(20))
                                try await write(Array("more\n".utf8))
                            }
                        } catch {
                            stop.yield(true)
                            throw error
                        }
                    }, contentType: nil), to: "ingest?key=\(key)")
        }
        #expect(await Self.awaitLine(0, key: key, session: session))
        task.cancel()
        await #expect(throws: SatchelError.self) { _ = try await task.value }
        var iterator = stopped.makeAsyncIterator()
        #expect(await iterator.next() == true)
    }
}
