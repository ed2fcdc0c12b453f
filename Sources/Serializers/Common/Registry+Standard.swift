// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

extension Registry {
    /// A registry with every built-in serializer: JSON, form, multipart, XML, property lists (XML,
    /// and binary for `application/x-bplist`) and
    /// text (`text/plain` writing, `text/*` reading), request and response side; problem details
    /// (`application/problem+json`), embedded HTTP messages (`application/http`, batch parts) and
    /// images (PNG, JPEG) and the record streams (Server-Sent Events, JSON Lines, JSON text
    /// sequences) response side.
    /// Multipart parts are decoded through this registry by their own Content-Type (the multipart
    /// serializer holds the registry weakly, so there is no cycle).
    ///
    /// - Parameter limits: The limits every serializer obeys; secure defaults.
    public static func standard(limits: Limits = .default) -> Registry {
        let registry = Registry(limits: limits)
        registry.register(JSONResponseSerializer())
        registry.register(FormResponseSerializer())
        registry.register(MultipartResponseSerializer(registry: registry))
        registry.register(TextResponseSerializer())
        registry.register(ProblemDetailsResponseSerializer())
        registry.register(HTTPMessageResponseSerializer(registry: registry))
        registry.register(ImageResponseSerializer())
        registry.register(XMLDocumentResponseSerializer())
        registry.register(PropertyListResponseSerializer())
        registry.register(EventStreamResponseSerializer())
        registry.register(JSONLinesResponseSerializer())
        registry.register(JSONTextSequenceResponseSerializer())
        registry.register(JSONRequestSerializer())
        registry.register(FormRequestSerializer())
        registry.register(MultipartRequestSerializer())
        registry.register(XMLRequestSerializer())
        registry.register(PropertyListRequestSerializer())
        // Binary property lists are asked for by this name; the body is sent as application/x-plist.
        registry.register(
            PropertyListRequestSerializer(format: .binary), for: [MediaType(type: "application", subtype: "x-bplist")])
        registry.register(TextRequestSerializer())
        return registry
    }
}
