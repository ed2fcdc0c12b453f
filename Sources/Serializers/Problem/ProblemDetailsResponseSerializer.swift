// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Decodes `application/problem+json` error bodies (RFC 9457) and puts the server's
/// explanation into the status error a caller gets.
///
/// The value is the JSON object (read it with ``ProblemDetails``); a body that is JSON but not
/// an object fails with ``SatchelError/Code/typeMismatch``. When the status is not acceptable, the
/// error's message ends with the problem's title and detail
/// (`status 403 Forbidden is not acceptable: Out of credit: Your balance is 30, but that costs 50.`)
/// and ``SatchelError/problemDetails`` returns them. In `Registry.standard()` it outranks the
/// JSON serializer for this one type (an exact match beats `+json`).
public struct ProblemDetailsResponseSerializer: ResponseSerializer {
    /// `"problem"`.
    public var name: String { "problem" }
    /// `application/problem+json`.
    public var acceptableContentTypes: MediaRangeList {
        MediaRangeList(accepting: [MediaType(type: "application", subtype: "problem+json")])
    }
    /// Reads the JSON.
    public var json: JSONResponseSerializer

    /// Creates a serializer reading JSON with `json`'s options.
    public init(json: JSONResponseSerializer = JSONResponseSerializer()) {
        self.json = json
    }

    /// Decodes the problem document.
    ///
    /// - Returns: The JSON object, or `nil` for an empty body.
    /// - Throws: The JSON reader's errors, or ``SatchelError/Code/typeMismatch`` when the
    ///   document is not an object.
    public func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        guard let value = try json.decode(body, contentType: contentType, limits: limits) else { return nil }
        guard case .object = value else {
            throw SatchelError(
                .typeMismatch, "a problem details document must be a JSON object (RFC 9457 §3), not \(value.kindName)")
        }
        return value
    }

    /// Validates and decodes as every serializer does, then names the problem in a status error.
    public func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        var result = validateAndDecode(plan, body: body, limits: limits)
        if result.error?.code == .unacceptableStatusCode, let value = result.value,
            let summary = ProblemDetails(value)?.summary
        {
            result.error?.message += ": \(summary)"
        }
        return result
    }
}
