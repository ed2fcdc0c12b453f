// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

// Typed payloads: images, XML, multipart parts, embedded HTTP messages, part errors.

@c @implementation
public func satchel_value_image_info(
    _ info: UnsafeMutablePointer<satchel_image_info>?, _ image: OpaquePointer?
) -> satchel_status {
    guarded {
        let info = try Arguments.versioned(info, "info")
        let handle = try ValueHandle.from(image, "image")
        let decoded = try handle.payload(DecodedImage.self, "an image")
        info.pointee.format = handle.buffer(.imageFormat) { CBuffer(decoded.format.rawValue) }.cString
        info.pointee.width = UInt32(clamping: decoded.width)
        info.pointee.height = UInt32(clamping: decoded.height)
        info.pointee.channels = UInt32(clamping: decoded.channels)
        info.pointee.bit_depth = UInt32(clamping: decoded.bitDepth)
        info.pointee.row_stride = decoded.rowStride
        info.pointee.color_type =
            handle.buffer(.imageColorType) { CBuffer(decoded.metadata.colorType.rawValue) }.cString
        info.pointee.orientation = UInt32(clamping: decoded.orientation.rawValue)
        info.pointee.interlaced = decoded.metadata.interlaced ? 1 : 0
        info.pointee.progressive = decoded.metadata.progressive ? 1 : 0
        info.pointee.has_icc_profile = decoded.metadata.hasICCProfile ? 1 : 0
    }
}

@c @implementation
public func satchel_value_image_pixels(
    _ outPixels: UnsafeMutablePointer<UnsafePointer<UInt8>?>?, _ outLength: UnsafeMutablePointer<Int>?,
    _ image: OpaquePointer?
) -> satchel_status {
    outPixels?.pointee = nil
    outLength?.pointee = 0
    return guarded {
        let out = try Arguments.required(outPixels, "out_pixels")
        let handle = try ValueHandle.from(image, "image")
        let decoded = try handle.payload(DecodedImage.self, "an image")
        let pixels = handle.buffer(.pixels) { CBuffer(decoded.pixels) }
        out.pointee = UnsafePointer(pixels.pointer)
        outLength?.pointee = pixels.count
    }
}

@c @implementation
public func satchel_value_xml_query(
    _ outNodes: UnsafeMutablePointer<OpaquePointer?>?, _ xml: OpaquePointer?, _ xpath: UnsafePointer<CChar>?,
    _ xpathLength: Int, _ namespaces: UnsafePointer<UnsafePointer<CChar>?>?
) -> satchel_status {
    outNodes?.pointee = nil
    return guarded {
        let out = try Arguments.required(outNodes, "out_nodes")
        let document = try ValueHandle.from(xml, "xml").payload(XMLDocumentPayload.self, "an XML document")
        let expression = try Arguments.string(xpath, xpathLength, "xpath")
        var prefixes: [String: String] = [:]
        if let namespaces {
            var index = 0
            while let prefix = namespaces[index] {
                let uri = try Arguments.path(namespaces[index + 1], "the namespace URI for prefix \(index / 2)")
                prefixes[try Arguments.path(prefix, "namespace prefix \(index / 2)")] = uri
                index += 2
            }
        }
        out.pointee = ValueHandle.retained(.array(try document.nodes(xpath: expression, namespaces: prefixes)))
    }
}

@c @implementation
public func satchel_value_part(
    _ part: UnsafeMutablePointer<satchel_part>?, _ multipart: OpaquePointer?, _ index: Int
) -> satchel_status {
    guarded {
        let part = try Arguments.versioned(part, "part")
        let handle = try ValueHandle.from(multipart, "multipart")
        let element = try handle.part(at: index)
        func text(_ key: ValueHandle.CacheKey, _ string: String?) -> (UnsafePointer<CChar>?, Int) {
            guard let string else { return (nil, 0) }
            let buffer = handle.buffer(key) { CBuffer(string) }
            return (buffer.cString, buffer.count)
        }
        (part.pointee.name, part.pointee.name_length) = text(.partName(index), element.part.name)
        (part.pointee.filename, part.pointee.filename_length) = text(
            .partFilename(index), element.part.filenameStar ?? element.part.filename)
        (part.pointee.content_type, part.pointee.content_type_length) = text(
            .partContentType(index), element.part.contentType)
        part.pointee.size = UInt64(element.part.size)
        part.pointee.header_count = element.part.headers.count
        part.pointee.value = handle.child(.element(index)) { element.value }.borrowedPointer
    }
}

