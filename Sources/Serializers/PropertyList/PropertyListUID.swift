// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// A keyed-archiver object reference (`CF$UID`), a type only binary property lists have.
///
/// UIDs are reported, not dropped: the binary reader returns them as this payload, whose
/// canonical JSON is `{"$uid": n}`. The binary writer writes it back as a UID; the XML writer
/// writes CoreFoundation's XML form, `<dict><key>CF$UID</key><integer>n</integer></dict>`
/// (which reads back as that dictionary, as it does in every XML plist reader).
public final class PropertyListUID: ValuePayload, Equatable, Hashable {
    /// `"$uid"`.
    public static let kind = "$uid"

    /// The referenced object's index in the archive.
    public let value: UInt64

    /// Creates a UID.
    public init(_ value: UInt64) {
        self.value = value
    }

    /// The number, as an integer value.
    public var canonicalValue: Value { Value(value) }

    /// Equal when the numbers are.
    public static func == (lhs: PropertyListUID, rhs: PropertyListUID) -> Bool {
        lhs.value == rhs.value
    }

    /// Hashes the number.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(value)
    }
}
