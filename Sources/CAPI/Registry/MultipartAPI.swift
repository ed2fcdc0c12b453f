// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

// Multipart bodies: build, then read in pieces (include/satchel.h, "Multipart bodies").

@c @implementation
public func satchel_multipart_create(
    _ outMultipart: UnsafeMutablePointer<OpaquePointer?>?, _ boundary: UnsafePointer<CChar>?, _ boundaryLength: Int
) -> satchel_status {
    outMultipart?.pointee = nil
    return guarded {
        let out = try Arguments.required(outMultipart, "out_multipart")
        let chosen =
            try Arguments.optionalString(boundary, boundaryLength, "boundary")
            .map { text throws(SatchelError) in try MultipartBoundary(text) } ?? .random()
        let handle = MultipartHandle(MultipartFormData(boundary: chosen))
        out.pointee = handle.retainedPointer
    }
}

@c @implementation
public func satchel_multipart_free(_ multipart: OpaquePointer?) {
    MultipartHandle.release(multipart)
}

@c @implementation
public func satchel_multipart_add_field(
    _ multipart: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ value: UnsafePointer<CChar>?,
    _ valueLength: Int
) -> satchel_status {
    guarded {
        let handle = try MultipartHandle.from(multipart)
        let name = try Arguments.string(name, nameLength, "name")
        let value = try Arguments.string(value, valueLength, "value")
        try handle.add { try $0.append(MultipartPart(name: name, body: .bytes(Array(value.utf8)))) }
    }
}

@c @implementation
public func satchel_multipart_add_data(
    _ multipart: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ data: UnsafeRawPointer?,
    _ length: Int, _ filename: UnsafePointer<CChar>?, _ filenameLength: Int, _ contentType: UnsafePointer<CChar>?,
    _ contentTypeLength: Int
) -> satchel_status {
    guarded {
        let handle = try MultipartHandle.from(multipart)
        let name = try Arguments.string(name, nameLength, "name")
        let bytes = Array(try Arguments.bytes(data, length, "data"))
        let filename = try Arguments.optionalString(filename, filenameLength, "filename")
        let mediaType =
            try contentType == nil
            ? MediaType(type: "application", subtype: "octet-stream")
            : Arguments.mediaType(contentType, contentTypeLength, "content_type")
        try handle.add { try $0.append(bytes, name: name, filename: filename, mediaType: mediaType) }
    }
}

@c @implementation
public func satchel_multipart_add_file(
    _ multipart: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ path: UnsafePointer<CChar>?,
    _ filename: UnsafePointer<CChar>?, _ filenameLength: Int, _ contentType: UnsafePointer<CChar>?,
    _ contentTypeLength: Int
) -> satchel_status {
    guarded {
        let handle = try MultipartHandle.from(multipart)
        let name = try Arguments.string(name, nameLength, "name")
        let path = try Arguments.path(path, "path")
        let filename = try Arguments.optionalString(filename, filenameLength, "filename")
        let mediaType = try contentType.map { _ throws(SatchelError) in
            try Arguments.mediaType(contentType, contentTypeLength, "content_type")
        }
        // Sized now: the header promises SATCHEL_E_IO for a file that changes size after it was
        // added, so a Content-Length announced from it is the length sent.
        let size = try FileBodyStream(path: path).length ?? 0
        let baseName = path.split(separator: "/").last.map(String.init) ?? path
        try handle.add {
            try $0.append(
                name: name, filename: filename ?? baseName, mediaType: mediaType, length: size,
                stream: {
                    let stream = try FileBodyStream(path: path)
                    if let now = stream.length, now != size {
                        throw SatchelError(.io, "\(path) changed size from \(size) to \(now) bytes since it was added")
                    }
                    return stream
                })
        }
    }
}

@c @implementation
public func satchel_multipart_add_callback(
    _ multipart: OpaquePointer?, _ name: UnsafePointer<CChar>?, _ nameLength: Int, _ filename: UnsafePointer<CChar>?,
    _ filenameLength: Int, _ contentType: UnsafePointer<CChar>?, _ contentTypeLength: Int,
    _ source: UnsafePointer<satchel_read_source>?
) -> satchel_status {
    guarded {
        let handle = try MultipartHandle.from(multipart)
        let name = try Arguments.string(name, nameLength, "name")
        let filename = try Arguments.optionalString(filename, filenameLength, "filename")
        let mediaType = try contentType.map { _ throws(SatchelError) in
            try Arguments.mediaType(contentType, contentTypeLength, "content_type")
        }
        let callbackSource = try CallbackSource(try Arguments.versioned(source, "source"))
        handle.callbackSources.append(callbackSource)
        try handle.add {
            try $0.append(
                name: name, filename: filename, mediaType: mediaType, length: callbackSource.declaredLength,
                stream: { try callbackSource.makeStream() })
        }
    }
}

@c @implementation
public func satchel_multipart_content_type(
    _ outContentType: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ multipart: OpaquePointer?
) -> satchel_status {
    outContentType?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outContentType, "out_content_type")
        store(try MultipartHandle.from(multipart).contentType, out, outLength)
    }
}

@c @implementation
public func satchel_multipart_content_length(
    _ outLength: UnsafeMutablePointer<Int64>?, _ multipart: OpaquePointer?
) -> satchel_status {
    guarded {
        let out = try Arguments.required(outLength, "out_length")
        let handle = try MultipartHandle.from(multipart)
        out.pointee = (try handle.stream ?? handle.form.makeBodyStream()).length ?? -1
    }
}

@c @implementation
public func satchel_multipart_read(
    _ outCount: UnsafeMutablePointer<Int>?, _ multipart: OpaquePointer?, _ buffer: UnsafeMutablePointer<UInt8>?,
    _ capacity: Int
) -> satchel_status {
    outCount?.pointee = 0
    return guarded {
        let out = try Arguments.required(outCount, "out_count")
        let handle = try MultipartHandle.from(multipart)
        guard capacity > 0 else { throw SatchelError(.invalidArgument, "capacity is 0") }
        let buffer = try Arguments.required(buffer, "buffer")
        out.pointee = try handle.use.run("satchel_multipart_read") { () throws(SatchelError) in
            if let failure = handle.rewindFailure {
                throw SatchelError(
                    .io, "the body cannot be read after a failed rewind (\(failure.message)); free the builder")
            }
            let stream: MultipartBodyStream
            if let started = handle.stream {
                stream = started
            } else {
                stream = try handle.form.makeBodyStream()
                handle.stream = stream
            }
            return try stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
        }
    }
}

@c @implementation
public func satchel_multipart_rewind(_ multipart: OpaquePointer?) -> satchel_status {
    guarded {
        let handle = try MultipartHandle.from(multipart)
        try handle.use.run("satchel_multipart_rewind") { () throws(SatchelError) in
            do throws(SatchelError) {
                if let index = handle.callbackSources.firstIndex(where: \.cannotRewind) {
                    throw SatchelError(
                        .io,
                        "callback part \(index) has been read and its source cannot rewind (its rewind callback is NULL)"
                    )
                }
                try handle.stream?.rewind()
                handle.rewindFailure = nil
            } catch {
                handle.rewindFailure = error
                throw error
            }
        }
    }
}
