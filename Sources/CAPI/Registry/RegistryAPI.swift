// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

// Registries: create, limits, decode, encode, plugins (include/satchel.h, "Registry" and
// "Plugins").

@c @implementation
public func satchel_registry_create(_ outRegistry: UnsafeMutablePointer<OpaquePointer?>?) -> satchel_status {
    outRegistry?.pointee = nil
    return guarded {
        let out = try Arguments.required(outRegistry, "out_registry")
        out.pointee = RegistryHandle(.standard()).retainedPointer
    }
}

@c @implementation
public func satchel_registry_free(_ registry: OpaquePointer?) {
    RegistryHandle.release(registry)
}

@c @implementation
public func satchel_registry_set_limit(
    _ registry: OpaquePointer?, _ limit: satchel_limit, _ value: UInt64
) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        let keyPath = try Limits.keyPath(for: limit)
        guard value > 0, let newValue = Int(exactly: value) else {
            throw SatchelError(.invalidArgument, "value: \(value) is not a limit (1 to INT64_MAX)")
        }
        handle.registry.limits[keyPath: keyPath] = newValue
    }
}

@c @implementation
public func satchel_registry_get_limit(
    _ outValue: UnsafeMutablePointer<UInt64>?, _ registry: OpaquePointer?, _ limit: satchel_limit
) -> satchel_status {
    guarded {
        let out = try Arguments.required(outValue, "out_value")
        let handle = try RegistryHandle.from(registry)
        out.pointee = UInt64(handle.registry.limits[keyPath: try Limits.keyPath(for: limit)])
    }
}

@c @implementation
public func satchel_registry_set_multipart_flags(_ registry: OpaquePointer?, _ flags: UInt32) -> satchel_status {
    guarded {
        try RegistryHandle.from(registry).setMultipartFlags(flags)
    }
}

@c @implementation
public func satchel_registry_decode(
    _ outValue: UnsafeMutablePointer<OpaquePointer?>?, _ registry: OpaquePointer?, _ contentType: UnsafePointer<CChar>?,
    _ contentTypeLength: Int, _ body: UnsafeRawPointer?, _ length: Int
) -> satchel_status {
    outValue?.pointee = nil
    return guarded {
        let out = try Arguments.required(outValue, "out_value")
        let handle = try RegistryHandle.from(registry)
        // NULL is no Content-Type, not application/octet-stream: the dispatching serializer then
        // sniffs the bytes, as for a response without one (an empty body is no value).
        let mediaType = try Arguments.optionalMediaType(contentType, contentTypeLength, "content_type")
        let bytes = try Arguments.bytes(body, length, "body")
        let limits = handle.registry.limits
        // Before any byte is read: a length past the limit is refused whatever the buffer holds.
        try limits.checkBody(count: bytes.count)
        // The caller's buffer is lent to the serializer as it is (JSON reads it in place).
        let value = try handle.registry.dispatchingSerializer.decode(
            buffer: bytes, contentType: mediaType, limits: limits)
        if let value {
            out.pointee = ValueHandle.retained(value)
        }
    }
}

@c @implementation
public func satchel_registry_encode(
    _ outBody: UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ outContentType: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?, _ registry: OpaquePointer?,
    _ mediaType: UnsafePointer<CChar>?, _ mediaTypeLength: Int, _ parameters: OpaquePointer?
) -> satchel_status {
    outBody?.pointee = nil
    outLength?.pointee = 0
    outContentType?.pointee = nil
    return guarded {
        let bodyOut = try Arguments.required(outBody, "out_body")
        let lengthOut = try Arguments.required(outLength, "out_length")
        let handle = try RegistryHandle.from(registry)
        let type = try Arguments.mediaType(mediaType, mediaTypeLength, "media_type")
        let value = try ValueHandle.from(parameters, "parameters").value
        let (body, contentType) = try handle.registry.encode(value, as: type)
        let bodyCopy = try CBuffer.mallocCopy(body)
        if let outContentType {
            do {
                outContentType.pointee = UnsafeMutableRawPointer(try CBuffer.mallocCopy(contentType.description.utf8))
                    .assumingMemoryBound(to: CChar.self)
            } catch {
                free(bodyCopy)
                throw error
            }
        }
        bodyOut.pointee = bodyCopy
        lengthOut.pointee = body.count
    }
}

// Plugins: serializers written in C, registered directly or loaded with dlopen
// (include/satchel.h, "Plugins").

@c @implementation
public func satchel_registry_register_response_serializer(
    _ registry: OpaquePointer?, _ serializer: UnsafePointer<satchel_response_serializer>?
) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        // Version 1 ended before `sniff`.
        let vtable = try Arguments.versioned(
            serializer, "serializer", minimumSize: PluginResponseSerializer.version1Size)
        // Consulted before the built-in serializers for its media types.
        handle.registry.register(try PluginResponseSerializer(vtable), priority: 1)
    }
}

@c @implementation
public func satchel_registry_register_request_serializer(
    _ registry: OpaquePointer?, _ serializer: UnsafePointer<satchel_request_serializer>?
) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        let vtable = try Arguments.versioned(serializer, "serializer")
        handle.registry.register(try PluginRequestSerializer(vtable), priority: 1)
    }
}

@c @implementation
public func satchel_registry_load_plugin(_ registry: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        try PluginLoader.load(try Arguments.path(path, "path"), into: handle)
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
