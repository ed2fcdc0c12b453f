// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Reads a binary property list (`bplist00`) into a ``Value``, checking every offset, count and
/// reference against the input before using it.
///
/// The trailer (the last 32 bytes) gives the offset table's place, the sizes of offsets and
/// object references, the object count and the top object. Every object is decoded at most once
/// and cached, so shared objects cost nothing extra and a reference cycle is found when an object
/// refers to one still being decoded. Containers deeper than `Limits.maxDepth`, dictionaries with
/// more than `Limits.maxPairs` members, strings past `Limits.maxStringBytes`, and a tree that,
/// counting shared objects at each reference, has more than `Limits.maxBodyBytes` values (a
/// "billion laughs" of shared arrays) are errors.
struct BinaryPropertyListReader {
    let bytes: UnsafeRawBufferPointer
    let limits: Limits
    private let offsetIntSize: Int
    let objectRefSize: Int
    private let objectCount: Int
    let topObject: Int
    private let offsetTableStart: Int

    /// Decoded objects by index.
    private var cache: [Value?]
    /// Values in each decoded object's tree, shared objects counted at each reference.
    private var expandedSizes: [Int]
    /// Objects being decoded (on the current path from the top object).
    private var inProgress: [Bool]
    /// Values in the tree so far, shared objects counted at each reference.
    private var expandedCount = 0
    /// The path to a failure, innermost first, collected while the error unwinds.
    private var errorPath: [KeyPathComponent] = []

