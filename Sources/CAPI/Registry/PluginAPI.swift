// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Plugins: serializers written in C, registered directly or loaded with dlopen.

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
