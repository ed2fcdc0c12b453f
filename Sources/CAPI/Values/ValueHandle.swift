// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers
import Synchronization

/// The object behind a `satchel_value *`: a ``Value`` plus the C copies of its strings and the
/// handles of its children, made on first access and kept as long as the handle lives.
///
/// A handle the caller owns was returned retained and is released by `satchel_value_free`; a
/// handle owned by a parent (a container, a multipart value, a response) is kept in the
/// parent's cache and returned unretained.
final class ValueHandle: @unchecked Sendable {
    // Safe to share: `value` changes only through the builders, which the header restricts to
    // one thread and to values nobody has read children from (checked: `cache` must be empty);
    // the caches are behind a mutex.

    /// What a cached C string or child handle is for.
    enum CacheKey: Hashable {
        case scalar
        case element(Int)
        case memberKey(Int)
        case partName(Int), partFilename(Int), partContentType(Int)
        case partHeaderName(Int, Int), partHeaderValue(Int, Int)
        case httpHeaderName(Int), httpHeaderValue(Int)
        case imageFormat, imageColorType, pixels, errorMessage, filePath
    }

    private struct Cache {
        var buffers: [CacheKey: CBuffer] = [:]
        var children: [CacheKey: ValueHandle] = [:]
        var isEmpty: Bool { buffers.isEmpty && children.isEmpty }
    }

    /// The value.
    private(set) var value: Value
    /// Whether a parent owns this handle (then `satchel_value_free` must not release it).
    let isOwnedByParent: Bool
    private let cache = Mutex(Cache())

    init(_ value: Value, ownedByParent: Bool = false) {
        self.value = value
        self.isOwnedByParent = ownedByParent
    }

    // MARK: Handles and pointers

    /// Hands a new handle the caller owns to C (`satchel_value_free` releases it).
    static func retained(_ value: Value) -> OpaquePointer {
        OpaquePointer(Unmanaged.passRetained(ValueHandle(value)).toOpaque())
    }

    /// The handle behind a pointer C passed in.
    static func from(_ pointer: OpaquePointer?, _ name: String = "value") throws(SatchelError) -> ValueHandle {
        let pointer = try Arguments.required(pointer, name)
        return Unmanaged<ValueHandle>.fromOpaque(UnsafeRawPointer(pointer)).takeUnretainedValue()
    }

    /// This handle as a borrowed pointer.
    var borrowedPointer: OpaquePointer {
        OpaquePointer(Unmanaged.passUnretained(self).toOpaque())
    }

    // MARK: Caches

    /// The C copy stored under `key`, made by `make` the first time.
    func buffer(_ key: CacheKey, _ make: () throws -> CBuffer) rethrows -> CBuffer {
        try cache.withLock { cache in
            if let buffer = cache.buffers[key] { return buffer }
            let buffer = try make()
            cache.buffers[key] = buffer
            return buffer
        }
    }

    /// The child handle stored under `key`, owned by this handle, made by `make` the first time.
    func child(_ key: CacheKey, _ make: () throws -> Value) rethrows -> ValueHandle {
        try cache.withLock { cache in
            if let child = cache.children[key] { return child }
            let child = ValueHandle(try make(), ownedByParent: true)
            cache.children[key] = child
            return child
        }
    }

    // MARK: Building

    /// Replaces the value through `update`, for the builders: only handles the caller owns and
    /// that nobody has read children or strings from may change.
    func mutate(_ update: (inout Value) throws -> Void) throws {
        guard !isOwnedByParent else {
            throw SatchelError(.misuse, "the value is owned by another value or a response and cannot be changed")
        }
        guard cache.withLock({ $0.isEmpty }) else {
            throw SatchelError(.misuse, "the value has been read from (pointers into it are out) and cannot be changed")
        }
        try update(&value)
    }

    /// Takes the value out of a handle the caller owns and releases the handle (for builders
    /// that take an element).
    static func take(_ pointer: OpaquePointer?, _ name: String) throws(SatchelError) -> Value {
        let handle = try from(pointer, name)
        guard !handle.isOwnedByParent else {
            throw SatchelError(.misuse, "\(name) is owned by another value or a response and cannot be taken")
        }
        let value = handle.value
        Unmanaged.passUnretained(handle).release()
        return value
    }
}

extension ValueHandle {
    /// The C type of the value.
    var type: satchel_type {
        switch value {
        case .null: SATCHEL_TYPE_NULL
        case .bool: SATCHEL_TYPE_BOOL
        case .integer, .unsignedInteger: SATCHEL_TYPE_INTEGER
        case .double: SATCHEL_TYPE_DOUBLE
        case .string: SATCHEL_TYPE_STRING
        case .bytes: SATCHEL_TYPE_BYTES
        case .date: SATCHEL_TYPE_DATE
        case .array: SATCHEL_TYPE_ARRAY
        case .object: SATCHEL_TYPE_OBJECT
        case .payload(let payload):
            switch payload {
            case is XMLDocumentPayload: SATCHEL_TYPE_XML
            case is DecodedImage: SATCHEL_TYPE_IMAGE
            case is MultipartParts: SATCHEL_TYPE_MULTIPART
            case is EmbeddedHTTPMessage: SATCHEL_TYPE_HTTP
            case is DecodingFailure: SATCHEL_TYPE_ERROR
            default: SATCHEL_TYPE_OTHER
            }
        }
    }

    /// The payload as `Payload`, or `SATCHEL_E_TYPE_MISMATCH` naming `expected`.
    func payload<Payload: ValuePayload>(_ type: Payload.Type, _ expected: String) throws(SatchelError) -> Payload {
        guard case .payload(let payload) = value, let typed = payload as? Payload else {
            throw SatchelError(.typeMismatch, "the value is \(value.kindName), not \(expected)")
        }
        return typed
    }
}
