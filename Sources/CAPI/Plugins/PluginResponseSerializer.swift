// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

/// A response serializer written in C (`satchel_response_serializer`): the registry's
/// dispatching serializer, multipart parts and batch parts reach it like a built-in one.
struct PluginResponseSerializer: ResponseSerializer {
    typealias Decode =
        @convention(c) (
            UnsafeMutableRawPointer?, UnsafePointer<satchel_host>?, UnsafePointer<CChar>?, Int, UnsafePointer<UInt8>?,
            Int,
            UnsafeMutablePointer<OpaquePointer?>?
        ) -> satchel_status

    typealias Sniff = @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<UInt8>?, Int) -> UnsafePointer<CChar>?

    /// The size of a version 1 `satchel_response_serializer`: everything before `sniff`.
    static let version1Size =
        MemoryLayout<satchel_response_serializer>.offset(of: \.sniff) ?? MemoryLayout<satchel_response_serializer>.size

    let name: String
    let acceptableContentTypes: MediaRangeList
    private let decodeFunction: Decode
    private let sniffFunction: Sniff?
    private let userdata: PluginUserdata

    /// Copies a C vtable (its version already checked by `Arguments.versioned`).
    ///
    /// - Throws: `SATCHEL_E_INVALID_ARGUMENT` (no decode function, no media types),
    ///   `SATCHEL_E_INVALID_MEDIA_TYPE`.
    init(_ vtable: satchel_response_serializer) throws {
        decodeFunction = try Arguments.required(vtable.decode, "decode")
        sniffFunction = vtable.sniff
        name = try Arguments.path(vtable.name, "name")
        let list = try Arguments.required(vtable.media_types, "media_types")
        var ranges: [MediaRangeList.Range] = []
        while let type = list[ranges.count] {
            ranges.append(
                MediaRangeList.Range(try MediaType(parsing: Arguments.path(type, "media_types[\(ranges.count)]"))))
        }
        guard !ranges.isEmpty else { throw SatchelError(.invalidArgument, "media_types is empty") }
        acceptableContentTypes = MediaRangeList(ranges)
        userdata = PluginUserdata(vtable.userdata, destroy: vtable.destroy)
    }

    func decode(_ body: [UInt8], contentType: MediaType?, limits: Limits) throws(SatchelError) -> Value? {
        let typeText = contentType.map { CBuffer($0.description) }
        var output: OpaquePointer?
        PluginHost.clearMessage()
        let status = body.withUnsafeBufferPointer { bytes in
            withExtendedLifetime(typeText) {
                decodeFunction(
                    userdata.pointer, PluginHost.table, typeText?.cString, typeText?.count ?? 0,
                    bytes.baseAddress, bytes.count, &output)
            }
        }
        guard status == SATCHEL_OK else {
            if let output { satchel_value_free(output) }
            let message = PluginHost.takeMessage() ?? "the \(name) plugin failed"
            throw SatchelError(SatchelError.Code(rawValue: Int32(clamping: status.rawValue)), message)
        }
        guard let output else { return nil }
        return try ValueHandle.take(output, "the value the \(name) plugin returned")
    }

    /// The plugin's `sniff` answer, parsed; `nil` without a `sniff` member, for no answer, or for
    /// an answer that is not a media type (a plugin's mistake must not stop other serializers).
    func sniff(prefix: ArraySlice<UInt8>) -> MediaType? {
        guard let sniffFunction else { return nil }
        let answer =
            prefix.withContiguousStorageIfAvailable { bytes in
                sniffFunction(userdata.pointer, bytes.baseAddress, bytes.count)
            }
            ?? Array(prefix).withUnsafeBufferPointer { bytes in
                sniffFunction(userdata.pointer, bytes.baseAddress, bytes.count)
            }
        guard let answer else { return nil }
        return try? MediaType(parsing: String(cString: answer))
    }
}
