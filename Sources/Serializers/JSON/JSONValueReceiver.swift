// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Receives one JSON document's values in document order, as ``JSONResponseSerializer``'s
/// `walk` reads them without building a ``Value``: the C interface's `satchel_registry_visit`
/// hands them to a C visitor (and the Python extension builds its objects from them).
///
/// Containers report their count first, then their elements (an object: each name, then its
/// value), then their end. Each call returns `false` to stop the walk. Text is valid during the
/// call only.
package protocol JSONValueReceiver: AnyObject {
    /// A `null`.
    func null() -> Bool
    /// `true` or `false`.
    func bool(_ value: Bool) -> Bool
    /// An integer that fits `Int64`.
    func integer(_ value: Int64) -> Bool
    /// An integer above `Int64.max` that fits `UInt64`.
    func unsignedInteger(_ value: UInt64) -> Bool
    /// Any other number.
    func double(_ value: Double) -> Bool
    /// A string's UTF-8, escapes decoded.
    func string(_ text: UnsafeBufferPointer<UInt8>) -> Bool
    /// An array of `count` elements starts.
    func beginArray(count: Int) -> Bool
    /// The array ends.
    func endArray() -> Bool
    /// An object of `count` members starts.
    func beginObject(count: Int) -> Bool
    /// The next member's name, escapes decoded.
    func name(_ text: UnsafeBufferPointer<UInt8>) -> Bool
    /// The object ends.
    func endObject() -> Bool
}

/// How a walk of a body ended.
package enum JSONWalk {
    /// Every value went to the receiver.
    case walked
    /// The receiver stopped the walk.
    case stopped
    /// The body holds no value (``BlankBody``): the receiver got nothing.
    case blank
    /// The body had to be read as a tree (UTF-16 or UTF-32, a byte order mark): its value, for the
    /// caller to walk; the receiver got nothing.
    case value(Value)
}
