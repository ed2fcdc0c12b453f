import SerializerRegistry

extension Registry {
    /// A registry with every built-in serializer: JSON and form, request and response side.
    ///
    /// - Parameter limits: The limits every serializer obeys; secure defaults.
    public static func standard(limits: Limits = .default) -> Registry {
        let registry = Registry(limits: limits)
        registry.register(JSONResponseSerializer())
        registry.register(FormResponseSerializer())
        registry.register(JSONSerializer())
        registry.register(FormSerializer())
        return registry
    }
}
