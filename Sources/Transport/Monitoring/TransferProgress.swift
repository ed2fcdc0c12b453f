// SPDX-License-Identifier: Apache-2.0
/// How far a transfer has come, in both directions.
public struct TransferProgress: Sendable, Hashable {
    /// Request body bytes sent so far.
    public var uploadedBytes: Int64
    /// The request body's size, when known.
    public var expectedUploadBytes: Int64?
    /// Response body bytes received so far (for a resumed download, including the bytes
    /// already on disk).
    public var downloadedBytes: Int64
    /// The response body's size, when known (for a resumed download, the whole file's).
    public var expectedDownloadBytes: Int64?

    /// Creates a progress report.
    public init(
        uploadedBytes: Int64, expectedUploadBytes: Int64?, downloadedBytes: Int64, expectedDownloadBytes: Int64?
    ) {
        self.uploadedBytes = uploadedBytes
        self.expectedUploadBytes = expectedUploadBytes
        self.downloadedBytes = downloadedBytes
        self.expectedDownloadBytes = expectedDownloadBytes
    }

    /// The fraction of the larger known transfer that is done, from 0 to 1, or `nil` when no
    /// size is known.
    public var fractionCompleted: Double? {
        if let expected = expectedDownloadBytes, expected > 0, downloadedBytes > 0 || expectedUploadBytes == nil {
            return min(1, Double(downloadedBytes) / Double(expected))
        }
        if let expected = expectedUploadBytes, expected > 0 { return min(1, Double(uploadedBytes) / Double(expected)) }
        return nil
    }
}
