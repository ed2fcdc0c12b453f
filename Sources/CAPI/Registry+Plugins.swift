import SerializerRegistry

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
