// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Where a property list is written, one value at a time: the XML text
/// (``XMLPropertyListOutput``) or the binary object table (``BinaryPropertyListOutput``).
///
/// Both ``PropertyListWriter`` paths drive it: the ``Value`` walk below and the model encoder
/// (``PropertyListStreamEncoder``), so each format's rules live once. Values arrive in document
/// order; a container's members come between its `begin` and `end`, a dictionary's as a key then
/// its value. `depth` is the value's nesting (0 at the top), which the XML form indents by.
protocol PropertyListOutput: AnyObject {
    /// Opens a dictionary (`keyed`) or an array as the next value; `end` closes it.
    func begin(keyed: Bool, depth: Int)
    /// Closes the innermost open container (`<dict/>` or `<array/>` when it is empty).
    func end(keyed: Bool, depth: Int)
    /// The next member's key.
    /// - Throws: ``SatchelError/Code/unencodableValue`` for text the format cannot hold.
    func key(_ name: String, depth: Int) throws(SatchelError)
    func bool(_ flag: Bool, depth: Int)
    func integer(_ number: Int64, depth: Int)
    /// An unsigned integer; those up to `Int64.max` are written as ``integer(_:depth:)`` writes them.
    func unsignedInteger(_ number: UInt64, depth: Int)
    func double(_ number: Double, depth: Int)
    /// - Throws: ``SatchelError/Code/unencodableValue`` for text the format cannot hold.
    func string(_ text: String, depth: Int) throws(SatchelError)
    /// - Throws: ``SatchelError/Code/unencodableValue`` for a date the format cannot hold.
    func date(_ date: Date, depth: Int) throws(SatchelError)
    func data(_ bytes: UnsafeRawBufferPointer, depth: Int)
    func uid(_ number: UInt64, depth: Int)
    /// The finished property list.
    func finish() -> [UInt8]
}

extension PropertyListOutput {
    /// Writes `value` as the whole property list.
    /// - Throws: ``SatchelError`` (`unencodableValue`, `limitExceeded`) naming the key path.
    func write(_ value: Value, maxDepth: Int) throws(SatchelError) -> [UInt8] {
        var path: [KeyPathComponent] = []
        do {
            try append(value, depth: 0, maxDepth: maxDepth, path: &path)
        } catch {
            // `append` recurses with untyped throws (small frames); it throws only SatchelErrors.
            var error = error as? SatchelError ?? SatchelError(.internal, "unexpected error: \(error)")
            error.keyPath = KeyPathComponent.render(path)
            throw error
        }
        return finish()
    }

    /// Writes `value` at `depth`. On an error, `path` is left at the failing value. Recursive:
    /// untyped throws and scalars in a non-inlined helper keep each level's stack frame small.
    func append(_ value: Value, depth: Int, maxDepth: Int, path: inout [KeyPathComponent]) throws {
        switch value {
        case .array(let elements):
            try Self.checkDepth(depth, maxDepth)
            begin(keyed: false, depth: depth)
            for (position, element) in elements.enumerated() {
                path.append(.index(position))
                try append(element, depth: depth + 1, maxDepth: maxDepth, path: &path)
                path.removeLast()
            }
            end(keyed: false, depth: depth)
        case .object(let members):
            try Self.checkDepth(depth, maxDepth)
            begin(keyed: true, depth: depth)
            for (name, member) in members {
                path.append(.key(name))
                try key(name, depth: depth + 1)
                try append(member, depth: depth + 1, maxDepth: maxDepth, path: &path)
                path.removeLast()
            }
            end(keyed: true, depth: depth)
        default:
            try appendScalar(value, depth: depth)
        }
    }

    @inline(never)
    private func appendScalar(_ value: Value, depth: Int) throws(SatchelError) {
        switch value {
        case .bool(let flag): bool(flag, depth: depth)
        case .integer(let number): integer(number, depth: depth)
        case .unsignedInteger(let number): unsignedInteger(number, depth: depth)
        case .double(let number): double(number, depth: depth)
        case .string(let text): try string(text, depth: depth)
        case .date(let date): try self.date(date, depth: depth)
        case .bytes(let bytes): bytes.withUnsafeBytes { data($0, depth: depth) }
        case .payload(let payload):
            guard let uid = payload as? PropertyListUID else {
                throw SatchelError(.unencodableValue, "a \(type(of: payload).kind) payload has no property-list form")
            }
            self.uid(uid.value, depth: depth)
        case .null: throw Self.nullFailure
        case .array, .object: break
        }
    }

    /// What a null, which property lists cannot hold, is refused with.
    static var nullFailure: SatchelError { SatchelError(.unencodableValue, "property lists have no null") }

    @inline(never)
    static func checkDepth(_ depth: Int, _ maxDepth: Int) throws(SatchelError) {
        if depth >= maxDepth {
            throw SatchelError.limitExceeded("maxDepth", maxDepth, "nesting")
        }
    }
}

/// The mutable state of an output or of the model encoder's writer, kept behind a pointer that
/// its owner reaches through unsafe addressors instead of in stored properties.
///
/// Every access to a class's stored `var` is checked for exclusivity at run time
/// (`swift_beginAccess`): a third of the binary encoder's instructions went to those checks.
/// The checks guard against overlapping accesses, and there are none to guard against here: an
/// output and a writer belong to one encode on one thread, and none of their methods calls out
/// to code that could reach them again while it is modifying their state.
final class PropertyListStateStorage<State> {
    let pointer: UnsafeMutablePointer<State>

    init(_ state: State) {
        pointer = .allocate(capacity: 1)
        pointer.initialize(to: state)
    }

    deinit {
        pointer.deinitialize(count: 1)
        pointer.deallocate()
    }
}
