// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry
import Serializers
import Testing

/// The image serializer through a registry: dispatch by Content-Type, format by magic bytes.
///
/// It is not in `Registry.standard()`: there, multipart parts are decoded by their own
/// Content-Type, and an uploaded image must stay bytes, not become pixels.
@Suite struct ImageResponseSerializerTests {
    static func registry() -> Registry {
        let registry = Registry.standard()
        registry.register(ImageResponseSerializer())
        return registry
    }

    @Test func standardRegistryDecodesPNGAndJPEG() throws {
        let registry = Self.registry()
        for (name, type) in [("png-rgba-8", "image/png"), ("jpeg-progressive", "image/jpeg")] {
            let response = HTTPResponse(status: .ok, headerFields: [.contentType: type])
            let decoded = registry.decode(response: response, body: try ImageSamples.bytes(name))
            #expect(decoded.error == nil)
            #expect(decoded.serializerName == "image")
            let image = try #require(decoded.value?.image)
            #expect(image.pixels == (try ImageSamples.load("\(name).rgba")))
        }
    }

    @Test func contentTypeIsNotTrustedForTheFormat() throws {
        let registry = Self.registry()
        let value = try registry.decode(
            try ImageSamples.bytes("png-gray-8"), contentType: MediaType(type: "image", subtype: "jpeg"))
        #expect((value?.image)?.format == .png)
        let gif = try ImageSamples.load("unsupported.gif")
        let error = satchelError { try registry.decode(gif, contentType: MediaType(type: "image", subtype: "png")) }
        #expect(error?.code == .unsupportedFormat)
        #expect(error?.message == "unsupported image format: GIF")
    }

    @Test func acceptsAFNetworkingsImageTypes() throws {
        let serializer = ImageResponseSerializer()
        for subtype in ["tiff", "jpeg", "gif", "png", "ico", "x-icon", "bmp", "x-bmp", "x-xbitmap", "x-win-bitmap"] {
            #expect(serializer.acceptableContentTypes.accepts(MediaType(type: "image", subtype: subtype)), "\(subtype)")
        }
        #expect(!serializer.acceptableContentTypes.accepts(MediaType(type: "image", subtype: "webp")))
        let accept = try MediaRangeList(parsing: Self.registry().acceptHeader)
        #expect(accept.accepts(MediaType(type: "image", subtype: "png")))
        #expect(Registry.standard().responseSerializer(for: MediaType(type: "image", subtype: "png"))?.name == "image")
    }

    @Test func emptyBodyIsNoValueAndOversizedBodyIsALimit() throws {
        let serializer = ImageResponseSerializer()
        #expect(try serializer.decode([], contentType: nil, limits: .default) == nil)
        let png = try ImageSamples.bytes("png-rgb-8")
        let error = satchelError { try serializer.decode(png, contentType: nil, limits: Limits(maxBodyBytes: 100)) }
        #expect(error?.limit == "maxBodyBytes")
    }

    @Test func optionsReachTheDecoder() throws {
        let serializer = ImageResponseSerializer(options: ImageReadingOptions(output: .rgb8, scale: .quarter))
        let value = try serializer.decode(
            try ImageSamples.bytes("jpeg-baseline-420"), contentType: nil, limits: .default)
        let image = try #require(value?.image)
        #expect(image.channels == 3 && image.width == 17 && image.height == 12)
    }
}
