// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Satchel

/// A response serializer that keeps the body as it arrived (`.bytes`), for `--raw` and
/// `--output`: only the status is validated, any Content-Type is accepted, nothing is decoded
/// and no incremental decoder is offered, so the whole body stays in memory (up to
/// `Limits.maxBodyBytes`).
struct RawBodySerializer: ResponseSerializer {
    var name: String { "raw" }

    var acceptableContentTypes: MediaRangeList { MediaRangeList(accepting: [MediaType(type: "*", subtype: "*")]) }

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        .bytes(body)
    }

    func serialize(_ plan: ResponsePlan, body: [UInt8], limits: Limits) -> DecodedResponse {
        let response = plan.response
        var error: SatchelError?
        if !plan.acceptsStatus {
            error = SatchelError(
                .unacceptableStatusCode,
                "status \(response.status.code) \(response.status.reasonPhrase) is not acceptable"
            ).attaching(response: response, body: body)
        }
        return DecodedResponse(response: response, value: .bytes(body), error: error, serializerName: name)
    }
}
