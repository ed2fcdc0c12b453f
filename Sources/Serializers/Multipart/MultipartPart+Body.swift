// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartPart {
    /// Where a part's bytes come from.
    ///
    /// Streams are given as factories rather than as stream objects: the body is rewindable (a
    /// redirect or an auth challenge resends it) and a builder is a value that can be copied and
    /// shared across threads, so each pass over the body calls the factory for a fresh stream when
    /// it reaches the part, reads it to its end and releases it.
    public enum Body: Sendable {
        /// Bytes in memory (a form field's UTF-8 text, or data).
        case bytes([UInt8])

        /// A regular file, sized when the body stream is made and opened only when the part is
        /// read; it must keep that size until it has been sent.
        case file(path: String)

        /// A stream from a factory called each time the part is read.
        ///
        /// With a `length`, the stream must yield exactly that many bytes: one that ends early or
        /// has more (found by reading one byte past the end, which is not sent) fails the body.
        /// Without one, the body's length is unknown and it is sent chunked.
        case stream(length: Int64?, makeStream: @Sendable () throws -> any BodyStream)

        /// A nested multipart body (such as `multipart/mixed` inside `multipart/form-data`,
        /// RFC 2046 §5.1.1, RFC 7578 §4.3); its own progress, throttling and hashing options are
        /// ignored in favour of the enclosing body's.
        case multipart(MultipartFormData)
    }
}
