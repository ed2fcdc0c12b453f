// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// The object behind a `satchel_reader *`: a body fed in chunks, read by the registry's
/// serializer for its Content-Type — record by record for a record stream, else into one value
/// at the end — with the values ready to be taken.
final class ReaderHandle: CHandle {
    static let parameterName = "reader"

    /// How the body is read.
    private enum Mode {
        /// A record stream: each record is ready as it completes.
        case records(any RecordReader)
        /// A format read as it arrives; its value is ready at the end.
        case incremental(any IncrementalReader)
        /// A format read whole: the body is kept and decoded by the registry's dispatching
        /// serializer at the end (sniffed when there is no Content-Type, `nil`).
        case whole(Registry, MediaType?, [UInt8])
    }

    private var mode: Mode
    private let limits: Limits
    private var ready: [Value] = []
    private var nextReady = 0
    private var fed = 0
    private var isFinished = false
    /// The error that ended the body; every later feed or finish repeats it.
    private var failure: SatchelError?
    /// Refuses a second thread in the reader (`SATCHEL_E_MISUSE`).
    let use = ExclusiveUse("reader")

    /// A reader for a body of `contentType` (`nil`: the whole body, sniffed at the end).
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when no serializer reads it.
    init(registry: Registry, contentType: MediaType?) throws(SatchelError) {
        limits = registry.limits
        guard let contentType else {
            mode = .whole(registry, nil, [])
            return
        }
        guard let serializer = registry.responseSerializer(for: contentType) else {
            throw SatchelError(.unacceptableContentType, "content_type: no serializer reads \(contentType)")
        }
        if let records = serializer as? any RecordReadingSerializer {
            mode = .records(records.makeRecordReader(contentType: contentType, limits: limits))
        } else if let reader = serializer.makeIncrementalReader(contentType: contentType, limits: limits) {
            mode = .incremental(reader)
        } else {
            mode = .whole(registry, contentType, [])
        }
    }

    /// A reader of the elements at `path` of one JSON or XML document of `contentType`.
    /// - Throws: ``SatchelError/Code/unacceptableContentType`` when the registry's serializer
    ///   for it reads neither; ``SatchelError/Code/invalidArgument`` for a path its format
    ///   cannot read.
    init(
        registry: Registry, contentType: MediaType, each path: String, namespaces: [String: String]
    ) throws(SatchelError) {
        limits = registry.limits
        guard let base = registry.responseSerializer(for: contentType) as? any ElementReadingSerializer else {
            throw SatchelError(
                .unacceptableContentType,
                "content_type: \(contentType) is not a JSON or XML document the registry reads")
        }
        mode = .records(
            try ElementRecordsSerializer(base: base, path: path, namespaces: namespaces)
                .makeElementReader(contentType: contentType, limits: limits))
    }

    /// The document outside the elements once the body has ended (JSON's envelope), or `nil`.
    var rest: Value? {
        guard isFinished, failure == nil, case .records(let reader) = mode else { return nil }
        return (reader as? any ElementRecordReader)?.rest
    }

    /// Whether records are ready as they complete.
    var yieldsRecords: Bool {
        if case .records = mode { return true }
        return false
    }

    /// Feeds the next chunk.
    /// - Throws: The format's error (the records before it stay ready), or the earlier one.
    func feed(_ chunk: UnsafeRawBufferPointer) throws(SatchelError) {
        try proceed { () throws(SatchelError) in
            switch mode {
            case .records(let reader):
                try reader.feed(chunk) { ready.append($0) }
            case .incremental(let reader):
                fed = try bodyCount(fed, adding: chunk.count)
                try reader.feed(chunk)
            case .whole(let registry, let contentType, var body):
                _ = try bodyCount(body.count, adding: chunk.count)
                mode = .whole(registry, contentType, [])  // keeps `body` uniquely referenced
                body.append(contentsOf: chunk)
                mode = .whole(registry, contentType, body)
            }
        }
    }

    /// Ends the body.
    /// - Throws: The format's error for a truncated or invalid end, or the earlier one.
    func finish() throws(SatchelError) {
        try proceed { () throws(SatchelError) in
            isFinished = true
            switch mode {
            case .records(let reader):
                try reader.finish { ready.append($0) }
            case .incremental(let reader):
                if let value = try reader.finish() { ready.append(value) }
            case .whole(let registry, let contentType, let body):
                mode = .whole(registry, contentType, [])
                let value = try registry.dispatchingSerializer.decode(
                    body, contentType: contentType, limits: registry.limits)
                if let value { ready.append(value) }
            }
        }
    }

    /// The next ready value, oldest first.
    func next() -> Value? {
        guard nextReady < ready.count else { return nil }
        defer {
            nextReady += 1
            if nextReady == ready.count {
                ready.removeAll(keepingCapacity: true)
                nextReady = 0
            }
        }
        return ready[nextReady]
    }

    /// The body's length once `more` bytes follow `count`, within ``Limits/maxBodyBytes``; checked
    /// before the bytes are read, so a length no buffer has is an error and never an overflow.
    private func bodyCount(_ count: Int, adding more: Int) throws(SatchelError) -> Int {
        let (total, overflow) = count.addingReportingOverflow(more)
        try limits.checkBody(count: overflow ? .max : total)
        guard !overflow else {
            throw SatchelError(.invalidArgument, "data: \(more) bytes after \(count) are more than a body can hold")
        }
        return total
    }

    /// Runs a step unless the body already failed or ended; a failure is kept.
    private func proceed(_ step: () throws(SatchelError) -> Void) throws(SatchelError) {
        if let failure { throw failure }
        guard !isFinished else { throw SatchelError(.misuse, "the reader's body has ended (satchel_reader_finish)") }
        do {
            try step()
        } catch {
            failure = error
            throw error
        }
    }
}
