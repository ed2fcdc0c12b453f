// SPDX-License-Identifier: Apache-2.0
import HTTPTypes

extension HTTPFields {
    /// The value of the fields named `name`: the same string as `self[name]` (the values joined
    /// by `", "`, or `"; "` for Cookie), without that subscript's generic lazy joining.
    ///
    /// The subscript costs several thousand instructions even for one field; this runs a few
    /// times for every request and response (Content-Type, Content-Length, Accept).
    /// - Complexity: O(*n*) in the number of fields.
    package func combinedValue(_ name: HTTPField.Name) -> String? {
        var combined: String?
        for field in self where field.name == name {
            if combined == nil {
                combined = field.value
            } else {
                combined! += (name == .cookie ? "; " : ", ") + field.value
            }
        }
        return combined
    }
}
