// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Synchronization

/// A part's bytes pulled from a caller's `satchel_read_source`.
final class CallbackSource: @unchecked Sendable {
    // Safe to share: the header makes a multipart builder (and so its sources) one thread's at
    // a time; `hasBeenRead` is behind a mutex all the same.

    let declaredLength: Int64?
    private let source: satchel_read_source
    private let userdata: PluginUserdata
    private let hasBeenRead = Mutex(false)

    /// Copies a caller's source struct (its version already checked by `Arguments.versioned`).
    init(_ source: satchel_read_source) throws {
        _ = try Arguments.required(source.read, "source->read")
        guard source.length >= -1 else {
            throw SatchelError(.invalidArgument, "source->length \(source.length) is negative")
        }
        declaredLength = source.length == -1 ? nil : source.length
        self.source = source
        userdata = PluginUserdata(source.userdata, destroy: source.destroy)
    }

    /// A stream from the start of the source: the first one reads on, later ones rewind first.
    func makeStream() throws -> any BodyStream {
        let mustRewind = hasBeenRead.withLock { read in
            defer { read = true }
            return read
        }
        let stream = CallbackBodyStream(self)
        if mustRewind { try stream.rewind() }
        return stream
    }

    fileprivate func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let read = source.read, let base = buffer.baseAddress else { return 0 }
        let count = read(userdata.pointer, base.assumingMemoryBound(to: UInt8.self), buffer.count)
        guard count >= 0 else { throw SatchelError(.io, "the part's read callback failed") }
        guard count <= buffer.count else {
            throw SatchelError(.io, "the part's read callback returned \(count) bytes for a buffer of \(buffer.count)")
        }
        return Int(count)
    }

    fileprivate var isRewindable: Bool { source.rewind != nil }

    /// Whether the source has been read and has no rewind callback, so a new pass cannot read it.
    var cannotRewind: Bool { !isRewindable && hasBeenRead.withLock { $0 } }

    fileprivate func rewind() throws {
        guard let rewind = source.rewind else {
            throw SatchelError(.io, "the part's source cannot rewind (its rewind callback is NULL)")
        }
        guard rewind(userdata.pointer) == 0 else { throw SatchelError(.io, "the part's rewind callback failed") }
    }
}

/// A ``BodyStream`` over a ``CallbackSource``.
final class CallbackBodyStream: BodyStream {
    private let source: CallbackSource

    init(_ source: CallbackSource) {
        self.source = source
    }

    var length: Int64? { source.declaredLength }
    var isRewindable: Bool { source.isRewindable }
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int { try source.read(into: buffer) }
    func rewind() throws { try source.rewind() }
}
