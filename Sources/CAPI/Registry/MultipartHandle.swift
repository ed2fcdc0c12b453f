// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

/// The object behind a `satchel_multipart *`: a ``MultipartFormData`` being built, then the
/// body stream reading it.
final class MultipartHandle: CHandle {
    static let parameterName = "multipart"

    /// The parts so far.
    var form: MultipartFormData
    /// The body being read; set by the first read, which freezes the parts.
    var stream: MultipartBodyStream?
    /// The Content-Type as a C string.
    let contentType: CBuffer
    /// The sources of the callback parts, in order, to refuse a rewind that one cannot follow.
    var callbackSources: [CallbackSource] = []

    init(_ form: MultipartFormData) {
        self.form = form
        contentType = CBuffer(form.contentType.description)
    }

    /// Adds a part, unless reading has begun.
    func add(_ append: (inout MultipartFormData) throws -> Void) throws {
        guard stream == nil else {
            throw SatchelError(.misuse, "the body is being read; parts can no longer be added")
        }
        try append(&form)
    }
}
