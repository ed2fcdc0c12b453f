// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

/// The one error type of Satchel: a stable ``Code``, a precise message, where it happened, and —
/// for validation failures — the response, the (capped) body and the value still decoded from it.
public struct SatchelError: Error, Sendable, CustomStringConvertible {
    /// A stable error code. The C ABI's `satchel_status` values are these numbers; codes are only
    /// ever appended.
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's number, which is also its `satchel_status` value in the C ABI.
        public let rawValue: Int32
        /// The code numbered `rawValue`; any number is accepted, and one no code has yet is named
        /// by it (`code42`).
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// An argument was out of its domain (an empty media type, a negative limit, …).
        public static let invalidArgument = Code(rawValue: 1)
        /// The input breaks the format's grammar.
        public static let syntaxError = Code(rawValue: 2)
        /// The input ended before the value was complete.
        public static let truncatedInput = Code(rawValue: 3)
        /// A ``Limits`` bound was hit; the message names the limit.
        public static let limitExceeded = Code(rawValue: 4)
        /// Bytes are not valid in the text encoding (invalid UTF-8, a lone surrogate, non-UTF-8 text).
        public static let invalidEncoding = Code(rawValue: 5)
        /// A number cannot be represented without loss.
        public static let numberOutOfRange = Code(rawValue: 6)
        /// No serializer accepts the media type, or the response's Content-Type is not acceptable.
        public static let unacceptableContentType = Code(rawValue: 7)
        /// The response's status code is not acceptable.
        public static let unacceptableStatusCode = Code(rawValue: 8)
        /// A value has another kind than the one asked for.
        public static let typeMismatch = Code(rawValue: 9)
        /// A required key or value is missing.
        public static let valueNotFound = Code(rawValue: 10)
        /// A value cannot be written in the target format (NaN in JSON, a nested array in a flat form, …).
        public static let unencodableValue = Code(rawValue: 11)
        /// A media type (Content-Type, Accept) could not be parsed.
        public static let invalidMediaType = Code(rawValue: 12)
        /// Reading or writing a file or stream failed.
        public static let io = Code(rawValue: 13)
        /// A failure inside Satchel or a library it calls that input should never cause.
        public static let `internal` = Code(rawValue: 14)
        /// The input is in a format or variant this serializer recognises but cannot decode
        /// (a GIF sent as an image, a plist of an unknown version).
        public static let unsupportedFormat = Code(rawValue: 15)
        /// The transfer was cancelled (task cancellation or an explicit `cancel()`).
        public static let cancelled = Code(rawValue: 16)
        /// A connect, whole-request or idle timeout expired.
        public static let timedOut = Code(rawValue: 17)
        /// The host could not be resolved or connected to.
        public static let cannotConnect = Code(rawValue: 18)
        /// The TLS handshake failed: an untrusted or expired certificate, a host-name mismatch,
        /// or a pin that matched nothing.
        public static let tlsFailure = Code(rawValue: 19)
        /// More redirects than the redirect policy allows.
        public static let tooManyRedirects = Code(rawValue: 20)
        /// The connection failed mid-transfer or the server broke HTTP (a cut body, a bad
        /// header, a wrong Content-Length).
        public static let networkFailure = Code(rawValue: 21)
        /// An allocation failed (the C ABI's `SATCHEL_E_NO_MEMORY`).
        public static let noMemory = Code(rawValue: 22)
        /// A call out of order: a builder read from, a handle owned by another object.
        public static let misuse = Code(rawValue: 23)
        /// A `struct_size` or `abi_version` the library does not understand (C ABI).
        public static let abiMismatch = Code(rawValue: 24)
        /// A plugin failed to load or initialise.
        public static let plugin = Code(rawValue: 25)

        /// Every code, in the order of their numbers (1 to 25).
        public static let allCases: [Code] = [
            .invalidArgument, .syntaxError, .truncatedInput, .limitExceeded, .invalidEncoding, .numberOutOfRange,
            .unacceptableContentType, .unacceptableStatusCode, .typeMismatch, .valueNotFound, .unencodableValue,
            .invalidMediaType, .io, .internal, .unsupportedFormat, .cancelled, .timedOut, .cannotConnect, .tlsFailure,
            .tooManyRedirects, .networkFailure, .noMemory, .misuse, .abiMismatch, .plugin,
        ]

        /// The code's name, such as `"syntaxError"`.
        public var name: String {
            switch self {
            case .invalidArgument: "invalidArgument"
            case .syntaxError: "syntaxError"
            case .truncatedInput: "truncatedInput"
            case .limitExceeded: "limitExceeded"
            case .invalidEncoding: "invalidEncoding"
            case .numberOutOfRange: "numberOutOfRange"
            case .unacceptableContentType: "unacceptableContentType"
            case .unacceptableStatusCode: "unacceptableStatusCode"
            case .typeMismatch: "typeMismatch"
            case .valueNotFound: "valueNotFound"
            case .unencodableValue: "unencodableValue"
            case .invalidMediaType: "invalidMediaType"
            case .io: "io"
            case .internal: "internal"
            case .unsupportedFormat: "unsupportedFormat"
            case .cancelled: "cancelled"
            case .timedOut: "timedOut"
            case .cannotConnect: "cannotConnect"
            case .tlsFailure: "tlsFailure"
            case .tooManyRedirects: "tooManyRedirects"
            case .networkFailure: "networkFailure"
            case .noMemory: "noMemory"
            case .misuse: "misuse"
            case .abiMismatch: "abiMismatch"
            case .plugin: "plugin"
            default: "code\(rawValue)"
            }
        }

