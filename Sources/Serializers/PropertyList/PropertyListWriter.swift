// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Writes ``Value``s as XML or binary property lists.
///
/// Every kind with a plist form is written: objects (keys in order), arrays, strings, integers
/// (all of `Int64` and `UInt64`), doubles, bools, dates, bytes and ``PropertyListUID``.
/// ``Value/null`` and other payloads are ``SatchelError/Code/unencodableValue`` with their key
/// path: property lists have no null.
public struct PropertyListWriter: Sendable {
    /// The format written.
    public var format: PropertyListFormat
    /// Deepest nesting written; deeper is ``SatchelError/Code/limitExceeded``. Default 512.
    public var maxDepth: Int

    /// Creates a writer.
    public init(format: PropertyListFormat = .xml, maxDepth: Int = Limits.default.maxDepth) {
        self.format = format
        self.maxDepth = maxDepth
    }

    /// The property list of `value`.
    /// - Throws: ``SatchelError`` (`unencodableValue`, `limitExceeded`) naming the key path.
    /// - Complexity: O(n) in the size of the tree.
    public func write(_ value: Value) throws(SatchelError) -> [UInt8] {
        switch format {
        case .xml: try XMLPropertyListWriter(maxDepth: maxDepth).write(value)
        case .binary: try BinaryPropertyListWriter(maxDepth: maxDepth).write(value)
        }
    }

    /// The property list of an `Encodable` model (nil optionals left out, as property lists
    /// have no null; `Date` and `Data` as their plist types).
    ///
    /// The model becomes a ``Value`` first (``ValueEncoder``), then bytes: the writers are fast
    /// enough that this beats `PropertyListEncoder` (BENCHMARKS.md), and one writer per format
    /// keeps one set of rules.
    /// - Throws: ``SatchelError``: `unencodableValue` (a null, a non-plist payload, or the model's
    ///   own error as underlying) and `limitExceeded`, naming the key path.
    public func write<T: Encodable>(model: T) throws(SatchelError) -> [UInt8] {
        try write(try ValueEncoder().encode(model))
    }
}
