// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// What a download produced (Alamofire's `DownloadResponse`).
public struct DownloadResponse: Sendable {
    /// The head of the last request sent.
    public var request: HTTPRequest
    /// The URL the last request went to.
    public var url: String
    /// The response head (a download that got none ends in an error instead).
    public var response: HTTPResponse
    /// Where the file is (complete only when ``error`` is `nil`).
    public var destination: String
    /// The size of the downloaded file.
    public var fileSize: Int64
    /// The bytes already on disk that this download continued (0 when it started over).
    public var resumedFrom: Int64
    /// The start of the body of a response that was not saved (an error page), capped.
    public var errorBody: [UInt8]
    /// What went wrong; the partial file and its resume record are kept when resumable.
    public var error: SatchelError?
    /// Timings, sizes, redirects and retries.
    public var metrics: TransferMetrics
}
