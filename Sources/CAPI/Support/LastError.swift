// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The per-thread message of the last failing call (`satchel_last_error_message`).
///
/// Each thread keeps one `malloc`ed C string in a pthread key; it is replaced by the next
/// failure on the same thread and freed when the thread exits.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { free($0) }
        return key
    }()

    /// Stores `error`'s description as this thread's message and returns its status.
    static func record(_ error: SatchelError) -> satchel_status {
        store(error.cDescription)
        return satchel_status(error.code)
    }

    /// Stores `message` as this thread's message, on one line: a line break inside it (libxml2
    /// ends its messages with one) becomes a space, and trailing white space goes.
    static func store(_ message: String) {
        var line = String(message.unicodeScalars.map { $0 == "\n" || $0 == "\r" ? " " : Character($0) })
        while line.last?.isWhitespace == true { line.removeLast() }
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, strdup(line))
        free(previous)
    }

    /// This thread's message, or `""` when no call has failed on it.
    static var message: UnsafePointer<CChar> {
        if let stored = pthread_getspecific(key) { return UnsafePointer(stored.assumingMemoryBound(to: CChar.self)) }
        return StaticCString.empty
    }
}

/// NUL-terminated strings in the library's read-only data.
enum StaticCString {
    /// `""`.
    static var empty: UnsafePointer<CChar> { pointer(to: "") }

    /// The C string of a literal: Swift stores string literals NUL-terminated.
    static func pointer(to literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }
}
