// SPDX-License-Identifier: Apache-2.0
/// The one resource policy every serializer obeys.
///
/// Defaults are chosen to be safe for a server decoding untrusted input while accepting any
/// ordinary document. A value past a limit is never truncated: the serializer stops with a
/// ``SatchelError/Code/limitExceeded`` error naming the property (`Limits.maxDepth`).
public struct Limits: Sendable, Hashable {
    /// Most bytes of a body a serializer reads. Default 100 MiB.
    public var maxBodyBytes: Int
    /// Deepest nesting of arrays, objects and bracketed form keys. Default 512 (Foundation's
    /// JSON limit).
    public var maxDepth: Int
    /// Longest string or key, in UTF-8 bytes. Default 32 MiB.
    public var maxStringBytes: Int
    /// Most key-value pairs in a form body or query, or members in one object. Default 10 000.
    public var maxPairs: Int
    /// Most parts in one multipart body (nested multipart bodies count their own parts).
    /// Default 1 000.
    public var maxParts: Int
    /// Most bytes in the header section of one multipart part, line endings included.
    /// Default 16 KiB.
    public var maxPartHeaderBytes: Int
    /// Most pixels (width × height) of one decoded image, checked from the image header before
    /// any pixel memory is allocated. Default 100 000 000 (100 megapixels).
    public var maxImagePixels: Int
    /// Most entity references one XML document may expand (each reference to an internal
    /// entity counts, nested ones included), so an entity bomb ("billion laughs") fails fast.
    /// Default 10 000.
    public var maxEntityExpansions: Int
    /// Most bytes of one record of a record stream (a Server-Sent Event, a JSON Lines line, a
    /// JSON text of a sequence). Default 16 MiB.
    public var maxRecordBytes: Int
    /// Most records one record stream may hold. Default: no limit (a stream hands each record
    /// over and keeps none; a whole-body decode is bounded by ``maxBodyBytes``).
    public var maxRecords: Int

    /// Creates limits; every argument defaults to the secure default.
    public init(
        maxBodyBytes: Int = 100 * 1024 * 1024,
        maxDepth: Int = 512,
        maxStringBytes: Int = 32 * 1024 * 1024,
        maxPairs: Int = 10_000,
        maxParts: Int = 1_000,
        maxPartHeaderBytes: Int = 16 * 1024,
        maxImagePixels: Int = 100_000_000,
        maxEntityExpansions: Int = 10_000,
        maxRecordBytes: Int = 16 * 1024 * 1024,
        maxRecords: Int = .max
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.maxDepth = maxDepth
        self.maxStringBytes = maxStringBytes
        self.maxPairs = maxPairs
        self.maxParts = maxParts
        self.maxPartHeaderBytes = maxPartHeaderBytes
        self.maxImagePixels = maxImagePixels
        self.maxEntityExpansions = maxEntityExpansions
        self.maxRecordBytes = maxRecordBytes
        self.maxRecords = maxRecords
    }

    /// The secure defaults.
    public static let `default` = Limits()

    /// Throws ``SatchelError/Code/limitExceeded`` when `count` bytes exceed ``maxBodyBytes``;
    /// the error's offset is the first byte past the limit.
    public func checkBody(count: Int) throws(SatchelError) {
        if count > maxBodyBytes {
            throw .limitExceeded("maxBodyBytes", maxBodyBytes, "a body of \(count) bytes", offset: maxBodyBytes)
        }
    }
}
