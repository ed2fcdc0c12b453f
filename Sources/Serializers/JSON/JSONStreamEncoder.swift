// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The JSON text under construction and the containers open in it: what the encoders of one
/// ``JSONModelEncoder/encode(_:)`` share.
///
/// Containers write straight into the text, so only the innermost open one can be written to. A
/// model that goes back to an outer container closes the inner ones (as a nested container
/// finished with); one that then writes to a closed container cannot be written as it goes, and
/// ``abandoned`` sends the encode down the tree path instead.
final class JSONStreamWriter {
    var bytes: [UInt8] = []
    let strategies: JSONModelEncoder.Strategies
    /// The encoders whose container is open, innermost last.
    var open: [JSONStreamEncoder] = []
    /// Set when a model wrote out of order; the text is then abandoned, even if the model
    /// swallowed the error that said so.
    var abandoned = false
    /// Names after the key strategy, made once per coding key text.
    var convertedNames: [String: [UInt8]] = [:]

    init(strategies: JSONModelEncoder.Strategies) {
        self.strategies = strategies
        bytes.reserveCapacity(1024)
    }

    /// Makes `encoder`'s container the innermost open one, closing those opened after it.
    /// - Throws: ``OutOfOrder`` when `encoder`'s container was closed already.
    @inline(__always)
    func enter(_ encoder: JSONStreamEncoder) throws {
        if open.last !== encoder { try unwind(to: encoder) }
    }

    private func unwind(to encoder: JSONStreamEncoder) throws {
        guard encoder.isOpen else { throw abandon() }
        while let top = open.last, top !== encoder { close(top) }
    }

    /// Writes the closing bracket of `encoder`'s container (or `{}` for an encoder that wrote
    /// nothing) and removes it from the open ones.
    func close(_ encoder: JSONStreamEncoder) {
        switch encoder.state {
        case .empty:
            bytes.append(UInt8(ascii: "{"))
            bytes.append(UInt8(ascii: "}"))
        case .keyed(let hasMembers):
            if encoder.members.count > 1 { sortMembers(of: encoder) }
            if hasMembers { newline(encoder.depth) }
            bytes.append(UInt8(ascii: "}"))
        case .unkeyed(let hasElements):
            if hasElements { newline(encoder.depth) }
            bytes.append(UInt8(ascii: "]"))
        case .single, .closed:
            break
        }
        encoder.state = .closed
        if open.last === encoder { open.removeLast() }
    }

    /// Puts the members of `encoder`'s object, the last text written, in the order of their names
    /// (``JSONWriter/Options/sortedKeys``); their own objects were sorted when they closed.
    private func sortMembers(of encoder: JSONStreamEncoder) {
        let members = encoder.members
        let end = bytes.count
        var texts: [(name: String, range: Range<Int>)] = []
        texts.reserveCapacity(members.count)
        for (position, member) in members.enumerated() {
            let stop = position + 1 < members.count ? members[position + 1].start - 1 : end  // without the comma
            texts.append((member.name, member.start..<stop))
        }
        texts.sort { $0.name < $1.name }
        var region: [UInt8] = []
        region.reserveCapacity(end - members[0].start)
        for (position, text) in texts.enumerated() {
            if position > 0 { region.append(UInt8(ascii: ",")) }
            region.append(contentsOf: bytes[text.range])
        }
        bytes.replaceSubrange(members[0].start..<end, with: region)
    }

    /// Marks the text abandoned and returns the error that unwinds the model.
    func abandon() -> OutOfOrder {
        abandoned = true
        return OutOfOrder()
    }

    /// Thrown through a model that writes to a container it had finished with.
    struct OutOfOrder: Error {}

    // MARK: Text

    @inline(__always)
    func newline(_ depth: Int) {
        guard strategies.prettyPrinted else { return }
        bytes.append(UInt8(ascii: "\n"))
        for _ in 0..<(depth * 2) { bytes.append(UInt8(ascii: " ")) }
    }

    /// Writes a member name (after the key strategy) and the colon.
    func writeName(_ key: some CodingKey) {
        let name = key.stringValue
        if case .useDefaultKeys = strategies.keyEncoding {
            writeString(name)
        } else if let converted = convertedNames[name] {
            bytes.append(contentsOf: converted)
        } else {
            let start = bytes.count
            writeString(strategies.keyEncoding.key(name))
            convertedNames[name] = Array(bytes[start...])
        }
        bytes.append(UInt8(ascii: ":"))
        if strategies.prettyPrinted { bytes.append(UInt8(ascii: " ")) }
    }

    @inline(__always)
    func writeString(_ text: String) {
        var text = text
        text.withUTF8 { JSONWriter.appendString($0, escapesSlashes: strategies.escapesSlashes, to: &bytes) }
    }

    @inline(__always)
    func writeBool(_ value: Bool) {
        bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
    }

    @inline(__always)
    func writeInteger<I: FixedWidthInteger>(_ value: I) {
        if I.isSigned {
            JSONWriter.appendInteger(Int64(value), to: &bytes)
        } else {
            JSONWriter.appendUnsigned(UInt64(value), negative: false, to: &bytes)
        }
    }

