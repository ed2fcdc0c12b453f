// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Synchronization

/// Counts calls from any thread.
final class CallCounter: Sendable {
    private let count = Mutex(0)

    func increment() { count.withLock { $0 += 1 } }

    var value: Int { count.withLock { $0 } }
}

/// Decodes UTF-8 text to `.string`; an empty body is no value.
struct TextSerializer: ResponseSerializer {
    var name = "text"
    var acceptableContentTypes = MediaRangeList(accepting: [.plainText])
    let calls = CallCounter()

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        calls.increment()
        if body.isEmpty { return nil }
        guard let text = String(validating: body, as: UTF8.self) else {
            throw SatchelError(.invalidEncoding, "the body is not UTF-8", offset: 0)
        }
        return .string(text)
    }
}

/// Always fails with a syntax error.
struct FailingSerializer: ResponseSerializer {
    var name = "failing"
    var acceptableContentTypes = MediaRangeList(accepting: [.json])
    let calls = CallCounter()

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        calls.increment()
        throw SatchelError(.syntaxError, "unexpected byte", offset: 3)
    }
}

/// An error that is not a ``SatchelError``.
struct ForeignError: Error, CustomStringConvertible {
    var description: String { "foreign failure" }
}

/// Fails with an error of another type, wrapped as a serializer must (its `throws` is typed).
struct ForeignFailingSerializer: ResponseSerializer {
    var name = "foreign"
    var acceptableContentTypes = MediaRangeList(accepting: [.json])

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        throw SatchelError(.internal, "\(ForeignError())", underlying: ForeignError())
    }
}

/// Decodes every body to its own name, so tests can see which serializer was chosen.
struct NamedSerializer: ResponseSerializer {
    var name: String
    var acceptableContentTypes: MediaRangeList

    init(_ name: String, _ accept: String) {
        self.name = name
        // Test inputs are literals known to be valid; an invalid one shows up as a failed lookup.
        self.acceptableContentTypes = (try? MediaRangeList(parsing: accept)) ?? MediaRangeList()
    }

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        .string(name)
    }
}

/// Writes the canonical JSON of a value.
struct CanonicalRequestSerializer: RequestSerializer {
    var name: String
    var contentType: MediaType

    init(_ name: String, _ contentType: MediaType) {
        self.name = name
        self.contentType = contentType
    }

    func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        Array(value.canonicalJSON().utf8)
    }
}

/// Parses a media type that the test knows is valid.
func mediaType(_ text: String) throws -> MediaType {
    try MediaType(parsing: text)
}

/// The error thrown while parsing `text` as a media type, if any.
func mediaTypeError(_ text: String) -> SatchelError? {
    do {
        _ = try MediaType(parsing: text)
        return nil
    } catch {
        return error
    }
}

/// The error thrown while parsing `text` as a media range list, if any.
func rangeListError(_ text: String) -> SatchelError? {
    do {
        _ = try MediaRangeList(parsing: text)
        return nil
    } catch {
        return error
    }
}

/// A response with the given status and, optionally, Content-Type.
func response(_ status: Int, contentType: String? = nil) -> HTTPResponse {
    var fields = HTTPFields()
    if let contentType { fields[.contentType] = contentType }
    return HTTPResponse(status: .init(code: status), headerFields: fields)
}
