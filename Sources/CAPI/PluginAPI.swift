#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CSatchel
import SerializerRegistry

// Plugins: serializers written in C, registered directly or loaded with dlopen.

@c @implementation
public func satchel_registry_register_response_serializer(_ registry: OpaquePointer?, _ serializer: UnsafePointer<satchel_response_serializer>?) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        let vtable = try Arguments.required(serializer, "serializer")
        try Arguments.checkHeader(
            structSize: vtable.pointee.struct_size, abiVersion: vtable.pointee.abi_version,
            minimumSize: MemoryLayout<satchel_response_serializer>.size, "satchel_response_serializer")
        // Consulted before the built-in serializers for its media types.
        handle.registry.register(try PluginResponseSerializer(vtable.pointee), priority: 1)
    }
}

@c @implementation
public func satchel_registry_register_request_serializer(_ registry: OpaquePointer?, _ serializer: UnsafePointer<satchel_request_serializer>?) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        let vtable = try Arguments.required(serializer, "serializer")
        try Arguments.checkHeader(
            structSize: vtable.pointee.struct_size, abiVersion: vtable.pointee.abi_version,
            minimumSize: MemoryLayout<satchel_request_serializer>.size, "satchel_request_serializer")
        handle.registry.register(try PluginRequestSerializer(vtable.pointee), priority: 1)
    }
}

@c @implementation
public func satchel_registry_load_plugin(_ registry: OpaquePointer?, _ path: UnsafePointer<CChar>?) -> satchel_status {
    guarded {
        _ = try RegistryHandle.from(registry)
        let path = try Arguments.path(path, "path")
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw SatchelError(.plugin, "cannot load \(path): \(dlerrorMessage())")
        }
        // The object stays loaded for the life of the process: its serializers live in the
        // registry, and their destroy callbacks may run at any later time.
        guard let symbol = dlsym(library, "satchel_plugin_init") else {
            throw SatchelError(.plugin, "\(path) exports no satchel_plugin_init: \(dlerrorMessage())")
        }
        let initialize = unsafeBitCast(symbol, to: satchel_plugin_init_function.self)
        PluginHost.clearMessage()
        let status = initialize(PluginHost.table, registry)
        guard status == SATCHEL_OK else {
            let detail = PluginHost.takeMessage() ?? String(cString: satchel_status_string(status))
            throw SatchelError(.plugin, "satchel_plugin_init of \(path) failed with status \(status.rawValue): \(detail)")
        }
    }
}

/// dlerror's message, or a placeholder.
private func dlerrorMessage() -> String {
    dlerror().map { String(cString: $0) } ?? "unknown error"
}
