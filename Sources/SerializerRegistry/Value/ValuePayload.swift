// SPDX-License-Identifier: Apache-2.0
/// A typed payload carried by ``Value/payload(_:)``: an image, an XML document, multipart parts,
/// an embedded HTTP message, or a value produced by a plugin.
///
/// A payload names its kind (the key of its canonical JSON form, such as `"$image"`) and gives
/// a plain ``Value`` that represents it in canonical JSON.
///
/// Payloads are immutable final classes: they are usually large (pixel buffers, documents), so
/// values share them by reference, and a one-word payload keeps every ``Value`` small.
public protocol ValuePayload: AnyObject, Sendable, CustomStringConvertible {
    /// The canonical JSON key of this kind of payload, such as `"$image"` or `"$multipart"`.
    static var kind: String { get }

    /// A payload-free value that represents this payload in canonical JSON (the part after the
    /// ``kind`` key).
    var canonicalValue: Value { get }

    /// Whether `other` is the same payload.
    func isEqual(to other: any ValuePayload) -> Bool
}

extension ValuePayload where Self: Equatable {
    /// Equal when `other` has the same type and compares equal.
    public func isEqual(to other: any ValuePayload) -> Bool {
        guard let other = other as? Self else { return false }
        return self == other
    }
}

extension ValuePayload {
    /// The kind followed by the canonical value.
    public var description: String {
        "\(Self.kind)(\(canonicalValue))"
    }
}
