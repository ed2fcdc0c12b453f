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
    /// Why the body can no longer be read: a rewind failed, so the body is neither where it was
    /// nor at its start, and every later read fails with this cause.
    var rewindFailure: SatchelError?
    /// Refuses a second thread in the builder (`SATCHEL_E_MISUSE`).
    let use = ExclusiveUse("multipart builder")

    init(_ form: MultipartFormData) {
        self.form = form
        contentType = CBuffer(form.contentType.description)
    }

    /// Adds a part, unless reading has begun.
    func add(_ append: (inout MultipartFormData) throws -> Void) throws {
        try use.run("satchel_multipart_add") { () throws(SatchelError) in
            guard stream == nil else {
                throw SatchelError(.misuse, "the body is being read; parts can no longer be added")
            }
            do {
                try append(&form)
            } catch {
                throw error as? SatchelError
                    ?? SatchelError(.internal, "the part could not be added", underlying: error)
            }
        }
    }
}
