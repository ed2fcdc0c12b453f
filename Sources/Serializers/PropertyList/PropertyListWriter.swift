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
        try makeOutput().write(value, maxDepth: maxDepth)
    }

    /// The property list of an `Encodable` model (nil optionals left out, as property lists
    /// have no null; `Date` and `Data` as their plist types, `URL` as its absolute string, a
    /// ``Value`` member as ``write(_:)`` writes it).
    ///
    /// ```swift
    /// let body = try PropertyListWriter(format: .binary).write(model: settings)
    /// ```
    ///
    /// The model is written as it encodes itself, with no tree in between, by the same rules as
    /// ``write(_:)``: dictionaries keep the order in which members are encoded. A model that
    /// writes to a container after moving on from it (a nested container filled after its
    /// parent's next member) cannot be written as it goes: it is encoded into a ``Value`` with
    /// ``ValueEncoder`` and written from that. A key encoded twice in one container is written
    /// twice (synthesized `Encodable` never does that).
    /// - Throws: ``SatchelError``: `unencodableValue` (a null, a value that encodes nothing, text
    ///   or a date XML cannot hold, or the model's own error as underlying) and `limitExceeded`,
    ///   naming the key path.
    /// - Complexity: O(n) in the size of the output, plus the model's work.
    public func write<T: Encodable>(model: T) throws(SatchelError) -> [UInt8] {
        let writer = PropertyListStreamWriter(output: makeOutput(), maxDepth: maxDepth)
        // Open encoders hold the writer that lists them: a model that fails half-way leaves
        // some listed.
        defer { writer.open.removeAll() }
        do {
            // `encode(to:)` is the model's, called through `Encoder`, and throws any error.
            try PropertyListStreamEncoder(writer: writer, parent: nil, key: nil, depth: 0).encode(model)
            if !writer.abandoned { return writer.output.finish() }
        } catch let error as SatchelError where !writer.abandoned {
            throw error
        } catch  where !writer.abandoned {
            throw SatchelError(.unencodableValue, "\(T.self) could not be encoded", underlying: error)
        } catch {
            // Written out of order: the tree path below.
        }
        if let failure = writer.failure { throw failure }
        return try write(ValueEncoder().encode(model))
    }

    private func makeOutput() -> any PropertyListOutput {
        switch format {
        case .xml: XMLPropertyListOutput()
        case .binary: BinaryPropertyListOutput()
        }
    }
}
