// SPDX-License-Identifier: Apache-2.0
import Synchronization

/// A response serializer that reads one large document's elements at a path as records, each
/// as soon as it is complete: JSON (a JSON Pointer to an array) and XML (an element path).
public protocol ElementReadingSerializer: ResponseSerializer {
    /// A reader of the elements at `path` in a body of `contentType`.
    /// - Parameters:
    ///   - namespaces: Prefixes the path uses, each to its namespace URI (XML).
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path the format cannot read.
    func makeElementReader(
        path: String, namespaces: [String: String], contentType: MediaType?, limits: Limits
    ) throws(SatchelError) -> any ElementRecordReader
}

/// A record reader of the elements at a path of one document, as a ``Value`` or a `Decodable`
/// each.
public protocol ElementRecordReader: RecordReader {
    /// The document outside the records once the body has ended (JSON's envelope, the array
    /// left empty); `nil` before the end, and where the format keeps nothing else (XML).
    var rest: Value? { get }

    /// Feeds the next chunk, decoding every element it completes into a `T` for `deliver`.
    func feed<T: Decodable>(
        _ chunk: UnsafeRawBufferPointer, as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError)

    /// Ends the body, decoding the elements its end completes into `T`s.
    func finish<T: Decodable>(as type: T.Type, into deliver: (T) throws(SatchelError) -> Void) throws(SatchelError)
}

extension ElementRecordReader {
    /// Feeds the next chunk, decoding every element it completes into a `T` for `deliver`.
    public func feed<T: Decodable>(
        _ chunk: [UInt8], as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try chunk.withUnsafeBufferPointer { (chunk) throws(SatchelError) in
            try feed(UnsafeRawBufferPointer(chunk), as: type, into: deliver)
        }
    }
}

/// The elements at a path of one large document, read by the registry's serializer for its
/// format: what `Session.records(for:each:)` streams, and what `satchel decode --each` reads.
/// A whole-body decode is the array of the elements, as for the other record streams.
public struct ElementRecordsSerializer: RecordStreamSerializer {
    /// The serializer of the document's format.
    public let base: any ElementReadingSerializer
    /// The path of the elements.
    public let path: String
    /// The prefixes `path` uses (XML).
    public let namespaces: [String: String]
    private let lastRest = LastRest()

    /// The elements at `path` of documents `base` reads.
    public init(base: any ElementReadingSerializer, path: String, namespaces: [String: String] = [:]) {
        self.base = base
        self.path = path
        self.namespaces = namespaces
    }

    public var name: String { base.name }
    public var acceptableContentTypes: MediaRangeList { base.acceptableContentTypes }

    /// A reader of the elements; the rest of the document it reads is ``rest`` once it has
    /// finished.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a path the format cannot read.
    public func makeElementReader(
        contentType: MediaType?, limits: Limits
    ) throws(SatchelError)
        -> any ElementRecordReader
    {
        let reader = try base.makeElementReader(
            path: path, namespaces: namespaces, contentType: contentType, limits: limits)
        return RestPublishingReader(base: reader, published: lastRest)
    }

    /// The rest of the document the last reader made has read, once it has finished.
    public var rest: Value? {
        lastRest.value.withLock { $0 }
    }

    public func makeRecordReader(contentType: MediaType?, limits: Limits) -> any RecordReader {
        do {
            return try makeElementReader(contentType: contentType, limits: limits)
        } catch {
            return FailedRecordReader(error: error)
        }
    }
}

/// The rest of a document, published by the reader that read it as it finishes.
final class LastRest: Sendable {
    let value = Mutex<Value?>(nil)
}

/// A reader that publishes its base's ``ElementRecordReader/rest`` in a ``LastRest`` once it has
/// finished, so that the task iterating the records and one asking for the rest never share the
/// reader itself.
final class RestPublishingReader: ElementRecordReader {
    private let base: any ElementRecordReader
    private let published: LastRest

    init(base: any ElementRecordReader, published: LastRest) {
        self.base = base
        self.published = published
    }

    var rest: Value? { base.rest }

    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError)
    {
        try base.feed(chunk, into: deliver)
    }

    func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        try base.finish(into: deliver)
        published.value.withLock { $0 = base.rest }
    }

    func feed<T: Decodable>(
        _ chunk: UnsafeRawBufferPointer, as type: T.Type, into deliver: (T) throws(SatchelError) -> Void
    ) throws(SatchelError) {
        try base.feed(chunk, as: type, into: deliver)
    }

    func finish<T: Decodable>(as type: T.Type, into deliver: (T) throws(SatchelError) -> Void) throws(SatchelError) {
        try base.finish(as: type, into: deliver)
        published.value.withLock { $0 = base.rest }
    }
}

/// A reader whose making failed: every call throws that error.
final class FailedRecordReader: RecordReader {
    init(error: SatchelError) {
        self.error = error
    }

    let error: SatchelError

    func feed(_ chunk: UnsafeRawBufferPointer, into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError)
    {
        throw error
    }

    func finish(into deliver: (Value) throws(SatchelError) -> Void) throws(SatchelError) {
        throw error
    }
}
