// SPDX-License-Identifier: Apache-2.0
import CSatchel
import HTTPTypes
import SerializerRegistry
import Serializers
import Transport

/// The object behind a `satchel_request *`: what to send, collected by the setters.
final class RequestHandle: CHandle {
    static let parameterName = "request"

    typealias Progress = @convention(c) (UnsafeMutableRawPointer?, Int64, Int64, Int64, Int64) -> Int32

    var method: HTTPRequest.Method
    var url: String
    var headers = HTTPFields()
    var parameters: Value?
    var parameterType: MediaType?
    var body = RequestBody.none
    var progress: Progress?
    var progressUserdata: UnsafeMutableRawPointer?
    var destination = Destination.memory
    /// `satchel_request_set_record_path`'s: the record callback then gets the elements at this
    /// path of a JSON or XML document.
    var recordPath: (path: String, namespaces: [String: String])?
    var credential: Credential?
    /// `satchel_request_set_rate_limit`'s, or `nil` for the session's.
    var rateLimit: RateLimit?
    /// `satchel_request_set_cache_policy`'s.
    var cachePolicy = CachePolicy.useProtocol
    /// The statuses accepted (`satchel_request_set_acceptable_statuses`); empty accepts every
    /// status; `nil` leaves the registry's (200 to 299).
    var acceptableStatuses: [Range<Int>]?

    /// Where the response body goes.
    enum Destination {
        /// Kept and decoded (the default).
        case memory
        /// Saved to a file, continuing a partial download when `resume` is set.
        case file(path: String, resume: Bool, durability: DownloadDurability)
        /// Delivered to a C callback as it arrives.
        case callback(DataCallback)
        /// Read as a record stream, each record delivered to a C callback as it completes.
        case records(RecordCallback)
    }

    init(method: HTTPRequest.Method, url: String) {
        self.method = method
        self.url = url
    }

    /// The Transport request, with the serializer for the parameters looked up in `registry`
    /// and the progress callback wired to `cancel`.
    func sessionRequest(
        registry: Registry, onCancelRequest cancel: @escaping @Sendable () -> Void
    ) throws -> SessionRequest {
        var request = SessionRequest(method, url, parameters: parameters, headers: headers, body: body)
        if let parameterType {
            guard let serializer = registry.requestSerializer(for: parameterType) else {
                throw SatchelError(
                    .unacceptableContentType, "no registered request serializer writes \(parameterType.essence)")
            }
            request.requestSerializer = serializer
        }
        request.credential = credential
        request.rateLimit = rateLimit
        request.cachePolicy = cachePolicy
        if let acceptableStatuses {
            var validation = registry.validation
            validation.acceptableStatusCodes = acceptableStatuses.isEmpty ? [0..<Int.max] : acceptableStatuses
            request.validation = validation
        }
        if let progress {
            let callback = ProgressCallback(function: progress, userdata: progressUserdata)
            request.progress = { report in
                if callback.report(report) != 0 { cancel() }
            }
        }
        return request
    }
}

/// A C progress callback and its userdata, called on the thread driving the transfer.
struct ProgressCallback: @unchecked Sendable {
    // Safe to send: the header makes the caller keep `userdata` valid, and callable from a
    // library thread, until the transfer ends.
    let function: RequestHandle.Progress
    let userdata: UnsafeMutableRawPointer?

    func report(_ progress: TransferProgress) -> Int32 {
        function(
            userdata, progress.uploadedBytes, progress.expectedUploadBytes ?? -1,
            progress.downloadedBytes, progress.expectedDownloadBytes ?? -1)
    }
}
