// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The property list under construction and the containers open in it: what the encoders of one
/// ``PropertyListWriter/write(model:)`` share.
///
/// Containers write straight into the output, so only the innermost open one can be written to.
/// A model that goes back to an outer container closes the inner ones (as a nested container
/// finished with); one that then writes to a closed container cannot be written as it goes, and
/// ``abandoned`` sends the encode down the tree path instead.
final class PropertyListStreamWriter {
    let output: any PropertyListOutput
    let maxDepth: Int
    /// The encoders whose container is open, innermost last; behind a pointer, as the outputs'
    /// state is (``PropertyListStateStorage``).
    var open: [PropertyListStreamEncoder] {
        unsafeAddress { UnsafePointer(openEncoders.pointer) }
        unsafeMutableAddress { openEncoders.pointer }
    }
    private let openEncoders = PropertyListStateStorage<[PropertyListStreamEncoder]>([])
    /// Set when a model wrote out of order; the output is then abandoned, even if the model
    /// swallowed the error that said so.
    var abandoned = false
    /// The error to report instead of taking the tree path: nesting past `maxDepth`, found
    /// where a container cannot throw.
    var failure: SatchelError?

    init(output: any PropertyListOutput, maxDepth: Int) {
        self.output = output
        self.maxDepth = maxDepth
    }

    /// Makes `encoder`'s container the innermost open one, closing those opened after it.
    /// - Throws: ``OutOfOrder`` when `encoder`'s container was closed already.
    @inline(__always)
    func enter(_ encoder: PropertyListStreamEncoder) throws {
        if open.last !== encoder { try unwind(to: encoder) }
    }

    private func unwind(to encoder: PropertyListStreamEncoder) throws {
        guard encoder.isOpen else { throw abandon() }
        while let top = open.last, top !== encoder { close(top) }
    }

    /// Closes `encoder`'s container (an empty dictionary for an encoder that wrote nothing, as
    /// ``ValueEncoder`` gives) and removes it from the open ones.
    func close(_ encoder: PropertyListStreamEncoder) {
        switch encoder.state {
        case .empty:
            output.begin(keyed: true, depth: encoder.depth)
            output.end(keyed: true, depth: encoder.depth)
        case .keyed:
            output.end(keyed: true, depth: encoder.depth)
        case .unkeyed:
            output.end(keyed: false, depth: encoder.depth)
        case .single, .closed:
            break
        }
        encoder.state = .closed
        if open.last === encoder { open.removeLast() }
    }

    /// Marks the output abandoned and returns the error that unwinds the model.
    func abandon() -> OutOfOrder {
        abandoned = true
        return OutOfOrder()
    }

    /// Thrown through a model that writes to a container it had finished with.
    struct OutOfOrder: Error {}
}

/// One value being encoded: the `Encoder` a model's `encode(to:)` is given, and the single-value
/// container.
final class PropertyListStreamEncoder: Encoder, CodingPathNode {
    enum State {
        /// Nothing written yet.
        case empty
        /// A dictionary is open.
        case keyed
        /// An array is open.
        case unkeyed
        /// A single value was written.
        case single
        /// The container was closed.
        case closed
    }

    let writer: PropertyListStreamWriter
    let parent: PropertyListStreamEncoder?
    let key: (any CodingKey)?
    /// The nesting of this encoder's value (0 at the top).
    let depth: Int
    var state = State.empty

    init(writer: PropertyListStreamWriter, parent: PropertyListStreamEncoder?, key: (any CodingKey)?, depth: Int) {
        self.writer = writer
        self.parent = parent
        self.key = key
        self.depth = depth
    }

    var output: any PropertyListOutput { writer.output }

    var isOpen: Bool {
        switch state {
        case .keyed, .unkeyed: true
        case .empty: writer.open.last === self
        case .single, .closed: false
        }
    }

