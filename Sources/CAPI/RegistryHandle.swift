import CSatchel
import SerializerRegistry
import Serializers

/// The object behind a `satchel_registry *`: a ``Registry`` with every built-in serializer.
///
/// Sessions keep their own reference to the ``Registry``, so freeing the handle never pulls a
/// registry out from under a transfer.
final class RegistryHandle: Sendable, CHandle {
    static let parameterName = "registry"

    /// The registry.
    let registry: Registry

    init(_ registry: Registry) {
        self.registry = registry
    }

}

extension Limits {
    /// The limit a `satchel_limit` names, as a key path.
    static func keyPath(for limit: satchel_limit) throws(SatchelError) -> WritableKeyPath<Limits, Int> {
        switch limit {
        case SATCHEL_LIMIT_BODY_BYTES: \.maxBodyBytes
        case SATCHEL_LIMIT_DEPTH: \.maxDepth
        case SATCHEL_LIMIT_STRING_BYTES: \.maxStringBytes
        case SATCHEL_LIMIT_PAIRS: \.maxPairs
        case SATCHEL_LIMIT_PARTS: \.maxParts
        case SATCHEL_LIMIT_PART_HEADER_BYTES: \.maxPartHeaderBytes
        case SATCHEL_LIMIT_IMAGE_PIXELS: \.maxImagePixels
        case SATCHEL_LIMIT_ENTITY_EXPANSIONS: \.maxEntityExpansions
        default: throw SatchelError(.invalidArgument, "limit: \(limit.rawValue) is not a satchel_limit")
        }
    }
}
