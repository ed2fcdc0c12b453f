// SPDX-License-Identifier: Apache-2.0
import CSatchel
import HTTPTypes
import SerializerRegistry
import Transport

/// The object behind a `satchel_response *`: a ``DataResponse`` and C copies of its parts.
final class ResponseHandle: @unchecked Sendable, CHandle {
    static let parameterName = "response"

    // Safe to share: everything is immutable after init.

    let response: DataResponse
    /// The header fields in order, as (name, value) C strings.
    let headers: [(name: CBuffer, value: CBuffer)]
    /// The raw body.
    let body: CBuffer
    /// The decoded value, owned by the response.
    let value: ValueHandle?
    /// What a download saved, when the request was one and something was saved.
    let download: (fileSize: Int64, resumedFrom: Int64)?
    /// The metrics' HTTP version, as a C string.
    let httpVersion: CBuffer
    /// Why the cache did not store the response, as a C string, when it did not.
    let cacheReason: CBuffer?

    init(_ response: DataResponse, download: (fileSize: Int64, resumedFrom: Int64)?) {
        self.response = response
        headers = response.response.headerFields.map { (CBuffer($0.name.rawName), CBuffer($0.value)) }
        body = CBuffer(response.body)
        value = response.value.map { ValueHandle($0, ownedByParent: true) }
        self.download = download
        httpVersion = CBuffer(response.metrics.httpVersion)
        if case .notStored(let reason) = response.metrics.cache {
            cacheReason = CBuffer(reason)
        } else {
            cacheReason = nil
        }
    }

    /// A retained pointer for C, when a response arrived.
    static func retainedPointer(for outcome: TaskHandle.Outcome) -> OpaquePointer? {
        guard case let .success(response) = outcome.result else { return nil }
        return ResponseHandle(response, download: outcome.download).retainedPointer
    }

    /// The status a transfer ends with: OK, or its error.
    static func status(of outcome: TaskHandle.Outcome) -> satchel_status {
        guard let error = outcome.error else { return SATCHEL_OK }
        return LastError.record(error)
    }
}