    func writeDouble(_ value: Double, at encoder: JSONStreamEncoder, key: (any CodingKey)?) throws {
        guard value.isFinite else {
            guard case .convertToString(let positive, let negative, let nan) = strategies.nonConformingFloatEncoding
            else {
                throw SatchelError(
                    .unencodableValue, "JSON cannot express the number \(value)",
                    keyPath: encoder.path(appending: key))
            }
            writeString(value.isNaN ? nan : value > 0 ? positive : negative)
            return
        }
        // Swift's description is the shortest text that reads back as the same double.
        bytes.append(contentsOf: value.description.utf8)
    }
}

/// One value being encoded: the `Encoder` a model's `encode(to:)` is given, and the single-value
/// container.
final class JSONStreamEncoder: Encoder, CodingPathNode {
    enum State {
        /// Nothing written yet.
        case empty
        /// An object is open; whether it has members.
        case keyed(Bool)
        /// An array is open; whether it has elements.
        case unkeyed(Bool)
        /// A single value was written.
        case single
        /// The container was closed.
        case closed
    }

    let writer: JSONStreamWriter
    let parent: JSONStreamEncoder?
    let key: (any CodingKey)?
    let depth: Int
    var state = State.empty
    /// With sorted keys: each member's name and where its text starts (after the comma).
    var members: [(name: String, start: Int)] = []

    init(writer: JSONStreamWriter, parent: JSONStreamEncoder?, key: (any CodingKey)?, depth: Int) {
        self.writer = writer
        self.parent = parent
        self.key = key
        self.depth = depth
    }

    var isOpen: Bool {
        switch state {
        case .keyed, .unkeyed: true
        case .empty: writer.open.last === self
        case .single, .closed: false
        }
    }

    var userInfo: [CodingUserInfoKey: Any] { writer.strategies.userInfo }

