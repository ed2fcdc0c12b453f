// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Synchronization
import Testing

@testable import Transport

/// Downloads, resumes, big streamed bodies, cross-origin redirects, retries and timeouts
/// against the test servers' fast loopback server.
@Suite(.hangGuard)
struct SessionLoopbackTests {
    let servers: TestServers

    init() throws {
        servers = try TestServers.shared()
    }

    /// Leaves `count` bytes of 0xEE as the partial file of a download of `path` to
    /// `destination`, with a resume record carrying `entityTag` (none when `nil`).
    private func leavePartial(_ count: Int, of path: String, entityTag: String?, for destination: String) throws {
        try Data(repeating: 0xEE, count: count).write(
            to: URL(fileURLWithPath: ResumeData.partialPath(for: destination)))
        guard let entityTag else { return }
        let resolved = servers.fast.appendingPathComponent(path).absoluteString
        try ResumeData(url: resolved, entityTag: entityTag, lastModified: nil).store(for: destination)
    }

    /// 17 MB: past two of the synced download's writeback steps (`DownloadSink.writebackStep`).
    @Test func downloadWritesTheWholeFileAndLeavesNoPartial() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("download.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let progress = RecordingMonitor()
        let result = try await session.download("large/17000000", to: destination) { update in
            progress.events.withLock { $0.append("\(update.downloadedBytes)/\(update.expectedDownloadBytes ?? -1)") }
        }
        #expect(result.fileSize == 17_000_000 && result.resumedFrom == 0)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<17_000_000))
        #expect(!FileManager.default.fileExists(atPath: ResumeData.partialPath(for: destination)))
        #expect(!FileManager.default.fileExists(atPath: ResumeData.recordPath(for: destination)))
        #expect(progress.events.withLock { $0.last } == "17000000/17000000")
    }

