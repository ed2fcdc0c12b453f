// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The function table plugins get (`satchel_host`), so that they need not link libsatchel, and
/// the per-thread message a plugin callback leaves with `set_error_message`.
enum PluginHost {
    /// The table, made once and never changed.
    nonisolated(unsafe) static let table: UnsafePointer<satchel_host> = {
        // Safe to share: the table is written here, once, and only read afterwards.
        let table = UnsafeMutablePointer<satchel_host>.allocate(capacity: 1)
        table.initialize(
            to: satchel_host(
                struct_size: UInt32(MemoryLayout<satchel_host>.size),
                abi_version: UInt32(SATCHEL_ABI_VERSION),
                allocate: { malloc($0) },
                free: { Glibc.free($0) },
                set_error_message: { PluginHost.storeMessage($0) },
                register_response_serializer: satchel_registry_register_response_serializer,
                register_request_serializer: satchel_registry_register_request_serializer,
                value_type: satchel_value_type,
                value_create_null: satchel_value_create_null,
                value_create_bool: satchel_value_create_bool,
                value_create_int64: satchel_value_create_int64,
                value_create_double: satchel_value_create_double,
                value_create_string: satchel_value_create_string,
                value_create_bytes: satchel_value_create_bytes,
                value_create_array: satchel_value_create_array,
                value_create_object: satchel_value_create_object,
                value_array_append: satchel_value_array_append,
                value_object_set: satchel_value_object_set,
                value_free: satchel_value_free,
                value_get_bool: satchel_value_get_bool,
                value_get_int64: satchel_value_get_int64,
                value_get_double: satchel_value_get_double,
                value_get_string: satchel_value_get_string,
                value_count: satchel_value_count,
                value_array_get: satchel_value_array_get,
                value_object_entry: satchel_value_object_entry))
        return UnsafePointer(table)
    }()

    private static let messageKey: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Keeps a copy of the message a plugin callback gave (NULL clears it).
    static func storeMessage(_ message: UnsafePointer<CChar>?) {
        let previous = pthread_getspecific(messageKey)
        pthread_setspecific(messageKey, message.map { UnsafeMutableRawPointer(strdup($0)) } ?? nil)
        free(previous)
    }

    /// Forgets this thread's plugin message, before a callback runs.
    static func clearMessage() {
        storeMessage(nil)
    }

    /// This thread's plugin message, if the callback left one; clears it.
    static func takeMessage() -> String? {
        guard let stored = pthread_getspecific(messageKey) else { return nil }
        let message = String(cString: stored.assumingMemoryBound(to: CChar.self))
        clearMessage()
        return message
    }
}
