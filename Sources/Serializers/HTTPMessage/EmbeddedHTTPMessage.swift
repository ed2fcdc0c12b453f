// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// An HTTP message embedded in a body (`application/http`, as batch APIs answer): its start
/// line, headers, and its body decoded by the registry per its own Content-Type, with the
/// embedded status validated like a normal response.
///
/// Canonical JSON (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md): a response is
/// `{"$http": {"status": 404, "reason": "Not Found", "headers": [[name, value], …], "value": …}}`,
/// a request `{"$http": {"method": "GET", "target": "/items/1", "headers": …, "value": …}}`;
/// `value` is `{"$error": …}` when the body failed to decode, and an `"error"` member follows
/// when the embedded status was not acceptable (the value is still decoded).
public final class EmbeddedHTTPMessage: ValuePayload, Equatable {
    /// `"$http"`.
    public static let kind = "$http"

    /// The status code of a response; `nil` for a request.
    public let status: Int?
    /// The reason phrase of a response (may be empty).
    public let reason: String?
    /// The method of a request; `nil` for a response.
    public let method: String?
    /// The request target of a request.
    public let target: String?
    /// The protocol version, such as `HTTP/1.1`.
    public let version: String
    /// The header fields in order, names with the case they arrived with.
    public let headers: [MultipartPart.Header]
    /// The body's length in bytes.
    public let bodySize: Int
    /// The decoded body: a value, `.null` for an empty body, or a ``DecodingFailure``.
    public let value: Value
    /// The validation error of a response whose status is not acceptable.
    public let error: SatchelError?
    /// The serializer that decoded the body, if one did.
    public let serializerName: String?

    init(head: EmbeddedHTTPHead, bodySize: Int, value: Value, error: SatchelError?, serializerName: String?) {
        switch head.startLine {
        case .response(let version, let status, let reason):
            self.version = version
            self.status = status
            self.reason = reason
            method = nil
            target = nil
        case .request(let method, let target, let version):
            self.version = version
            self.method = method
            self.target = target
            status = nil
            reason = nil
        }
        headers = head.headers
        self.bodySize = bodySize
        self.value = value
        self.error = error
        self.serializerName = serializerName
    }

    /// The value of the first header named `name` (case-insensitive).
    public func header(_ name: String) -> String? {
        headers.first(named: name)?.value
    }

    /// The message as plain values (see the type's documentation).
    public var canonicalValue: Value {
        var object: ValueObject = [:]
        if let status {
            object["status"] = .integer(Int64(status))
            object["reason"] = .string(reason ?? "")
        } else {
            object["method"] = method.map(Value.string) ?? .null
            object["target"] = target.map(Value.string) ?? .null
        }
        object["headers"] = .array(headers.map { .array([.string($0.name), .string($0.value)]) })
        object["value"] = value
        if let error { object["error"] = DecodingFailure(error).canonicalValue }
        return .object(object)
    }

    /// Equal when start line, headers, value and error code are.
    public static func == (lhs: EmbeddedHTTPMessage, rhs: EmbeddedHTTPMessage) -> Bool {
        lhs === rhs
            || (lhs.status == rhs.status && lhs.reason == rhs.reason && lhs.method == rhs.method
                && lhs.target == rhs.target
                && lhs.version == rhs.version && lhs.headers == rhs.headers && lhs.value == rhs.value
                && lhs.error?.code == rhs.error?.code && lhs.error?.message == rhs.error?.message)
    }
}
