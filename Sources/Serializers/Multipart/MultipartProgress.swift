// SPDX-License-Identifier: Apache-2.0
/// How far a multipart body has been read, reported per part.
///
/// A ``MultipartBodyStream`` reports after each read that produced bytes, once for every part
/// that read touched (its delimiter and headers, its body, or — for the last part — the closing
/// delimiter), so every part is reported at least once and the last report of a complete body
/// has ``bytesSent`` equal to ``bytesTotal``. A body without parts reports nothing.
public struct MultipartProgress: Sendable, Hashable {
    /// The part's index, from 0.
    public var partIndex: Int
    /// Bytes of the part's body sent so far (its headers and delimiters not counted).
    public var partBytesSent: Int64
    /// The size of the part's body, when known.
    public var partBytesTotal: Int64?
    /// Bytes of the whole body sent so far, delimiters and headers included.
    public var bytesSent: Int64
    /// The length of the whole body, when known.
    public var bytesTotal: Int64?

    /// Creates a progress report.
    public init(partIndex: Int, partBytesSent: Int64, partBytesTotal: Int64?, bytesSent: Int64, bytesTotal: Int64?) {
        self.partIndex = partIndex
        self.partBytesSent = partBytesSent
        self.partBytesTotal = partBytesTotal
        self.bytesSent = bytesSent
        self.bytesTotal = bytesTotal
    }
}
