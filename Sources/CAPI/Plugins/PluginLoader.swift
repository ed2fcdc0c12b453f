// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Loads plugin shared objects: `dlopen`, look up `satchel_plugin_init`, call it with the host
/// table and the registry.
enum PluginLoader {
    /// Loads the plugin at `path` into the registry behind `handle`.
    ///
    /// - Throws: Code 25 (plugin) when the object cannot be opened, exports no entry point, or
    ///   its entry point fails (with dlerror's or the plugin's message).
    static func load(_ path: String, into handle: RegistryHandle) throws(SatchelError) {
        guard let library = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            throw SatchelError(.plugin, "cannot load \(path): \(dlerrorMessage())")
        }
        // The object stays loaded for the life of the process: its serializers live in the
        // registry, and their destroy callbacks may run at any later time.
        guard let symbol = dlsym(library, "satchel_plugin_init") else {
            throw SatchelError(.plugin, "\(path) exports no satchel_plugin_init: \(dlerrorMessage())")
        }
        let initialize = unsafeBitCast(symbol, to: satchel_plugin_init_function.self)
        let pointer = handle.retainedPointer
        defer { RegistryHandle.release(pointer) }
        PluginHost.clearMessage()
        let status = initialize(PluginHost.table, pointer)
        guard status == SATCHEL_OK else {
            let detail = PluginHost.takeMessage() ?? String(cString: satchel_status_string(status))
            throw SatchelError(
                .plugin, "satchel_plugin_init of \(path) failed with status \(status.rawValue): \(detail)")
        }
    }

    /// dlerror's message, or a placeholder.
    private static func dlerrorMessage() -> String {
        dlerror().map { String(cString: $0) } ?? "unknown error"
    }
}

extension Registry {
    /// Loads a C plugin (a shared object exporting `satchel_plugin_init`, see
    /// include/satchel.h) and lets it register its serializers here, as
    /// `satchel_registry_load_plugin` does for C programs.
    ///
    /// - Parameter path: The shared object's path.
    /// - Throws: ``SatchelError`` with code 25 (plugin) when the object cannot be opened, has no
    ///   entry point or its entry point fails.
    public func loadPlugin(at path: String) throws(SatchelError) {
        try PluginLoader.load(path, into: RegistryHandle(self))
    }
}
