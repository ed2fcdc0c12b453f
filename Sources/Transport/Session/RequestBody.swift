// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A request body given as such rather than built from parameters by a request serializer.
///
/// Every case is streamed to libcurl: nothing is copied whole into memory, a file or multipart
/// body of any size is sent in constant memory, with `Content-Length` when the size is known
/// and chunked otherwise. Every case is a value or a `Sendable` factory: a body that is read as it
/// is sent (a multipart form, a stream) is made afresh for each attempt, so a retry or a 307/308
/// redirect sends it whole again and no caller's stream is shared between threads.
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// Bytes in memory.
    case bytes([UInt8], contentType: MediaType?)
    /// A file, read as it is sent.
    case file(path: String, contentType: MediaType?)
    /// A body made afresh for every attempt by a ``RequestBodySource``: a multipart form
    /// (`MultipartFormData`, whose Content-Type carries the boundary), a batch
    /// (`HTTPBatchRequest`), ``stream(contentType:_:)``'s factory, or your own.
    case source(any RequestBodySource)
    /// A body written from an async sequence while it is sent, chunked; sent once.
    case chunks(BodyChunks, contentType: MediaType?)

    /// A multipart form or any other ``RequestBodySource`` (``source(_:)``).
    ///
    /// ```swift
    /// var form = MultipartFormData()
    /// try form.append(fileAt: "/var/tmp/video.mp4", name: "video")
    /// let response = try await session.upload(.multipart(form), to: "videos")
    /// ```
    public static func multipart(_ form: any RequestBodySource) -> RequestBody {
        .source(form)
    }

    /// A body read from a ``BodyStream`` that `make` creates for every attempt (the first send,
    /// a retry, a 307/308 redirect); a factory that cannot make another throws, and the request
    /// is then sent once.
    ///
    /// ```swift
    /// let body = RequestBody.stream(contentType: .plainText) { ByteBodyStream(Array("hello".utf8)) }
    /// ```
    /// - Parameters:
    ///   - contentType: The Content-Type to send.
    ///   - make: Makes the stream, positioned at its start.
    public static func stream(
        contentType: MediaType = .octetStream, _ make: @escaping @Sendable () throws(SatchelError) -> any BodyStream
    ) -> RequestBody {
        .source(BodyStreamFactory(contentType: contentType, make: make))
    }

    /// A fresh stream for one attempt and the Content-Type to send.
    /// - Throws: ``SatchelError`` when the file cannot be opened, a source cannot make the body
    ///   again, or a body written from an async sequence is asked for a second time.
    func makeStream(attempt: Int) throws -> (stream: (any BodyStream)?, contentType: MediaType?) {
        switch self {
        case .none:
            return (nil, nil)
        case let .bytes(bytes, contentType):
            return (ByteBodyStream(bytes), contentType)
        case let .file(path, contentType):
            return (try FileBodyStream(path: path), contentType)
        case let .source(source):
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
        if case .chunks = self { return false }
        return true
    }

    /// Whether there is a body.
    var isEmpty: Bool {
        if case .none = self { return true }
        return false
    }
}

/// ``RequestBody/stream(contentType:_:)``'s source: a caller's factory of body streams.
private struct BodyStreamFactory: RequestBodySource {
    let contentType: MediaType
    let make: @Sendable () throws(SatchelError) -> any BodyStream

    func makeRequestBodyStream() throws(SatchelError) -> any BodyStream {
        try make()
    }
}
