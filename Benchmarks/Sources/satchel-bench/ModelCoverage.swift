// SPDX-License-Identifier: Apache-2.0
import Satchel

/// Checks that a `Codable` model covers a document: every non-null member the document has
/// must come back when the decoded model is encoded again. Array positions are folded together
/// (`statuses[].user.name`), so the check is about structure, not about each element.
enum ModelCoverage {
    /// The paths of `document` that `encodedModel` lacks, sorted (empty when the model covers
    /// the document).
    static func missingPaths(document: Value, encodedModel: Value) -> [String] {
        var expected = Set<String>()
        var found = Set<String>()
        collect(document, path: "$", into: &expected)
        collect(encodedModel, path: "$", into: &found)
        return expected.subtracting(found).sorted()
    }

    private static func collect(_ value: Value, path: String, into paths: inout Set<String>) {
        if value.isNull { return }  // an absent optional encodes nothing
        paths.insert(path)
        switch value {
        case .object(let members):
            for (key, member) in members { collect(member, path: path + "." + key, into: &paths) }
        case .array(let elements):
            for element in elements { collect(element, path: path + "[]", into: &paths) }
        default:
            break
        }
    }
}
