// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension MultipartParts {
    /// The part whose `Content-ID` is `id`, compared without angle brackets
    /// (`item1` finds `<item1>`).
    public func part(contentID id: String) -> Element? {
        let wanted = Self.bare(id)
        return elements.first { $0.part.contentID.map(Self.bare) == wanted }
    }

    /// The root of a `multipart/related` body (RFC 2387): the part whose Content-ID is the
    /// `start` parameter, or the first part when there is no `start`. `nil` when `start` names
    /// no part or the body is empty.
    public var root: Element? {
        if let start = mediaType?[parameter: "start"] { return part(contentID: start) }
        return elements.first
    }

    /// The part a `multipart/alternative` reader shows (RFC 2046 §5.1.4): alternatives come in
    /// increasing order of preference, so the last part that decoded (its value is not a
    /// ``DecodingFailure``).
    public var preferred: Element? {
        elements.last { !($0.value.payloadValue is DecodingFailure) }
    }

    /// The response to the request whose `Content-ID` is `requestID`, in a batch response:
    /// the part whose Content-ID is `<response-requestID>` (Google's and OData's convention).
    public func response(answering requestID: String) -> Element? {
        part(contentID: "response-" + Self.bare(requestID))
    }

    /// `id` without surrounding spaces and angle brackets.
    private static func bare(_ id: String) -> String {
        var text = id.trimmingASCIISpaces
        if text.hasPrefix("<") && text.hasSuffix(">") && text.count >= 2 { text = text.dropFirst().dropLast() }
        return String(text)
    }
}
