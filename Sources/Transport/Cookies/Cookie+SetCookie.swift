// SPDX-License-Identifier: Apache-2.0
extension Cookie {
    /// The key of the cookie a `Set-Cookie` field value sets, and its `SameSite`, worked out as
    /// libcurl stores the cookie: the `Domain` attribute without its leading dot, else the
    /// request's host; the `Path` attribute as given, else the request path up to its last `/`
    /// (RFC 6265 §5.1.4). `nil` for a field without a name.
    static func sameSite(
        ofSetCookie field: String, host: String, requestPath: String
    ) -> (key: Key, sameSite: SameSite?)? {
        let pieces = field.split(separator: ";", omittingEmptySubsequences: false)
        guard let pair = pieces.first, let equals = pair.firstIndex(of: "=") else { return nil }
        let name = pair[..<equals].trimmingBlanks()
        guard !name.isEmpty else { return nil }
        var domain = host
        var path: String?
        var sameSite: SameSite?
        for attribute in pieces.dropFirst() {
            let (label, value) =
                if let equals = attribute.firstIndex(of: "=") {
                    (
                        attribute[..<equals].trimmingBlanks().lowercased(),
                        attribute[attribute.index(after: equals)...].trimmingBlanks()
                    )
                } else {
                    (attribute.trimmingBlanks().lowercased(), "")
                }
            switch label {
            case "domain" where !value.isEmpty: domain = value.hasPrefix(".") ? String(value.dropFirst()) : value
            case "path" where !value.isEmpty: path = value
            case "samesite": sameSite = SameSite(attribute: value)
            default: break
            }
        }
        let directory = requestPath.lastIndex(of: "/").map { String(requestPath[...$0]) } ?? "/"
        return (Key(name: name, domain: domain.lowercased(), path: path ?? directory), sameSite)
    }
}

extension Substring {
    /// The text without leading and trailing spaces and tabs.
    fileprivate func trimmingBlanks() -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