@c @implementation
public func satchel_value_part_header_at(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outNameLength: UnsafeMutablePointer<Int>?,
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ multipart: OpaquePointer?, _ partIndex: Int, _ headerIndex: Int
) -> satchel_status {
    clear(outName, outNameLength, outValue, outValueLength)
    return guarded {
        let nameOut = try Arguments.required(outName, "out_name")
        let valueOut = try Arguments.required(outValue, "out_value")
        let handle = try ValueHandle.from(multipart, "multipart")
        let headers = try handle.part(at: partIndex).part.headers
        guard headers.indices.contains(headerIndex) else {
            throw SatchelError(
                .valueNotFound,
                "part \(partIndex) has \(headers.count) headers, not \(UInt(bitPattern: headerIndex) + 1)")
        }
        let header = headers[headerIndex]
        store(handle.buffer(.partHeaderName(partIndex, headerIndex)) { CBuffer(header.name) }, nameOut, outNameLength)
        store(
            handle.buffer(.partHeaderValue(partIndex, headerIndex)) { CBuffer(header.value) }, valueOut, outValueLength)
    }
}

@c @implementation
public func satchel_value_http_info(
    _ info: UnsafeMutablePointer<satchel_http_info>?, _ message: OpaquePointer?
) -> satchel_status {
    guarded {
        let info = try Arguments.versioned(info, "info")
        let handle = try ValueHandle.from(message, "message")
        let embedded = try handle.payload(EmbeddedHTTPMessage.self, "an HTTP message")
        info.pointee.status = Int32(clamping: embedded.status ?? 0)
        info.pointee.header_count = embedded.headers.count
        info.pointee.value = handle.child(.scalar) { embedded.value }.borrowedPointer
    }
}

@c @implementation
public func satchel_value_http_header_at(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outNameLength: UnsafeMutablePointer<Int>?,
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ message: OpaquePointer?, _ index: Int
) -> satchel_status {
    clear(outName, outNameLength, outValue, outValueLength)
    return guarded {
        let nameOut = try Arguments.required(outName, "out_name")
        let valueOut = try Arguments.required(outValue, "out_value")
        let handle = try ValueHandle.from(message, "message")
        let headers = try handle.payload(EmbeddedHTTPMessage.self, "an HTTP message").headers
        guard headers.indices.contains(index) else {
            throw SatchelError(
                .valueNotFound, "the message has \(headers.count) headers, not \(UInt(bitPattern: index) + 1)")
        }
        store(handle.buffer(.httpHeaderName(index)) { CBuffer(headers[index].name) }, nameOut, outNameLength)
        store(handle.buffer(.httpHeaderValue(index)) { CBuffer(headers[index].value) }, valueOut, outValueLength)
    }
}

@c @implementation
public func satchel_value_error(
    _ outStatus: UnsafeMutablePointer<satchel_status>?, _ outMessage: UnsafeMutablePointer<UnsafePointer<CChar>?>?,
    _ error: OpaquePointer?
) -> satchel_status {
    outMessage?.pointee = nil
    return guarded {
        let statusOut = try Arguments.required(outStatus, "out_status")
        let handle = try ValueHandle.from(error, "error")
        let failure = try handle.payload(DecodingFailure.self, "a part error")
        statusOut.pointee = satchel_status(failure.error.code)
        outMessage?.pointee = handle.buffer(.errorMessage) { CBuffer(failure.error.cDescription) }.cString
    }
}

