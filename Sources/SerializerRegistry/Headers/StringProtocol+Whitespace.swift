// SPDX-License-Identifier: Apache-2.0
extension StringProtocol {
    /// The text without the spaces and tabs around it: RFC 9110's optional whitespace (OWS),
    /// what a header value or a line of a PEM file may carry at either end.
    package var trimmingSpacesAndTabs: SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
