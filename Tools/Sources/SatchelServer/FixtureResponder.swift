// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Hummingbird
import Satchel

/// Hummingbird's side of the fixture server: reads a request (body bounded by
/// `Limits.maxBodyBytes`), hands it to ``FixtureEndpoints``, and writes the answer —
/// generated bodies in pieces, never whole in memory.
struct FixtureResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// The endpoints.
    let endpoints: FixtureEndpoints

    /// How many bytes a generated body is written in at a time.
    static let pieceSize = 64 * 1024

    func respond(to request: Request, context: BasicRequestContext) async throws -> Response {
        let headers = request.headers.map { MultipartPart.Header(name: $0.name.rawName, value: $0.value) }
        let limit = endpoints.configuration.limits.maxBodyBytes
        var answer: FixtureResponse
        do {
            let body = try await Self.collect(request.body, limit: limit)
            let fixtureRequest = FixtureRequest(
                method: request.method.rawValue, target: request.head.path ?? "/", headers: headers, body: .bytes(body))
            answer = endpoints.respond(to: fixtureRequest)
        } catch {
            answer = .problem(for: error, reading: "the request body")
        }
        if let delay = answer.delay { try await Task.sleep(for: delay) }
        return Self.response(answer, isHead: request.method == .head)
    }

    /// The whole request body, or ``SatchelError/Code/limitExceeded`` as soon as it passes
    /// `limit` bytes.
    static func collect(_ body: RequestBody, limit: Int) async throws -> [UInt8] {
        var bytes: [UInt8] = []
        for try await buffer in body {
            guard buffer.readableBytes <= limit - bytes.count else {
                throw SatchelError.limitExceeded("maxBodyBytes", limit, "a request body of more than \(limit) bytes")
            }
            buffer.withUnsafeReadableBytes { bytes.append(contentsOf: $0) }
        }
        return bytes
    }

    /// Hummingbird's response for a fixture answer; for HEAD the head alone, with the
    /// Content-Length the body would have had.
    static func response(_ answer: FixtureResponse, isHead: Bool) -> Response {
        var fields = HTTPFields()
        for header in answer.headers {
            if let name = HTTPField.Name(header.name) { fields.append(HTTPField(name: name, value: header.value)) }
        }
        let status = HTTPResponse.Status(code: answer.status)
        if isHead {
            if !answer.isChunked { fields[.contentLength] = String(answer.bodyCount) }
            return Response(status: status, headers: fields, body: ResponseBody())
        }
        switch answer.body {
        case .bytes(let bytes):
            return Response(status: status, headers: fields, body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
        case .generated(let range):
            let body = ResponseBody(contentLength: answer.isChunked ? nil : Int(range.count)) { writer in
                var offset = range.lowerBound
                var buffer = ByteBufferAllocator().buffer(capacity: pieceSize)
                let end = answer.cutAfter.map { min(range.upperBound, range.lowerBound + $0) } ?? range.upperBound
                while offset < end {
                    let count = Int(min(Int64(pieceSize), end - offset))
                    buffer.clear()
                    buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count) { raw in
                        DeterministicBytes.fill(
                            UnsafeMutableRawBufferPointer(rebasing: raw[0..<count]),
                            from: offset..<(offset + Int64(count)))
                        return count
                    }
                    try await writer.write(buffer)
                    offset += Int64(count)
                }
                // Throwing before the body is complete makes Hummingbird close the connection.
                if end < range.upperBound { throw DeliberateCut(afterBytes: end - range.lowerBound) }
                try await writer.finish(nil)
            }
            return Response(status: status, headers: fields, body: body)
        case .paced(let pieces, let interval):
            let body = ResponseBody(contentLength: answer.isChunked ? nil : Int(answer.bodyCount)) { writer in
                for (index, piece) in pieces.enumerated() {
                    if index > 0 { try await Task.sleep(for: interval) }
                    try await writer.write(ByteBuffer(bytes: piece))
                }
                try await writer.finish(nil)
            }
            return Response(status: status, headers: fields, body: body)
        }
    }
}

/// The error that ends a body cut on purpose (`X-Satchel-Cut-After`).
struct DeliberateCut: Error {
    /// The bytes of the body that were sent.
    let afterBytes: Int64
}
