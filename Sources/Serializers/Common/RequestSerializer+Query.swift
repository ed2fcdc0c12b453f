// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

extension RequestSerializer {
    /// AFNetworking's placement for body formats (JSON, XML, property lists): for the methods in
    /// `queryMethods` (GET, HEAD, DELETE by default) the parameters go into the query string
    /// exactly as the form serializer writes them; for other methods they are the body
    /// (``serializeIntoBody(_:into:)``).
    func serialize(
        _ parameters: Value?, into request: HTTPRequest, queryMethods: Set<HTTPRequest.Method>
    ) throws(SatchelError) -> SerializedRequest {
        guard queryMethods.contains(request.method) else { return try serializeIntoBody(parameters, into: request) }
        var options = FormRequestSerializer.Options()
        options.placement = .query
        return try FormRequestSerializer(options: options, headers: headers).serialize(parameters, into: request)
    }
}