    // MARK: Containers

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        do {
            try open(keyed: true)
        } catch {
            // `container(keyedBy:)` cannot throw: the writer is abandoned, and the container's
            // first write throws.
        }
        return KeyedEncodingContainer(KeyedJSONStreamContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        do {
            try open(keyed: false)
        } catch {
            // As in `container(keyedBy:)`.
        }
        return UnkeyedJSONStreamContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    /// Opens this encoder's object or array; asking again for the same kind continues it (a
    /// subclass and its superclass encoding into one object).
    func open(keyed: Bool) throws {
        switch state {
        case .empty:
            if writer.open.last === self { writer.open.removeLast() }
            try checkDepth()
            writer.bytes.append(keyed ? UInt8(ascii: "{") : UInt8(ascii: "["))
            state = keyed ? .keyed(false) : .unkeyed(false)
            writer.open.append(self)
        case .keyed where keyed, .unkeyed where !keyed:
            try writer.enter(self)
        default:
            throw writer.abandon()
        }
    }

    private func checkDepth() throws {
        if depth >= writer.strategies.maxDepth {
            throw SatchelError.limitExceeded(
                "maxDepth", writer.strategies.maxDepth, "nesting", keyPath: path(appending: nil))
        }
    }

    /// Starts the next member (`,` and the name) of this encoder's open object.
    @inline(__always)
    func beginMember(_ key: some CodingKey) throws {
        try writer.enter(self)
        guard case .keyed(let hasMembers) = state else { throw writer.abandon() }
        if hasMembers { writer.bytes.append(UInt8(ascii: ",")) } else { state = .keyed(true) }
        if writer.strategies.sortedKeys {
            members.append((writer.strategies.keyEncoding.key(key.stringValue), writer.bytes.count))
        }
        writer.newline(depth + 1)
        writer.writeName(key)
    }

    /// Starts the next element (`,`) of this encoder's open array.
    @inline(__always)
    func beginElement() throws {
        try writer.enter(self)
        guard case .unkeyed(let hasElements) = state else { throw writer.abandon() }
        if hasElements { writer.bytes.append(UInt8(ascii: ",")) } else { state = .unkeyed(true) }
        writer.newline(depth + 1)
    }

    /// Starts this encoder's single value.
    @inline(__always)
    func beginSingle() throws {
        guard case .empty = state else { throw writer.abandon() }
        if writer.open.last === self { writer.open.removeLast() }
        state = .single
    }

    /// An encoder for a member or element whose value is written next.
    func child(key: any CodingKey) -> JSONStreamEncoder {
        JSONStreamEncoder(writer: writer, parent: self, key: key, depth: depth + 1)
    }

    // MARK: Values

    /// Writes `value` in the slot just begun, as the child `key` of this encoder.
    func write<T: Encodable>(_ value: T, key: (any CodingKey)?) throws {
        if try writeSpecial(value, key: key) { return }
        let encoder = key.map { child(key: $0) } ?? self
        try encoder.encodeWhole(value)
    }

    /// Runs `value.encode(to:)` on this encoder and closes what it opened (`{}` when it wrote
    /// nothing, as Foundation writes a nested value that encodes nothing).
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

    /// Scalars written in place, and the types whose JSON form is not their `Encodable` form;
    /// `false` for other types.
    ///
    /// Metatype comparisons, not `as?` casts: in this unspecialized generic code a cast calls into
    /// the runtime, a comparison is a load and a compare. Each `unsafeBitCast` reinterprets the
    /// value as the very type the comparison before it proved `T` to be.
    private func writeSpecial<T: Encodable>(_ value: T, key: (any CodingKey)?) throws -> Bool {
        if T.self == String.self {
            writer.writeString(unsafeBitCast(value, to: String.self))
        } else if T.self == Int.self {
            writer.writeInteger(unsafeBitCast(value, to: Int.self))
        } else if T.self == Double.self {
            try writer.writeDouble(unsafeBitCast(value, to: Double.self), at: self, key: key)
        } else if T.self == Bool.self {
            writer.writeBool(unsafeBitCast(value, to: Bool.self))
        } else if T.self == Date.self {
            try writeDate(unsafeBitCast(value, to: Date.self), key: key)
        } else if T.self == Data.self {
            try writeData(unsafeBitCast(value, to: Data.self), key: key)
        } else if T.self == URL.self {
            writer.writeString(unsafeBitCast(value, to: URL.self).absoluteString)
        } else if T.self == Decimal.self {
            let decimal = unsafeBitCast(value, to: Decimal.self)
            guard decimal.isFinite else {
                throw SatchelError(
                    .unencodableValue, "JSON cannot express the number \(decimal)", keyPath: path(appending: key))
            }
            writer.bytes.append(contentsOf: decimal.description.utf8)
        } else if T.self == Value.self {
            var options = JSONWriter.Options()
            options.escapesSlashes = writer.strategies.escapesSlashes
            options.maxDepth = max(0, writer.strategies.maxDepth - depth)
            do {
                try JSONWriter(options: options).write(unsafeBitCast(value, to: Value.self), into: &writer.bytes)
            } catch {
                throw error.underKeyPath(path(appending: key))
            }
        } else {
            return false
        }
        return true
    }

    private func writeDate(_ date: Date, key: (any CodingKey)?) throws {
        switch writer.strategies.dateEncoding.scalar(of: date) {
        case .string(let text)?: writer.writeString(text)
        case .double(let number)?: try writer.writeDouble(number, at: self, key: key)
        default:
            guard case .custom(let encode) = writer.strategies.dateEncoding else { return }
            let encoder = key.map { child(key: $0) } ?? self
            try encoder.encodeWhole(StrategyValue(value: date, encode: encode))
        }
    }

    private func writeData(_ data: Data, key: (any CodingKey)?) throws {
        switch writer.strategies.dataEncoding {
        case .base64: writer.writeString(data.base64EncodedString())
        case .deferredToData:
            let encoder = key.map { child(key: $0) } ?? self
            try encoder.encodeWhole(Array(data))
        case .custom(let encode):
            let encoder = key.map { child(key: $0) } ?? self
            try encoder.encodeWhole(StrategyValue(value: data, encode: encode))
        }
    }

    /// A value written by a custom strategy's closure.
    struct StrategyValue<Wrapped>: Encodable {
        let value: Wrapped
        let encode: (Wrapped, any Encoder) throws -> Void
        func encode(to encoder: any Encoder) throws { try encode(value, encoder) }
    }
}

extension JSONStreamEncoder: SingleValueEncodingContainer {
    func encodeNil() throws {
        try beginSingle()
        writer.bytes.append(contentsOf: "null".utf8)
    }
    func encode(_ value: Bool) throws {
        try beginSingle()
        writer.writeBool(value)
    }
    func encode(_ value: String) throws {
        try beginSingle()
        writer.writeString(value)
    }
    func encode(_ value: Double) throws {
        try beginSingle()
        try writer.writeDouble(value, at: self, key: nil)
    }
    func encode(_ value: Float) throws {
        try beginSingle()
        try writer.writeDouble(Double(value), at: self, key: nil)
    }
    func encode(_ value: Int) throws { try single(value) }
    func encode(_ value: Int8) throws { try single(value) }
    func encode(_ value: Int16) throws { try single(value) }
    func encode(_ value: Int32) throws { try single(value) }
    func encode(_ value: Int64) throws { try single(value) }
    func encode(_ value: UInt) throws { try single(value) }
    func encode(_ value: UInt8) throws { try single(value) }
    func encode(_ value: UInt16) throws { try single(value) }
    func encode(_ value: UInt32) throws { try single(value) }
    func encode(_ value: UInt64) throws { try single(value) }

    private func single<I: FixedWidthInteger>(_ value: I) throws {
        try beginSingle()
        writer.writeInteger(value)
    }

    func encode<T: Encodable>(_ value: T) throws {
        try beginSingle()
        state = .empty  // a custom date or data strategy may encode into this encoder
        if try writeSpecial(value, key: nil) {
            if case .empty = state { state = .single }
            return
        }
        try encodeWhole(value)
    }
}
