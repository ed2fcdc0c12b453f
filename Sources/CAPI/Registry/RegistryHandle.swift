// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers
import Synchronization

/// The object behind a `satchel_registry *`: a ``Registry`` with every built-in serializer.
///
/// Sessions keep their own reference to the ``Registry``, so freeing the handle never pulls a
/// registry out from under a transfer.
final class RegistryHandle: Sendable, CHandle {
    static let parameterName = "registry"

    /// The registry.
    let registry: Registry

    /// The multipart serializer registered by `satchel_registry_set_multipart_flags`, which
    /// takes precedence over the standard one; replaced by the next call.
    private let multipartRegistration = Mutex<Registry.Registration?>(nil)

    init(_ registry: Registry) {
        self.registry = registry
    }

    /// Reads multipart bodies as the `satchel_multipart_flag` bits in `flags` say from now on.
    ///
    /// - Throws: ``SatchelError/Code/invalidArgument`` for an unknown bit.
    func setMultipartFlags(_ flags: UInt32) throws(SatchelError) {
        let known =
            SATCHEL_MULTIPART_CRLF_ONLY.rawValue | SATCHEL_MULTIPART_LENIENT.rawValue
            | SATCHEL_MULTIPART_RAW_PARTS.rawValue | SATCHEL_MULTIPART_IN_MEMORY.rawValue
        guard flags & ~known == 0 else {
            throw SatchelError(.invalidArgument, "flags: \(flags) has bits that are not satchel_multipart_flag values")
        }
        let options = MultipartReader.Options(
            lenient: flags & SATCHEL_MULTIPART_LENIENT.rawValue != 0,
            lineEndings: flags & SATCHEL_MULTIPART_CRLF_ONLY.rawValue != 0 ? .crlf : .crlfOrLF,
            memoryThreshold: flags & SATCHEL_MULTIPART_IN_MEMORY.rawValue != 0 ? .max : 1024 * 1024)
        let serializer = MultipartResponseSerializer(
            options: options, rawParts: flags & SATCHEL_MULTIPART_RAW_PARTS.rawValue != 0, registry: registry)
        multipartRegistration.withLock { registration in
            if let registration { registry.unregister(registration) }
            // Registered later than the standard one at the same precedence, so chosen first.
            registration = registry.register(serializer)
        }
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
        case SATCHEL_LIMIT_RECORD_BYTES: \.maxRecordBytes
        case SATCHEL_LIMIT_RECORDS: \.maxRecords
        default: throw SatchelError(.invalidArgument, "limit: \(limit.rawValue) is not a satchel_limit")
        }
    }
}