    @Test func aCutDownloadIsRetriedFromTheBytesOnDisk() async throws {
        // The server cuts every response after 1.2 MB: the download needs two resumes.
        let monitor = RecordingMonitor()
        var retry = RetryPolicy()
        retry.exponentialBackoffScale = 0.01
        let session = try SessionSupport.session(servers.fast, retry: retry) { $0.eventMonitors = [monitor] }
        let destination = SessionSupport.temporaryPath("cut.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let result = try await session.download("large/3000000?cut=1200000", to: destination)
        #expect(result.resumedFrom == 2_400_000)
        #expect(result.metrics.retryCount == 2)
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<3_000_000))
        #expect(monitor.events.withLock { $0 }.filter { $0.hasPrefix("retry") }.count == 2)
    }

    @Test func aCancelledDownloadResumesWithRangeAndIfRange() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("cancelled.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        let url = "large/4000000?pace_ms=20&slice=65536"
        let holder = Mutex<Task<DownloadResponse, any Error>?>(nil)
        let first = Task {
            try await session.download(url, to: destination) { update in
                if update.downloadedBytes >= 500_000 { holder.withLock { $0?.cancel() } }
            }
        }
        holder.withLock { $0 = first }
        let cancelled = await first.result
        #expect((try? cancelled.get()) == nil)
        guard case let .failure(error as SatchelError) = cancelled else { Issue.record("not a SatchelError"); return }
        #expect(error.code == .cancelled)
        #expect(!FileManager.default.fileExists(atPath: destination))
        let stored = try #require(ResumeData.stored(for: destination))
        #expect(stored.bytesOnDisk >= 500_000 && stored.bytesOnDisk < 4_000_000)
        #expect(stored.record.entityTag == "\"large-4000000\"")

        let resumed = try await session.download(url, to: destination)
        #expect(resumed.resumedFrom == stored.bytesOnDisk)
        #expect(resumed.request.headerFields[.range] == "bytes=\(stored.bytesOnDisk)-")
        #expect(resumed.request.headerFields[.ifRange] == "\"large-4000000\"")
        #expect(
            Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<4_000_000))
    }

    @Test func aChangedResourceRestartsTheDownloadCleanly() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("changed.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        // A partial file from another version of the resource (its ETag no longer matches).
        try leavePartial(1000, of: "large/5000", entityTag: "\"old-version\"", for: destination)
        let result = try await session.download("large/5000", to: destination)
        #expect(result.request.headerFields[.ifRange] == "\"old-version\"")
        #expect(result.response.status.code == 200)
        #expect(result.resumedFrom == 0)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<5000))
    }

    @Test func aCorruptResumeRecordStartsOver() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("corrupt.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        try leavePartial(1000, of: "large/5000", entityTag: nil, for: destination)
        try Data("{\"url\": 42, \u{0}".utf8).write(to: URL(fileURLWithPath: ResumeData.recordPath(for: destination)))
        let result = try await session.download("large/5000", to: destination)
        #expect(result.request.headerFields[.range] == nil)
        #expect(result.resumedFrom == 0)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<5000))
    }

    @Test func aPartialFileLongerThanTheResourceStartsOverAfter416() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("oversized.bin")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        try leavePartial(9000, of: "large/5000", entityTag: "\"large-5000\"", for: destination)
        let result = try await session.download("large/5000", to: destination)
        #expect(result.response.status.code == 200)
        #expect(result.request.headerFields[.range] == nil)
        #expect(Array(try Data(contentsOf: URL(fileURLWithPath: destination))) == SessionSupport.largeBytes(0..<5000))
        #expect(!FileManager.default.fileExists(atPath: ResumeData.recordPath(for: destination)))
    }

    @Test func anUnacceptableStatusWritesNothing() async throws {
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("missing.bin")
        await #expect(throws: SatchelError.self) { _ = try await session.download("no-such-thing", to: destination) }
        #expect(!FileManager.default.fileExists(atPath: destination))
        #expect(!FileManager.default.fileExists(atPath: ResumeData.partialPath(for: destination)))
    }

    @Test func aLargeMultipartUploadOfUnknownLengthIsStreamedChunked() async throws {
        let session = try SessionSupport.session(servers.fast)
        let size = 64 << 20
        var form = MultipartFormData(boundary: try MultipartBoundary("satchel-test-boundary"))
        form.append("meta", name: "kind")
        try form.append(name: "data", filename: "data.bin", length: nil) { PatternStream(size: size) }
        let expected = try form.bytes(limit: size + 4096)
        let response = try await session.upload(.multipart(form), to: "discard?hash=1")
        #expect(response.value?["chunked"]?.boolValue == true)
        #expect(response.value?["bytes"]?.int64Value == Int64(expected.count))
        let digest = String(
            try VenvPython.execute("/usr/bin/sha256sum", ["-"], input: Array(expected)).output.prefix(64))
        #expect(response.value?["sha256"]?.stringValue == digest)
    }

    @Test func aFileUploadSendsContentLengthAndReportsProgress() async throws {
        let session = try SessionSupport.session(servers.fast)
        let path = SessionSupport.temporaryPath("upload.bin")
        try Data(SessionSupport.largeBytes(0..<2_000_000)).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let updates = RecordingMonitor()
        let response = try await session.upload(
            .file(path: path, contentType: .octetStream), to: "discard", method: .put
        ) { update in
            updates.events.withLock { $0.append("\(update.uploadedBytes)/\(update.expectedUploadBytes ?? -1)") }
        }
        #expect(response.value?["chunked"]?.boolValue == false)
        #expect(response.value?["bytes"]?.int64Value == 2_000_000)
        #expect(updates.events.withLock { $0.last } == "2000000/2000000")
    }

    @Test func crossOriginRedirectsDropCredentialsAndSameOriginKeepsThem() async throws {
        let session = try SessionSupport.session(servers.fast)
        let headers: HTTPFields = [
            .authorization: "Bearer secret", .cookie: "session=1", HTTPField.Name("X-Other")!: "kept",
        ]
        let other = servers.fastOtherOrigin.appendingPathComponent("echo-headers").absoluteString
        let cross = try await session.get("redirect-cross?to=\(other)&status=307", headers: headers)
        let crossed = try #require(cross.value?["headers"])
        #expect(crossed["authorization"] == nil && crossed["cookie"] == nil)
        #expect(crossed["x-other"]?.stringValue == "kept")
        let same = try await session.get("redirect-cross?to=/echo-headers&status=302", headers: headers)
        #expect(same.value?["headers"]?["authorization"]?.stringValue == "Bearer secret")
        #expect(same.value?["headers"]?["cookie"]?.stringValue == "session=1")
    }

    @Test func retryableStatusesAreRetriedWithRetryAfter() async throws {
        let monitor = RecordingMonitor()
        let session = try SessionSupport.session(servers.fast, retry: RetryPolicy()) { $0.eventMonitors = [monitor] }
        let key = UUID().uuidString
        let response = try await session.get("retry?key=\(key)&fail=2&status=503&retry_after=0")
        #expect(response.value?["attempt"]?.int64Value == 3)
        #expect(response.metrics.retryCount == 2)
        #expect(monitor.events.withLock { $0 }.filter { $0.hasPrefix("retry") } == ["retry 1", "retry 2"])
    }

    /// A session of the default configuration sends a request once, as Alamofire, AHC, curl
    /// and URLSession do; `.alamofire` turns their retries on in one line.
    @Test func sessionsDoNotRetryUnlessAsked() async throws {
        #expect(SessionConfiguration().retryPolicy == .disabled && RetryPolicy.alamofire == RetryPolicy())
        let plain = try Session(baseURL: servers.fast.absoluteString, registry: .standard())
        let key = UUID().uuidString
        let once = try await plain.result(for: SessionRequest(.get, "retry?key=\(key)&fail=1&status=503&retry_after=0"))
            .get()
        #expect(once.response.status.code == 503 && once.metrics.retryCount == 0)
        var configuration = SessionConfiguration()
        configuration.retryPolicy = .alamofire
        let retrying = try Session(
            baseURL: servers.fast.absoluteString, configuration: configuration, registry: .standard())
        let again = try await retrying.result(
            for: SessionRequest(.get, "retry?key=\(UUID().uuidString)&fail=1&status=503&retry_after=0")
        ).get()
        #expect(again.response.status.code == 200 && again.metrics.retryCount == 1)
    }

    @Test func postsAndDisabledPoliciesAreNotRetried() async throws {
        let retrying = try SessionSupport.session(servers.fast, retry: RetryPolicy())
        let key = UUID().uuidString
        let post = try await retrying.result(
            for: SessionRequest(.post, "retry?key=\(key)&fail=1&status=503&retry_after=0")
        ).get()
        #expect(post.response.status.code == 503 && post.metrics.retryCount == 0)
        let disabled = try SessionSupport.session(servers.fast, retry: .disabled)
        let other = UUID().uuidString
        let get = try await disabled.result(
            for: SessionRequest(.get, "retry?key=\(other)&fail=1&status=503&retry_after=0")
        ).get()
        #expect(get.error?.code == .unacceptableStatusCode && get.metrics.retryCount == 0)
        let tooLong = try SessionSupport.session(servers.fast, retry: RetryPolicy())
        let third = UUID().uuidString
        let waited = try await tooLong.result(
            for: SessionRequest(.get, "retry?key=\(third)&fail=1&status=503&retry_after=3600")
        ).get()
        #expect(waited.response.status.code == 503 && waited.metrics.retryCount == 0)
    }

    /// `TransferTimeouts.request` covers the whole request: a retrying session stops when it
    /// passes, and says it was the whole timeout, not one attempt's.
    @Test func theRequestTimeoutCoversRetries() async throws {
        let session = try SessionSupport.session(servers.fast, retry: .alamofire)
        var stalled = SessionRequest(.get, "stall?body=10&max_s=10")
        stalled.timeouts = TransferTimeouts(connect: .seconds(5), request: .milliseconds(800), idle: nil)
        let timedOut = try await session.result(for: stalled).get()
        #expect(timedOut.error?.code == .timedOut && timedOut.metrics.retryCount == 0)
        #expect(
            timedOut.error?.message.contains("whole timeout of 800 ms (TransferTimeouts.request, covering retries)")
                == true, "\(String(describing: timedOut.error))")
        // A retry whose wait (Retry-After: 30) would end past the timeout is not made.
        var unavailable = SessionRequest(.get, "retry?key=\(UUID().uuidString)&fail=1&status=503&retry_after=30")
        unavailable.timeouts = TransferTimeouts(request: .seconds(20))
        let refused = try await session.result(for: unavailable).get()
        #expect(refused.response.status.code == 503 && refused.metrics.retryCount == 0)
    }

    @Test func theIdleTimeoutEndsAStalledBody() async throws {
        let session = try SessionSupport.session(servers.fast)
        var request = SessionRequest(.get, "stall?body=10&max_s=10")
        request.timeouts = TransferTimeouts(connect: .seconds(5), request: nil, idle: .milliseconds(1500))
        let response = try await session.result(for: request).get()
        #expect(response.error?.code == .timedOut)
        #expect(response.error?.message.contains("idle") == true)
    }

    @Test func invalidatingCancelsTransfersAndRefusesNewOnes() async throws {
        let session = try SessionSupport.session(servers.fast)
        let stalled = session.task(for: SessionRequest(.get, "stall?body=10&max_s=10"))
        try await Task.sleep(for: .milliseconds(200))
        session.invalidateAndCancel()
        let response = await stalled.result
        #expect(response.error?.code == .cancelled)
        #expect(response.error?.message.contains("shut down") == true)
        let later = await session.result(for: SessionRequest(.get, "large/10"))
        #expect(later.error?.code == .cancelled)
        session.invalidateAndCancel()  // a second call returns at once
    }

    /// `shutdown()` ends the transfers in flight and returns; sixteen sessions shut down at once
    /// from the cooperative pool (of two threads here) all return, as no call blocks a thread.
    @Test func shutdownEndsTransfersWithoutBlocking() async throws {
        let sessions = try (0..<16).map { _ in try SessionSupport.session(servers.fast) }
        let stalled = sessions.map { $0.task(for: SessionRequest(.get, "stall?body=10&max_s=30")) }
        await withTaskGroup(of: Void.self) { group in
            for session in sessions { group.addTask { await session.shutdown() } }
        }
        for task in stalled {
            let response = await task.result
            #expect(response.error?.code == .cancelled, "\(String(describing: response.error))")
        }
        await sessions[0].shutdown()  // a second call returns at once
        sessions[0].invalidateAndCancel()  // and so does the blocking form after it
        #expect(await sessions[1].result(for: SessionRequest(.get, "large/10")).error?.code == .cancelled)
    }

    @Test func streamedBodiesApplyBackpressure() async throws {
        let session = try SessionSupport.session(servers.fast)
        let stream = try await session.bytes("large/8000000")
        var received = 0
        var matches = true
        for try await chunk in stream {
            if received < 2_000_000 { try await Task.sleep(for: .milliseconds(5)) }  // a slow consumer
            matches = matches && chunk == SessionSupport.largeBytes(received..<(received + chunk.count))
            received += chunk.count
        }
        #expect(received == 8_000_000)
        #expect(matches)
    }

    @Test func bodiesOverTheBodyLimitFailWithLimitExceeded() async throws {
        var limits = Limits.default
        limits.maxBodyBytes = 100_000
        let session = try Session(
            baseURL: servers.fast.absoluteString, configuration: SessionConfiguration(),
            registry: .standard(limits: limits))
        let declared = try await session.result(for: SessionRequest(.get, "large/2000000")).get()
        #expect(declared.error?.code == .limitExceeded)
        #expect(declared.error?.limit == "maxBodyBytes")
        let httpbin = try Session(
            baseURL: servers.httpbin.absoluteString, configuration: SessionConfiguration(),
            registry: .standard(limits: limits))
        let chunked = try await httpbin.result(for: SessionRequest(.get, "stream-bytes/100000?chunk_size=10000")).get()
        #expect(chunked.response.headerFields[.contentLength] == nil)
        #expect(chunked.error == nil || chunked.error?.code == .unacceptableContentType)
        let over = try await httpbin.result(for: SessionRequest(.get, "stream-bytes/100001?chunk_size=10000")).get()
        #expect(over.error?.code == .limitExceeded)
    }

    @Test func aStreamCanBeCancelled() async throws {
        let session = try SessionSupport.session(servers.fast)
        let stream = try await session.bytes("large/50000000?pace_ms=10&slice=65536")
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        stream.cancel()
        await #expect(throws: SatchelError.self) { while try await iterator.next() != nil {} }
    }
}

/// `size` bytes of the fast server's pattern, without a declared length.
final class PatternStream: BodyStream {
    let size: Int
    var position = 0
    init(size: Int) { self.size = size }
    var length: Int64? { nil }
    var isRewindable: Bool { true }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, size - position)
        for index in 0..<count { buffer[index] = TestServers.largeByte(at: position + index) }
        position += count
        return count
    }
    func rewind() throws { position = 0 }
}
