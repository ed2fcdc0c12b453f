// SPDX-License-Identifier: Apache-2.0
import CSatchelImageCodecs
import SerializerRegistry

/// Decodes PNG (libpng) and JPEG (libjpeg-turbo) images from memory into a ``DecodedImage``.
///
/// The format is sniffed from the magic bytes. The pixel count is checked against
/// ``Limits/maxImagePixels`` from the header, before any pixel memory is allocated. The
/// libraries' errors — and libjpeg's corrupt-data warnings, such as "Premature end of JPEG file",
/// which libjpeg would otherwise paper over with grey — become ``SatchelError``s carrying the
/// library's message; nothing aborts the process.
public struct ImageReader: Sendable {
    /// The pixel layout and scaling.
    public var options: ImageReadingOptions
    /// The bounds to obey (``Limits/maxImagePixels``).
    public var limits: Limits

    /// Creates a decoder.
    public init(options: ImageReadingOptions = ImageReadingOptions(), limits: Limits = .default) {
        self.options = options
        self.limits = limits
    }

    /// Decodes a whole PNG or JPEG file.
    ///
    /// - Throws: ``SatchelError`` with code ``SatchelError/Code/unsupportedFormat`` for other
    ///   formats, ``SatchelError/Code/limitExceeded`` (`maxImagePixels`) for too many pixels,
    ///   ``SatchelError/Code/truncatedInput`` when the data ends early and
    ///   ``SatchelError/Code/syntaxError`` for corrupt data, with libpng's or libjpeg's message.
    /// - Complexity: O(pixels).
    public func read(_ bytes: [UInt8]) throws(SatchelError) -> DecodedImage {
        let result = bytes.withUnsafeBytes { buffer in
            Result { () throws(SatchelError) in try read(buffer) }
        }
        return try result.get()
    }

    /// Decodes a whole PNG or JPEG file lent as raw memory (a C caller's buffer), in place.
    /// - Throws: As ``read(_:)-([UInt8])``.
    /// - Complexity: O(pixels).
    public func read(_ buffer: UnsafeRawBufferPointer) throws(SatchelError) -> DecodedImage {
        let format = try ImageFormat.sniff(Array(buffer.prefix(ImageFormat.sniffedLength)))
        return try decode(buffer.assumingMemoryBound(to: UInt8.self), format: format)
    }

    private func decode(_ bytes: UnsafeBufferPointer<UInt8>, format: ImageFormat) throws(SatchelError) -> DecodedImage {
        let name = format == .png ? "PNG" : "JPEG"
        guard let base = bytes.baseAddress,
            let decoder = satchel_image_decoder_create(
                format == .png ? SATCHEL_IMAGE_PNG : SATCHEL_IMAGE_JPEG, base, bytes.count)
        else { throw SatchelError(.internal, "out of memory creating the \(name) decoder") }
        defer { satchel_image_decoder_destroy(decoder) }

        var request = satchel_image_options()
        request.output =
            switch options.output {
            case .rgba8: SATCHEL_IMAGE_OUTPUT_RGBA8
            case .rgb8: SATCHEL_IMAGE_OUTPUT_RGB8
            case .native: SATCHEL_IMAGE_OUTPUT_NATIVE
            }
        request.scale_denominator = Int32(options.scale.rawValue)
        request.apply_gamma = options.applyGamma ? 1 : 0
        request.max_pixels = UInt64(max(0, limits.maxImagePixels))
        var header = satchel_image_header()
        try check(satchel_image_decoder_read_header(decoder, &request, &header), decoder, name)

        // The EXIF bytes live in libjpeg's saved markers, which reading the pixels frees
        // (jpeg_finish_decompress): read the orientation first.
        let orientation =
            header.exif.map {
                ImageOrientation(exif: UnsafeRawBufferPointer(start: $0, count: header.exif_size)) ?? .up
            } ?? .up
        let conversion = CMYKConversion(header: header, output: options.output)
        let (pixelBytes, overflow) = header.out_row_bytes.multipliedReportingOverflow(by: Int(header.out_height))
        guard !overflow else {
            throw SatchelError.limitExceeded("maxImagePixels", limits.maxImagePixels, "a \(name) image this large")
        }
        var status = SATCHEL_IMAGE_MISUSE
        let pixels = [UInt8](unsafeUninitializedCapacity: max(pixelBytes, 1)) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            status = satchel_image_decoder_read_pixels(decoder, base)
            if status == SATCHEL_IMAGE_OK { count = conversion?.convert(buffer, pixelBytes: pixelBytes) ?? pixelBytes }
        }
        try check(status, decoder, name)

        let channels = conversion?.outputChannels ?? Int(header.out_channels)
        let metadata = DecodedImage.Metadata(
            width: Int(header.width), height: Int(header.height), bitDepth: Int(header.bit_depth),
            colorType: ImageColorType(header.color),
            interlaced: format == .png && header.interlaced != 0,
            progressive: format == .jpeg && header.interlaced != 0,
            hasICCProfile: header.has_icc_profile != 0, hasTransparency: header.has_transparency != 0,
            orientation: orientation)
        return DecodedImage(
            format: format, width: Int(header.out_width), height: Int(header.out_height), channels: channels,
            bitDepth: Int(header.out_bit_depth),
            rowStride: Int(header.out_width) * channels * Int(header.out_bit_depth) / 8,
            pixels: pixels, metadata: metadata)
    }

    /// Throws the error a step's status stands for.
    private func check(_ status: satchel_image_status, _ decoder: OpaquePointer, _ name: String) throws(SatchelError) {
        let library = name == "PNG" ? "libpng" : "libjpeg"
        let message = String(cString: satchel_image_decoder_message(decoder))
        switch status {
        case SATCHEL_IMAGE_OK:
            return
        case SATCHEL_IMAGE_TOO_MANY_PIXELS:
            throw SatchelError.limitExceeded("maxImagePixels", limits.maxImagePixels, "a \(name) image of \(message)")
        case SATCHEL_IMAGE_TRUNCATED:
            throw SatchelError(.truncatedInput, "truncated \(name) image (\(library): \(message))")
        case SATCHEL_IMAGE_LIBRARY_ERROR:
            throw SatchelError(.syntaxError, "corrupt \(name) image (\(library): \(message))")
        case SATCHEL_IMAGE_OUT_OF_MEMORY:
            throw SatchelError(.internal, "out of memory decoding a \(name) image")
        default:
            throw SatchelError(.internal, "the \(name) decoder was misused (status \(status.rawValue))")
        }
    }
}
