// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Problem details of an HTTP API error (RFC 9457): the members `type`, `title`, `status`,
/// `detail` and `instance`, plus every extension member.
///
/// Members of the wrong JSON type are ignored, as RFC 9457 §3.1 requires; a missing `type` is
/// `about:blank`.
public struct ProblemDetails: Sendable, Equatable {
    /// A URI reference identifying the problem type; `about:blank` when absent.
    public var type: String
    /// A short, human-readable summary of the problem type.
    public var title: String?
    /// The HTTP status code the server generated for this occurrence.
    public var status: Int?
    /// A human-readable explanation specific to this occurrence.
    public var detail: String?
    /// A URI reference identifying this occurrence.
    public var instance: String?
    /// Every other member, in document order.
    public var extensions: ValueObject

    /// Reads problem details from a decoded document, or `nil` when it is not a JSON object.
    public init?(_ value: Value) {
        guard case .object(let members) = value else { return nil }
        type = members["type"]?.stringValue ?? "about:blank"
        title = members["title"]?.stringValue
        detail = members["detail"]?.stringValue
        instance = members["instance"]?.stringValue
        switch members["status"] {
        case .integer(let code)? where (100...999).contains(code): status = Int(code)
        case .unsignedInteger(let code)? where (100...999).contains(code): status = Int(code)
        default: status = nil
        }
        var extensions = members
        for name in ["type", "title", "status", "detail", "instance"] { extensions.removeValue(forKey: name) }
        self.extensions = extensions
    }

    /// `title: detail`, or whichever of the two is present.
    public var summary: String? {
        switch (title, detail) {
        case let (title?, detail?): "\(title): \(detail)"
        case let (title?, nil): title
        case let (nil, detail?): detail
        case (nil, nil): nil
        }
    }
}

extension SatchelError {
    /// The problem details a failed response carried: its decoded value, when the response's
    /// Content-Type is `application/problem+json` and the body was a JSON object.
    public var problemDetails: ProblemDetails? {
        guard let decodedValue, let text = response?.headerFields[.contentType],
            (try? MediaType(parsing: text))?.essence == "application/problem+json"
        else { return nil }
        return ProblemDetails(decodedValue)
    }
}