    /// Property lists have no encoder options to pass on.
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        do {
            try open(keyed: true)
        } catch {
            // `container(keyedBy:)` cannot throw: the writer is abandoned or the depth exceeded,
            // and the container's first write throws.
            state = .closed
        }
        return KeyedEncodingContainer(KeyedPropertyListStreamContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        do {
            try open(keyed: false)
        } catch {
            state = .closed  // as in `container(keyedBy:)`
        }
        return UnkeyedPropertyListStreamContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Opens this encoder's dictionary or array; asking again for the same kind continues it (a
    /// subclass and its superclass encoding into one dictionary).
    func open(keyed: Bool) throws {
        switch state {
        case .empty:
            if writer.open.last === self { writer.open.removeLast() }
            if depth >= writer.maxDepth {
                writer.failure = SatchelError.limitExceeded("maxDepth", writer.maxDepth, "nesting", keyPath: path())
                throw writer.abandon()
            }
            output.begin(keyed: keyed, depth: depth)
            state = keyed ? .keyed : .unkeyed
            writer.open.append(self)
        case .keyed where keyed, .unkeyed where !keyed:
            try writer.enter(self)
        default:
            throw writer.abandon()
        }
    }

    /// Starts the next member (its key) of this encoder's open dictionary.
    @inline(__always)
    func beginMember(_ key: some CodingKey) throws {
        try writer.enter(self)
        guard case .keyed = state else { throw writer.abandon() }
        do {
            try output.key(key.stringValue, depth: depth + 1)
        } catch {
            throw error.underKeyPath(path(appending: key))
        }
    }

    /// Starts the next element of this encoder's open array.
    @inline(__always)
    func beginElement() throws {
        try writer.enter(self)
        guard case .unkeyed = state else { throw writer.abandon() }
    }

    /// Starts this encoder's single value.
    @inline(__always)
    func beginSingle() throws {
        guard case .empty = state else { throw writer.abandon() }
        if writer.open.last === self { writer.open.removeLast() }
        state = .single
    }

    /// An encoder for a member or element whose value is written next.
    func child(key: any CodingKey) -> PropertyListStreamEncoder {
        PropertyListStreamEncoder(writer: writer, parent: self, key: key, depth: depth + 1)
    }

    // MARK: Values

    /// Writes `value` in the slot just begun, as the child `key` of this encoder.
    func write<T: Encodable>(_ value: T, key: (any CodingKey)?) throws {
        if try writeSpecial(value, key: key) { return }
        let encoder = key.map { child(key: $0) } ?? self
        try encoder.encodeWhole(value)
    }

    /// Runs `value.encode(to:)` on this encoder and closes what it opened (an empty dictionary
    /// when it wrote nothing).
    func encodeWhole<T: Encodable>(_ value: T) throws {
        writer.open.append(self)  // pending until the value opens a container or writes a value
        try value.encode(to: self)
        if isOpen {
            if case .empty = state, parent == nil {
                throw SatchelError(.unencodableValue, "\(T.self) did not encode any value")
            }
            try writer.enter(self)
            writer.close(self)
        }
    }

    /// The depth of the value in the slot just begun.
    private func slotDepth(_ key: (any CodingKey)?) -> Int { key == nil ? depth : depth + 1 }

    /// Writes a string, naming the key path when the format refuses it.
    @inline(__always)
    func writeString(_ text: String, key: (any CodingKey)?) throws {
        do {
            try output.string(text, depth: slotDepth(key))
        } catch {
            throw error.underKeyPath(path(appending: key))
        }
    }

    /// Refuses a null, which property lists cannot hold, naming the key path.
    func refuseNil(key: (any CodingKey)?) -> SatchelError {
        SatchelError(.unencodableValue, "property lists have no null", keyPath: path(appending: key))
    }

    /// Scalars written in place, and the types whose plist form is not their `Encodable` form;
    /// `false` for other types.
    ///
    /// Metatype comparisons, not `as?` casts: in this unspecialized generic code a cast calls into
    /// the runtime, a comparison is a load and a compare. Each `unsafeBitCast` reinterprets the
    /// value as the very type the comparison before it proved `T` to be.
    private func writeSpecial<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> Bool {
        let depth = slotDepth(key)
        if T.self == String.self {
            try writeString(unsafeBitCast(value, to: String.self), key: key)
        } else if T.self == Int.self {
            output.integer(Int64(unsafeBitCast(value, to: Int.self)), depth: depth)
        } else if T.self == Double.self {
            output.double(unsafeBitCast(value, to: Double.self), depth: depth)
        } else if T.self == Bool.self {
            output.bool(unsafeBitCast(value, to: Bool.self), depth: depth)
        } else if T.self == Date.self {
            do {
                try output.date(unsafeBitCast(value, to: Date.self), depth: depth)
            } catch {
                throw error.underKeyPath(path(appending: key))
            }
        } else if T.self == Data.self {
            unsafeBitCast(value, to: Data.self).withUnsafeBytes { output.data($0, depth: depth) }
        } else if T.self == URL.self {
            try writeString(unsafeBitCast(value, to: URL.self).absoluteString, key: key)
        } else if T.self == Value.self {
            var path: [KeyPathComponent] = []
            do {
                try output.append(
                    unsafeBitCast(value, to: Value.self), depth: depth, maxDepth: writer.maxDepth, path: &path)
            } catch {
                var failure = error as? SatchelError ?? SatchelError(.internal, "unexpected error: \(error)")
                failure.keyPath = KeyPathComponent.render(path)
                throw failure.underKeyPath(self.path(appending: key))
            }
        } else {
            return false
        }
        return true
    }
}

extension PropertyListStreamEncoder: SingleValueEncodingContainer {
    func encodeNil() throws {
        try beginSingle()
        throw refuseNil(key: nil)
    }
    func encode(_ value: Bool) throws {
        try beginSingle()
        output.bool(value, depth: depth)
    }
    func encode(_ value: String) throws {
        try beginSingle()
        try writeString(value, key: nil)
    }
    func encode(_ value: Double) throws {
        try beginSingle()
        output.double(value, depth: depth)
    }
    func encode(_ value: Float) throws {
        try beginSingle()
        output.double(Double(value), depth: depth)
    }
    func encode(_ value: Int) throws { try signed(value) }
    func encode(_ value: Int8) throws { try signed(value) }
    func encode(_ value: Int16) throws { try signed(value) }
    func encode(_ value: Int32) throws { try signed(value) }
    func encode(_ value: Int64) throws { try signed(value) }
    func encode(_ value: UInt) throws { try unsigned(value) }
    func encode(_ value: UInt8) throws { try unsigned(value) }
    func encode(_ value: UInt16) throws { try unsigned(value) }
    func encode(_ value: UInt32) throws { try unsigned(value) }
    func encode(_ value: UInt64) throws { try unsigned(value) }

    private func signed<I: FixedWidthInteger & SignedInteger>(_ value: I) throws {
        try beginSingle()
        output.integer(Int64(value), depth: depth)
    }

    private func unsigned<I: FixedWidthInteger & UnsignedInteger>(_ value: I) throws {
        try beginSingle()
        output.unsignedInteger(UInt64(value), depth: depth)
    }

    func encode<T: Encodable>(_ value: T) throws {
        try beginSingle()
        if try writeSpecial(value, key: nil) { return }
        state = .empty
        try encodeWhole(value)
    }
}
