// SPDX-License-Identifier: Apache-2.0
import Satchel

extension RequestPlan {
    /// The ``SessionRequest`` to send: parameters for the form, JSON or plist serializer, or a
    /// streamed multipart body (text fields, then files) for multipart.
    ///
    /// - Parameter progress: Called with the transfer's progress.
    /// - Throws: ``SatchelError/Code/invalidArgument`` for a file part's media type that cannot
    ///   be written.
    func makeRequest(progress: (@Sendable (TransferProgress) -> Void)?) throws -> SessionRequest {
        var request: SessionRequest
        switch format {
        case .form, .json, .plist:
            request = SessionRequest(method, url, parameters: parameters, headers: headers)
            request.requestSerializer =
                switch format {
                case .json: JSONRequestSerializer()
                case .plist: PropertyListRequestSerializer(format: .xml)
                default: FormRequestSerializer()
                }
        case .multipart:
            var form = MultipartFormData()
            for (name, value) in parameters?.objectValue ?? [:] {
                for element in value.arrayValue ?? [value] {
                    form.append(element.stringValue ?? "", name: name)
                }
            }
            for case let .file(name, path, mediaType) in files {
                let type = try mediaType.map { try MediaType(parsing: $0) }
                try form.append(fileAt: path, name: name, mediaType: type)
            }
            request = SessionRequest(method, url, headers: headers, body: .multipart(form))
        }
        request.progress = progress
        return request
    }
}
