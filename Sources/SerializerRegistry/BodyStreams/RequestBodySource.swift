// SPDX-License-Identifier: Apache-2.0
/// A request body that is made afresh for every attempt (a retry, a 307/308 redirect), with the
/// Content-Type to send: what a multipart form is to the transport, which knows no format.
///
/// `MultipartFormData` is one; a plugin's own builder can be another.
public protocol RequestBodySource: Sendable {
    /// The Content-Type of the bodies this source makes (for multipart, with its boundary).
    var contentType: MediaType { get }

    /// A new stream over the whole body, positioned at its start.
    /// - Throws: ``SatchelError`` when the body cannot be produced (a file that went missing).
    func makeRequestBodyStream() throws(SatchelError) -> any BodyStream
}
