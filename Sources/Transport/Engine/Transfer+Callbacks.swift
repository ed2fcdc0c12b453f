// SPDX-License-Identifier: Apache-2.0
import CSatchelCurl
import SerializerRegistry

/// libcurl's callbacks. Each gets the transfer back from its `userdata` pointer (unretained:
/// the engine holds the transfer while libcurl may call back).
extension Transfer {
    static func from(_ pointer: UnsafeMutableRawPointer?) -> Transfer? {
        pointer.map { Unmanaged<Transfer>.fromOpaque($0).takeUnretainedValue() }
    }

    static let writeCallback: curl_write_callback = { data, size, count, userdata in
        guard let transfer = Transfer.from(userdata) else { return 0 }
        return transfer.received(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let headerCallback: curl_write_callback = { data, size, count, userdata in
        guard let transfer = Transfer.from(userdata) else { return 0 }
        return transfer.receivedHeader(UnsafeRawBufferPointer(start: data, count: size * count))
    }

    static let readCallback: curl_read_callback = { data, size, count, userdata in
        guard let transfer = Transfer.from(userdata), let data else { return Int(CURL_READFUNC_ABORT) }
        return transfer.send(into: UnsafeMutableRawBufferPointer(start: data, count: size * count))
    }

    static let seekCallback: curl_seek_callback = { userdata, offset, origin in
        guard let transfer = Transfer.from(userdata) else { return CURL_SEEKFUNC_FAIL }
        return transfer.seek(offset: Int64(offset), origin: origin)
    }

    static let progressCallback: curl_xferinfo_callback = {
        userdata, downloadTotal, downloaded, uploadTotal, uploaded in
        guard let transfer = Transfer.from(userdata) else { return 1 }
        return transfer.progressed(
            downloaded: Int64(downloaded), downloadTotal: Int64(downloadTotal), uploaded: Int64(uploaded),
            uploadTotal: Int64(uploadTotal))
    }

    static let prerequestCallback: curl_prereq_callback = { userdata, _, _, _, _ in
        guard let transfer = Transfer.from(userdata) else { return CURL_PREREQFUNC_ABORT }
        return transfer.checkPinnedCertificateChain() ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
    }

    /// A failing write: libcurl ends the transfer with CURLE_WRITE_ERROR and ``failure`` says why.
    private static let refused = 0

    private func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard failure == nil else { return Self.refused }
        if let challenge {  // a body: the challenge was not answered, it is the response
            self.challenge = nil
            do throws(SatchelError) {
                try begin(challenge)
            } catch {
                fail(error)
                return Self.refused
            }
        }
        guard response != nil else {
            fail(SatchelError(.networkFailure, "\(options.url): body bytes arrived before the response head"))
            return Self.refused
        }
        if let delay = downloadLimiter?.delay(for: bytes.count) {
            pauseForRate(delay)
            return Int(CURL_WRITEFUNC_PAUSE)
        }
        do {
            guard try sink.write(bytes) else {
                isPaused = true
                hasPaused = true
                return Int(CURL_WRITEFUNC_PAUSE)
            }
        } catch {
            fail(error)
            return Self.refused
        }
        return bytes.count
    }

    private func receivedHeader(_ line: UnsafeRawBufferPointer) -> Int {
        guard failure == nil else { return Self.refused }
        do {
            if let head = try headParser.take(line) {
                if head.status.code == 401, options.credential?.answersChallenges == true {
                    challenge = head  // libcurl may answer it and read another response
                    headParser.expectAnotherResponse()
                } else {
                    challenge = nil
                    try begin(head)
                }
            }
        } catch {
            fail(error)
            return Self.refused
        }
        return line.count
    }

    private func send(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        guard let body = options.body else { return 0 }
        if let delay = uploadLimiter?.delay(for: buffer.count) {
            pauseForRate(delay)
            return Int(CURL_READFUNC_PAUSE)
        }
        do {
            switch try body.readAvailable(into: buffer) {
            case .bytes(let count): return count
            case .end: return 0
            case .wouldBlock:
                // Paused until the stream's producer resumes the transfer (a BodyPipe's write).
                isPaused = true
                hasPaused = true
                return Int(CURL_READFUNC_PAUSE)
            }
        } catch {
            fail(error as? SatchelError ?? SatchelError(.io, "reading the request body failed: \(error)"))
            return Int(CURL_READFUNC_ABORT)
        }
    }

    private func seek(offset: Int64, origin: Int32) -> Int32 {
        guard let body = options.body, body.isRewindable, offset == 0, origin == SEEK_SET else {
            return CURL_SEEKFUNC_CANTSEEK
        }
        do {
            try body.rewind()
            return CURL_SEEKFUNC_OK
        } catch {
            fail(error as? SatchelError ?? SatchelError(.io, "rewinding the request body failed: \(error)"))
            return CURL_SEEKFUNC_FAIL
        }
    }

    /// Reports progress (throttled) and enforces the idle timeout. Non-zero aborts the transfer.
    private func progressed(downloaded: Int64, downloadTotal: Int64, uploaded: Int64, uploadTotal: Int64) -> Int32 {
        if failure != nil { return 1 }
        let now = ContinuousClock.now
        let moved = downloaded + uploaded
        if moved != lastActivityBytes || isPaused {
            lastActivityBytes = moved
            lastActivity = now
        } else if let idle = options.timeouts.idle, now - lastActivity > idle {
            fail(SatchelError(.timedOut, "\(options.url): no data moved for \(idle) (the idle timeout)"))
            return 1
        }
        guard let progress = options.progress else { return 0 }
        if let last = lastProgressReport, now - last < options.progressInterval { return 0 }
        lastProgressReport = now
        let offset = sink.initialOffset
        progress(
            TransferProgress(
                uploadedBytes: uploaded, expectedUploadBytes: uploadTotal > 0 ? uploadTotal : options.body?.length,
                downloadedBytes: offset + downloaded,
                expectedDownloadBytes: downloadTotal > 0 ? offset + downloadTotal : nil))
        return 0
    }
}
