// SPDX-License-Identifier: Apache-2.0
/// Converts coding keys between Swift's camel case and the cases wire formats use, as
/// Foundation's `JSONEncoder.KeyEncodingStrategy.convertToSnakeCase` and
/// `JSONDecoder.KeyDecodingStrategy.convertFromSnakeCase` do; the typed coders of every format
/// share it.
package enum KeyCase {
    /// `myURLProperty` → `my_url_property` (with `_`), or `my-url-property` (with `-`): words split
    /// where a lowercase letter or digit meets an uppercase one, and before the last capital of a
    /// run followed by a lowercase letter; leading and trailing separators kept.
    package static func separated(_ key: String, by separator: Character) -> String {
        guard !key.isEmpty else { return key }
        let characters = Array(key)
        var result = ""
        result.reserveCapacity(key.utf8.count + 4)
        for (index, character) in characters.enumerated() {
            if character.isUppercase, index > 0 {
                let previous = characters[index - 1]
                let nextIsLower = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLower) {
                    result.append(separator)
                }
            }
            result += character.lowercased()
        }
        return result
    }

    /// `my_url_property` → `myUrlProperty` (for `_`; `-` likewise): separators inside the key
    /// removed and the letter after each uppercased; leading and trailing separators kept.
    package static func camelCased(_ key: String, from separator: Character) -> String {
        guard let first = key.firstIndex(where: { $0 != separator }) else { return key }
        guard let last = key.lastIndex(where: { $0 != separator }) else { return key }
        let words = key[first...last].split(separator: separator, omittingEmptySubsequences: true)
        guard words.count > 1 else { return key }
        var result = String(key[..<first])
        result += words[0]
        for word in words.dropFirst() { result += word.prefix(1).uppercased() + word.dropFirst().lowercased() }
        result += key[key.index(after: last)...]
        return result
    }
}