@c @implementation
public func satchel_value_file(
    _ outPath: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outPathLength: UnsafeMutablePointer<Int>?,
    _ outSize: UnsafeMutablePointer<UInt64>?, _ value: OpaquePointer?
) -> satchel_status {
    outPath?.pointee = nil
    outPathLength?.pointee = 0
    outSize?.pointee = 0
    return guarded {
        let pathOut = try Arguments.required(outPath, "out_path")
        let handle = try ValueHandle.from(value)
        let file = try handle.payload(TemporaryFile.self, "a part spilled to a file")
        let path = handle.buffer(.filePath) { CBuffer(file.path) }
        pathOut.pointee = path.cString
        outPathLength?.pointee = path.count
        outSize?.pointee = UInt64(file.size)
    }
}

@c @implementation
public func satchel_value_file_read(
    _ outCount: UnsafeMutablePointer<Int>?, _ value: OpaquePointer?, _ offset: UInt64,
    _ buffer: UnsafeMutablePointer<UInt8>?, _ capacity: Int
) -> satchel_status {
    outCount?.pointee = 0
    return guarded {
        let out = try Arguments.required(outCount, "out_count")
        let file = try ValueHandle.from(value).payload(TemporaryFile.self, "a part spilled to a file")
        guard capacity != 0 else { throw SatchelError(.invalidArgument, "capacity is 0") }
        _ = try Arguments.bytes(buffer, capacity, "buffer")  // a NULL buffer is an error, not a crash
        guard offset <= UInt64(Int.max) else { return }
        out.pointee = try file.read(
            at: Int(offset), into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity))
    }
}

/// Clears a (name, value) pair of out-parameters.
func clear(
    _ name: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ nameLength: UnsafeMutablePointer<Int>?,
    _ value: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ valueLength: UnsafeMutablePointer<Int>?
) {
    name?.pointee = nil
    nameLength?.pointee = 0
    value?.pointee = nil
    valueLength?.pointee = 0
}

extension ValueHandle {
    /// The part at `index` of a multipart value.
    func part(at index: Int) throws(SatchelError) -> MultipartParts.Element {
        let parts = try payload(MultipartParts.self, "a multipart value")
        guard parts.indices.contains(index) else {
            throw SatchelError(
                .valueNotFound, "index \(UInt(bitPattern: index)) is past the end of \(parts.count) parts")
        }
        return parts[index]
    }
}

// Header fields by index: the same shape for responses, parts and embedded messages
// (`_header_count`, `_header_at`).

@c @implementation
public func satchel_value_part_header_count(_ multipart: OpaquePointer?, _ partIndex: Int) -> Int {
    (try? ValueHandle.from(multipart, "multipart").part(at: partIndex).part.headers.count) ?? 0
}

@c @implementation
public func satchel_value_http_header_count(_ message: OpaquePointer?) -> Int {
    (try? ValueHandle.from(message, "message").payload(EmbeddedHTTPMessage.self, "an HTTP message").headers.count) ?? 0
}

/// The 0.1.0 name of ``satchel_value_part_header_at``.
@c @implementation
public func satchel_value_part_header(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outNameLength: UnsafeMutablePointer<Int>?,
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ multipart: OpaquePointer?, _ partIndex: Int, _ headerIndex: Int
) -> satchel_status {
    satchel_value_part_header_at(outName, outNameLength, outValue, outValueLength, multipart, partIndex, headerIndex)
}

/// The 0.1.0 name of ``satchel_value_http_header_at``.
@c @implementation
public func satchel_value_http_header(
    _ outName: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outNameLength: UnsafeMutablePointer<Int>?,
    _ outValue: UnsafeMutablePointer<UnsafePointer<CChar>?>?, _ outValueLength: UnsafeMutablePointer<Int>?,
    _ message: OpaquePointer?, _ index: Int
) -> satchel_status {
    satchel_value_http_header_at(outName, outNameLength, outValue, outValueLength, message, index)
}
