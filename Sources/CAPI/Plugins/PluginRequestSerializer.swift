// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// A request serializer written in C (`satchel_request_serializer`).
struct PluginRequestSerializer: RequestSerializer {
    typealias Encode =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<satchel_host>?, OpaquePointer?,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<Int>?
        ) -> satchel_status

    let name: String
    let contentType: MediaType
    private let encodeFunction: Encode
    private let userdata: PluginUserdata

    /// Copies a C vtable (its version already checked by `Arguments.versioned`).
    init(_ vtable: satchel_request_serializer) throws {
        encodeFunction = try Arguments.required(vtable.encode, "encode")
        name = try Arguments.path(vtable.name, "name")
        contentType = try MediaType(parsing: Arguments.path(vtable.media_type, "media_type"))
        userdata = PluginUserdata(vtable.userdata, destroy: vtable.destroy)
    }

    func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        let parameters = ValueHandle(value, ownedByParent: true)
        var body: UnsafeMutablePointer<UInt8>?
        var length = 0
        PluginHost.clearMessage()
        let status = withExtendedLifetime(parameters) {
            encodeFunction(userdata.pointer, PluginHost.table, parameters.borrowedPointer, &body, &length)
        }
        defer { free(body) }
        guard status == SATCHEL_OK else {
            let message = PluginHost.takeMessage() ?? "the \(name) plugin failed"
            throw SatchelError(SatchelError.Code(rawValue: Int32(clamping: status.rawValue)), message)
        }
        guard length >= 0 else { throw SatchelError(.internal, "the \(name) plugin returned a negative length") }
        if length == 0 { return [] }
        guard let body else {
            throw SatchelError(.internal, "the \(name) plugin returned NULL with a length of \(length)")
        }
        return Array(UnsafeBufferPointer(start: body, count: length))
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