    /// Checks the header and trailer of `bytes`.
    /// - Throws: ``SatchelError`` when the input is too short, has another magic, or its trailer
    ///   describes an offset table that does not fit.
    init(_ bytes: UnsafeRawBufferPointer, limits: Limits) throws(SatchelError) {
        self.bytes = bytes
        self.limits = limits
        let headerAndTrailer = 8 + 32
        guard bytes.count >= headerAndTrailer + 1 else {
            throw SatchelError(
                .truncatedInput,
                "a binary property list needs at least \(headerAndTrailer + 1) bytes, found \(bytes.count)",
                offset: bytes.count)
        }
        guard bytes.prefix(8).elementsEqual("bplist00".utf8) else {
            throw SatchelError(.syntaxError, "a binary property list starts with bplist00", offset: 0)
        }
        let trailer = bytes.count - 32
        offsetIntSize = Int(bytes[trailer + 6])
        objectRefSize = Int(bytes[trailer + 7])
        guard (1...8).contains(offsetIntSize) else {
            throw SatchelError(.syntaxError, "trailer: offset size \(offsetIntSize) is not 1 to 8", offset: trailer + 6)
        }
        guard (1...8).contains(objectRefSize) else {
            throw SatchelError(
                .syntaxError, "trailer: object reference size \(objectRefSize) is not 1 to 8", offset: trailer + 7)
        }
        let count = Self.bigEndian(bytes, at: trailer + 8, size: 8)
        let top = Self.bigEndian(bytes, at: trailer + 16, size: 8)
        let tableStart = Self.bigEndian(bytes, at: trailer + 24, size: 8)
        // The table lies between the header and the trailer, so each bound is below the input size.
        guard tableStart >= 9, tableStart < UInt64(trailer) else {
            throw SatchelError(
                .syntaxError, "trailer: offset table offset \(tableStart) is outside the objects", offset: trailer + 24)
        }
        let tableRoom = (UInt64(trailer) - tableStart) / UInt64(offsetIntSize)
        guard count >= 1, count <= tableRoom else {
            throw SatchelError(
                .syntaxError, "trailer: \(count) objects do not fit an offset table of \(tableRoom) entries",
                offset: trailer + 8)
        }
        guard top < count else {
            throw SatchelError(
                .syntaxError, "trailer: top object \(top) is not below the object count \(count)", offset: trailer + 16)
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTableStart = Int(tableStart)
        cache = Array(repeating: nil, count: objectCount)
        expandedSizes = Array(repeating: 0, count: objectCount)
        inProgress = Array(repeating: false, count: objectCount)
    }

    /// Decodes the top object.
    /// - Throws: ``SatchelError`` naming the byte offset and key path of the first problem.
    mutating func read() throws(SatchelError) -> Value {
        do {
            // `readObject` recurses with untyped throws (small frames); it throws only SatchelErrors.
            return try readObject(topObject, depth: 0)
        } catch var error as SatchelError {
            if error.keyPath == nil && !errorPath.isEmpty {
                error.keyPath = KeyPathComponent.render(errorPath.reversed())
            }
            throw error
        } catch {
            throw SatchelError(.internal, "unexpected error: \(error)")
        }
    }

    /// Decodes the object at `index` and its subtree, `depth` levels below the top object.
    /// - Throws: As ``read()``.
    mutating func read(object index: Int, depth: Int) throws(SatchelError) -> Value {
        do {
            return try readObject(index, depth: depth)
        } catch {
            // `readObject` recurses with untyped throws (small frames); it throws only SatchelErrors.
            throw SatchelError.wrap(error)
        }
    }

    // MARK: Objects

    // The recursive functions (readObject, readArray, readDictionary) throw untyped errors made
    // by the failure functions below, so each level's stack frame holds a pointer rather than a SatchelError and
    // the default Limits.maxDepth fits a small thread stack.

    private mutating func readObject(_ index: Int, depth: Int) throws -> Value {
        if let cached = cache[index] {
            try countValues(expandedSizes[index], at: nil)
            return cached
        }
        let offset = try objectOffset(index)
        if inProgress[index] {
            throw Self.cycleFailure(index, at: offset)
        }
        let before = expandedCount
        inProgress[index] = true
        let value: Value
        switch bytes[offset] >> 4 {
        case 0xA: value = try readArray(at: offset, depth: depth)
        case 0xD: value = try readDictionary(at: offset, depth: depth)
        default: value = try decodeScalar(at: offset)
        }
        inProgress[index] = false
        try countValues(1, at: offset)
        cache[index] = value
        expandedSizes[index] = expandedCount - before
        return value
    }

    @inline(__always)
    private mutating func countValues(_ count: Int, at offset: Int?) throws {
        expandedCount += count
        if expandedCount > limits.maxBodyBytes { throw Self.expansionFailure(limits.maxBodyBytes, at: offset) }
    }

    // The errors of the recursive path, built (message interpolation included) outside its
    // frames and returned boxed.

    @inline(never)
    private static func expansionFailure(_ bound: Int, at offset: Int?) -> any Error {
        SatchelError.limitExceeded(
            "maxBodyBytes", bound, "the values of the property list (shared objects counted at each reference)",
            offset: offset)
    }

    @inline(never)
    private static func cycleFailure(_ index: Int, at offset: Int) -> any Error {
        SatchelError(.syntaxError, "object \(index) contains itself (a reference cycle)", offset: offset)
    }

    @inline(never)
    private static func keyFailure(_ position: Int, at offset: Int) -> any Error {
        SatchelError(.syntaxError, "dictionary key \(position) is not a string", offset: offset)
    }

    @inline(never)
    private static func offsetFailure(index: Int, offset: UInt64, entry: Int) -> any Error {
        SatchelError(.syntaxError, "object \(index) has offset \(offset), outside the objects", offset: entry)
    }

    @inline(never)
    private static func referenceFailure(_ reference: UInt64, count: Int, at position: Int) -> any Error {
        SatchelError(
            .syntaxError, "object reference \(reference) is not below the object count \(count)", offset: position)
    }

    private mutating func readArray(at offset: Int, depth: Int) throws -> Value {
        let (count, start) = try readReferences(at: offset, perElement: 1, depth: depth)
        var elements: [Value] = []
        elements.reserveCapacity(count)
        for position in 0..<count {
            let reference = try readReference(at: start + position * objectRefSize)
            do {
                elements.append(try readObject(reference, depth: depth + 1))
            } catch {
                errorPath.append(.index(position))
                throw error
            }
        }
        return .array(elements)
    }

    private mutating func readDictionary(at offset: Int, depth: Int) throws -> Value {
        let (count, start) = try readReferences(at: offset, perElement: 2, depth: depth)
        if count > limits.maxPairs {
            throw SatchelError.limitExceeded(
                "maxPairs", limits.maxPairs, "a dictionary of \(count) members", offset: offset)
        }
        var members = ValueObject(minimumCapacity: count)
        let valuesStart = start + count * objectRefSize
        for position in 0..<count {
            let keyReference = try readReference(at: start + position * objectRefSize)
            guard case .string(let key) = try readObject(keyReference, depth: depth + 1) else {
                errorPath.append(.index(position))
                throw Self.keyFailure(position, at: offset)
            }
            let valueReference = try readReference(at: valuesStart + position * objectRefSize)
            do {
                members[key] = try readObject(valueReference, depth: depth + 1)
            } catch {
                errorPath.append(.key(key))
                throw error
            }
        }
        return .object(members)
    }

    /// The element count of a container and where its references start, after checking the
    /// nesting depth and that `count × perElement` references fit before the offset table.
    @inline(never)
    func readReferences(at offset: Int, perElement: Int, depth: Int) throws -> (Int, Int) {
        if depth >= limits.maxDepth {
            throw SatchelError.limitExceeded("maxDepth", limits.maxDepth, "nesting", offset: offset)
        }
        let (count, start) = try readCount(at: offset, low: Int(bytes[offset] & 0x0F))
        let (references, overflow) = count.multipliedReportingOverflow(by: perElement * objectRefSize)
        guard !overflow else {
            throw SatchelError(.syntaxError, "a container of \(count) objects does not fit", offset: offset)
        }
        try checkRange(start, references, what: "container", at: offset)
        return (count, start)
    }

    // MARK: Bytes

    /// The count of the object at `offset`: the marker's low nibble, or an integer object after it.
    func readCount(at offset: Int, low: Int) throws(SatchelError) -> (count: Int, start: Int) {
        guard low == 0x0F else { return (low, offset + 1) }
        try checkRange(offset + 1, 1, what: "count", at: offset)
        let marker = bytes[offset + 1]
        guard marker >> 4 == 0x1, marker & 0x0F <= 3 else {
            throw SatchelError(.syntaxError, "the count is not an integer of 1 to 8 bytes", offset: offset + 1)
        }
        let size = 1 << Int(marker & 0x0F)
        try checkRange(offset + 2, size, what: "count", at: offset)
        let count = Self.bigEndian(bytes, at: offset + 2, size: size)
        // Anything past the input is caught by the caller's range check; this keeps it an Int.
        guard count <= UInt64(offsetTableStart) else {
            throw SatchelError(.syntaxError, "a count of \(count) is larger than the property list", offset: offset + 1)
        }
        return (Int(count), offset + 2 + size)
    }

    /// Throws unless `count` bytes from `start` lie before the offset table.
    @inline(__always)
    func checkRange(_ start: Int, _ count: Int, what: String, at offset: Int) throws(SatchelError) {
        guard count <= offsetTableStart - start else {
            throw SatchelError(
                .truncatedInput, "the \(what) runs \(count - (offsetTableStart - start)) bytes past the objects",
                offset: offset)
        }
    }

    // objectOffset and readReference run once per object and reference: they inline, and leave
    // building their errors to the non-inlined failure functions so the recursive frames stay
    // small.

    @inline(__always)
    func objectOffset(_ index: Int) throws -> Int {
        let entry = offsetTableStart + index * offsetIntSize
        let offset = Self.bigEndian(bytes, at: entry, size: offsetIntSize)
        guard offset >= 8, offset < UInt64(offsetTableStart) else {
            throw Self.offsetFailure(index: index, offset: offset, entry: entry)
        }
        return Int(offset)
    }

    @inline(__always)
    func readReference(at position: Int) throws -> Int {
        let reference = Self.bigEndian(bytes, at: position, size: objectRefSize)
        guard reference < UInt64(objectCount) else {
            throw Self.referenceFailure(reference, count: objectCount, at: position)
        }
        return Int(reference)
    }

    /// The unsigned big-endian number of `size` (1 to 8) bytes at `position`; the caller has
    /// checked the range.
    @inline(__always)
    static func bigEndian(_ bytes: UnsafeRawBufferPointer, at position: Int, size: Int) -> UInt64 {
        var result: UInt64 = 0
        for index in position..<position + size {
            result = result << 8 | UInt64(bytes[index])
        }
        return result
    }
}
