// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A request body given as such rather than built from parameters by a request serializer.
///
/// Every case is streamed to libcurl: nothing is copied whole into memory, a file or multipart
/// body of any size is sent in constant memory, with `Content-Length` when the size is known
/// and chunked otherwise.
public enum RequestBody: @unchecked Sendable {
    // @unchecked: `stream` holds a `BodyStream`, a class with a read position; a session reads
    // it from one transfer at a time (attempts of one request run one after another), and the
    // caller hands it over by passing it in.

    /// No body.
    case none
    /// Bytes in memory.
    case bytes([UInt8], contentType: MediaType?)
    /// A file, read as it is sent.
    case file(path: String, contentType: MediaType?)
    /// Any body stream. It is rewound to resend the body after a 307/308 redirect or for a
    /// retry; a stream that cannot rewind is sent once.
    case stream(any BodyStream, contentType: MediaType?)
    /// A body made afresh for every attempt: a multipart form (`MultipartFormData`, whose
    /// Content-Type carries the boundary) or any other ``RequestBodySource``.
    case multipart(any RequestBodySource)
    /// A body written from an async sequence while it is sent, chunked; sent once.
    case chunks(BodyChunks, contentType: MediaType?)

    /// A fresh stream for one attempt and the Content-Type to send; `attempt` > 0 rewinds a
    /// caller's stream.
    /// - Throws: ``SatchelError`` when the file cannot be opened or the stream cannot rewind.
    func makeStream(attempt: Int) throws -> (stream: (any BodyStream)?, contentType: MediaType?) {
        switch self {
        case .none:
            return (nil, nil)
        case let .bytes(bytes, contentType):
            return (ByteBodyStream(bytes), contentType)
        case let .file(path, contentType):
            return (try FileBodyStream(path: path), contentType)
        case let .stream(stream, contentType):
            if attempt > 0 {
                guard stream.isRewindable else {
                    throw SatchelError(
                        .invalidArgument, "the request body stream cannot rewind, so it cannot be sent again")
                }
                try stream.rewind()
            }
            return (stream, contentType)
        case let .multipart(source):
            return (try source.makeRequestBodyStream(), source.contentType)
        case let .chunks(chunks, contentType):
            guard attempt == 0 else {
                throw SatchelError(
                    .invalidArgument, "a request body written from an async sequence cannot be sent again")
            }
            return (BodyPipe(chunks), contentType)
        }
    }

    /// Whether the body can be sent more than once (for retries and 307/308 redirects).
    var canResend: Bool {
        switch self {
        case let .stream(stream, _): stream.isRewindable
        case .chunks: false
        default: true
        }
    }

    /// Whether there is a body.
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }
}
