// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// Checks of the pointers and sizes a C caller passes: every one is validated before use, since
/// a Swift trap would kill the host process.
enum Arguments {
    /// `SATCHEL_NTS`, `(size_t)-1`, as Swift imports `size_t`.
    static let nulTerminated = -1

    /// The pointer, or `SATCHEL_E_INVALID_ARGUMENT` naming the parameter when it is NULL.
    static func required<Pointer>(_ pointer: Pointer?, _ name: String) throws(SatchelError) -> Pointer {
        guard let pointer else { throw SatchelError(.invalidArgument, "\(name) is NULL") }
        return pointer
    }

    /// The bytes of a (pointer, length) argument; NULL is allowed only with length 0.
    static func bytes(
        _ pointer: UnsafeRawPointer?, _ length: Int, _ name: String
    ) throws(SatchelError) -> UnsafeRawBufferPointer {
        guard length >= 0 else {
            throw SatchelError(.invalidArgument, "\(name): the length \(UInt(bitPattern: length)) is too large")
        }
        if length == 0 { return UnsafeRawBufferPointer(start: nil, count: 0) }
        guard let pointer else { throw SatchelError(.invalidArgument, "\(name) is NULL with a length of \(length)") }
        return UnsafeRawBufferPointer(start: pointer, count: length)
    }

    /// A UTF-8 string given as (pointer, length) or (pointer, `SATCHEL_NTS`).
    ///
    /// - Throws: `SATCHEL_E_INVALID_ARGUMENT` for NULL, `SATCHEL_E_ENCODING` for bytes that are
    ///   not UTF-8.
    static func string(_ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String) throws(SatchelError) -> String {
        guard let pointer else { throw SatchelError(.invalidArgument, "\(name) is NULL") }
        let count = length == nulTerminated ? strlen(pointer) : length
        let buffer = try bytes(pointer, count, name)
        guard let string = String(validating: buffer, as: UTF8.self) else {
            throw SatchelError(.invalidEncoding, "\(name) is not valid UTF-8")
        }
        return string
    }

    /// Like ``string(_:_:_:)``, but NULL means `nil`.
    static func optionalString(
        _ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String
    ) throws(SatchelError) -> String? {
        guard pointer != nil else { return nil }
        return try string(pointer, length, name)
    }

    /// The prefix map of an XML element path: an object value of prefix → namespace URI
    /// strings, or NULL for none.
    /// - Throws: `SATCHEL_E_TYPE_MISMATCH` for another value or a member that is not a string.
    static func namespaces(_ pointer: OpaquePointer?) throws(SatchelError) -> [String: String] {
        guard let pointer else { return [:] }
        guard case let .object(object) = try ValueHandle.from(pointer, "namespaces").value else {
            throw SatchelError(.typeMismatch, "namespaces: an object of prefix → namespace URI strings is needed")
        }
        var namespaces: [String: String] = [:]
        for (prefix, uri) in object {
            guard case let .string(uri) = uri else {
                throw SatchelError(.typeMismatch, "namespaces: the member \"\(prefix)\" is not a string")
            }
            namespaces[prefix] = uri
        }
        return namespaces
    }

    /// A NUL-terminated path.
    static func path(_ pointer: UnsafePointer<CChar>?, _ name: String) throws(SatchelError) -> String {
        try string(pointer, nulTerminated, name)
    }

    /// A media type given as a string.
    static func mediaType(
        _ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String
    ) throws(SatchelError) -> MediaType {
        try MediaType(parsing: string(pointer, length, name))
    }

    /// Like ``mediaType(_:_:_:)``, but NULL means `nil`: no Content-Type, as a response without
    /// one (the length is then not read).
    static func optionalMediaType(
        _ pointer: UnsafePointer<CChar>?, _ length: Int, _ name: String
    ) throws(SatchelError) -> MediaType? {
        guard pointer != nil else { return nil }
        return try mediaType(pointer, length, name)
    }

    /// A struct the caller filled or will have filled (`satchel_image_info`, the plugin
    /// vtables, …), after its `struct_size` and `abi_version` are checked. The two fields are
    /// read on their own first, so a struct smaller than this library's is never read or
    /// written past its end.
    ///
    /// - Throws: `SATCHEL_E_INVALID_ARGUMENT` for NULL, `SATCHEL_E_ABI_MISMATCH` for an
    ///   `abi_version` this library does not know or a `struct_size` smaller than version 1's.
    static func versioned<Struct>(
        _ pointer: UnsafeMutablePointer<Struct>?, _ name: String
    ) throws(SatchelError) -> UnsafeMutablePointer<Struct> {
        let pointer = try required(pointer, name)
        _ = try checkedStructSize(UnsafeRawPointer(pointer), Struct.self, minimumSize: MemoryLayout<Struct>.size)
        return pointer
    }

    /// ``versioned(_:_:)`` for a struct the library only reads, whose later versions appended
    /// members: a struct of at least `minimumSize` bytes (its first version's size) is read up to
    /// its `struct_size`, and the members past it are zero (NULL).
    static func versioned<Struct>(
        _ pointer: UnsafePointer<Struct>?, _ name: String, minimumSize: Int = MemoryLayout<Struct>.size
    ) throws(SatchelError) -> Struct {
        let pointer = try required(pointer, name)
        let raw = UnsafeRawPointer(pointer)
        let structSize = try checkedStructSize(raw, Struct.self, minimumSize: minimumSize)
        guard structSize < MemoryLayout<Struct>.size else { return pointer.pointee }
        // An earlier version's struct: copy what it has into zeroed storage of this version's size.
        let storage = UnsafeMutableRawPointer.allocate(
            byteCount: MemoryLayout<Struct>.size, alignment: MemoryLayout<Struct>.alignment)
        defer { storage.deallocate() }
        storage.initializeMemory(as: UInt8.self, repeating: 0, count: MemoryLayout<Struct>.size)
        // Whole members only: a size that ends inside a pointer member leaves that member NULL.
        storage.copyMemory(
            from: raw, byteCount: max(minimumSize, structSize - structSize % MemoryLayout<UnsafeRawPointer>.size))
        return storage.load(as: Struct.self)
    }

    /// The `struct_size` of the struct at `raw`, after it and `abi_version` are read on their own
    /// and checked: a known version, and at least `minimumSize` bytes.
    private static func checkedStructSize<Struct>(
        _ raw: UnsafeRawPointer, _ type: Struct.Type, minimumSize: Int
    ) throws(SatchelError) -> Int {
        let structSize = Int(raw.loadUnaligned(as: UInt32.self))
        let abiVersion = raw.loadUnaligned(fromByteOffset: 4, as: UInt32.self)
        // The type's name is made only for a message: it cost more than the rest of a small decode.
        guard abiVersion >= 1, abiVersion <= UInt32(SATCHEL_ABI_VERSION) else {
            throw SatchelError(
                .abiMismatch,
                "\(Struct.self): abi_version \(abiVersion) is not one this library knows (1...\(SATCHEL_ABI_VERSION))")
        }
        guard structSize >= minimumSize else {
            throw SatchelError(
                .abiMismatch, "\(Struct.self): struct_size \(structSize) is smaller than version 1's \(minimumSize)")
        }
        return structSize
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