        /// The code's ``name``, such as `syntaxError`.
        public var description: String { name }
    }

    /// What went wrong.
    public var code: Code
    /// What was wrong, in one sentence (without the location, see ``description``).
    public var message: String
    /// The byte offset in the input where the problem was found.
    public var offset: Int?
    /// The 1-based line of ``offset``, for text formats.
    public var line: Int?
    /// The 1-based column (in bytes) of ``offset``, for text formats.
    public var column: Int?
    /// Where in the value the problem is, as a path such as `$.users[3].name`.
    public var keyPath: String?
    /// The name of the ``Limits`` property that was exceeded, for ``Code/limitExceeded``.
    public var limit: String?
    /// The error that caused this one, if any.
    public var underlying: (any Error & Sendable)?
    /// The response that failed validation.
    public var response: HTTPResponse?
    /// The response body that failed validation, capped at ``bodyCaptureLimit`` bytes.
    public var body: [UInt8]?
    /// The value decoded from a response that failed status validation (AFNetworking's behaviour).
    public var decodedValue: Value?
    /// The failures of the members a compound serializer tried and passed over, in order.
    public var attempts: [Attempt] = []

    /// One member of a compound serializer that failed, and how.
    public struct Attempt: Sendable {
        /// The member's ``ResponseSerializer/name``.
        public var serializerName: String
        /// Its error.
        public var error: SatchelError

        /// Creates an attempt.
        public init(serializerName: String, error: SatchelError) {
            self.serializerName = serializerName
            self.error = error
        }
    }

    /// How many bytes of a failed response's body an error keeps.
    public static let bodyCaptureLimit = 64 * 1024

    /// Creates an error.
    public init(
        _ code: Code,
        _ message: String,
        offset: Int? = nil,
        keyPath: String? = nil,
        limit: String? = nil,
        underlying: (any Error & Sendable)? = nil
    ) {
        self.code = code
        self.message = message
        self.offset = offset
        self.keyPath = keyPath
        self.limit = limit
        self.underlying = underlying
    }

    /// The code, the message and the location:
    /// `syntaxError: unexpected ']' (at byte 12, line 1, column 13; key path $.a[0])`, then
    /// `: ` and the underlying error, if any.
    public var description: String {
        var location: [String] = []
        if let offset {
            var text = "byte \(offset)"
            if let line, let column { text += ", line \(line), column \(column)" }
            location.append(text)
        }
        if let keyPath { location.append("key path \(keyPath)") }
        var text = "\(code.name): \(message)"
        if !location.isEmpty { text += " (at \(location.joined(separator: "; ")))" }
        if let underlying { text += ": \(underlying)" }
        if !attempts.isEmpty {
            text +=
                " [tried " + attempts.map { "\($0.serializerName): \($0.error.code.name)" }.joined(separator: ", ")
                + "]"
        }
        return text
    }

    /// Sets ``offset`` and derives ``line`` and ``column`` by counting line feeds in `input`.
    ///
    /// An offset past the end of `input` is located at its end.
    /// - Complexity: O(offset).
    public mutating func locate(offset: Int, in input: UnsafeRawBufferPointer) {
        self.offset = offset
        var line = 1
        var lineStart = 0
        let end = max(0, min(offset, input.count))
        for index in 0..<end where input[index] == UInt8(ascii: "\n") {
            line += 1
            lineStart = index + 1
        }
        self.line = line
        self.column = end - lineStart + 1
    }

    /// A copy that carries the response and the first ``bodyCaptureLimit`` bytes of its body, as
    /// validation and decoding errors of a response do.
    public func attaching(response: HTTPResponse, body: [UInt8]) -> SatchelError {
        var error = self
        error.response = response
        error.body = Array(body.prefix(Self.bodyCaptureLimit))
        return error
    }

    /// A ``Code/limitExceeded`` error naming the limit, its value and what exceeded it.
    public static func limitExceeded(
        _ limit: String, _ bound: Int, _ what: String, offset: Int? = nil, keyPath: String? = nil
    ) -> SatchelError {
        SatchelError(
            .limitExceeded, "\(what) exceeds Limits.\(limit) (\(bound))",
            offset: offset, keyPath: keyPath, limit: limit)
    }
}

extension SatchelError {
    /// `error` as a SatchelError (another error becomes ``SatchelError/Code/internal`` with it
    /// underlying).
    package static func wrap(_ error: any Error) -> SatchelError {
        if let error = error as? SatchelError { return error }
        return SatchelError(.internal, "\(error)", underlying: error)
    }
}
