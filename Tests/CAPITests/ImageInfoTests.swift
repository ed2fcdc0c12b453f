// SPDX-License-Identifier: Apache-2.0
import CAPI
import CSatchel
import Foundation
import SatchelTestSupport
import Testing

/// `satchel_value_image_info` reports the pixel buffer's channels and the file's colour type,
/// as the header says: an RGB PNG is decoded to RGBA, so it reports 4 channels and "rgb".
@Suite struct ImageInfoTests {
    @Test(arguments: [("RGB", "rgb"), ("L", "gray"), ("RGBA", "rgba")])
    func channelsAreTheBuffersAndTheColorTypeIsTheFiles(mode: String, colorType: String) throws {
        let file = try CLibrary.temporaryDirectory().appendingPathComponent("info-\(mode).png")
        let made = try VenvPython.run(
            "import sys; from PIL import Image; m = sys.argv[2]; "
                + "Image.new(m, (3, 2), {'RGB': (10, 20, 30), 'L': 200, 'RGBA': (10, 20, 30, 99)}[m]).save(sys.argv[1])",
            [file.path, mode])
        try #require(made.status == 0, "Pillow failed: \(made.output)")
        let png = Array(try Data(contentsOf: file))

        var registry: OpaquePointer?
        try #require(satchel_registry_create(&registry) == SATCHEL_OK)
        defer { satchel_registry_free(registry) }
        var value: OpaquePointer?
        try #require(satchel_registry_decode(&value, registry, nil, 0, png, png.count) == SATCHEL_OK)
        defer { satchel_value_free(value) }

        var info = satchel_image_info()
        info.struct_size = UInt32(MemoryLayout<satchel_image_info>.size)
        info.abi_version = UInt32(SATCHEL_ABI_VERSION)
        try #require(satchel_value_image_info(&info, value) == SATCHEL_OK)
        #expect(info.channels == 4 && info.bit_depth == 8 && info.row_stride == 12)
        #expect(String(cString: info.color_type) == colorType)
        var pixels: UnsafePointer<UInt8>?
        var length = 0
        try #require(satchel_value_image_pixels(&pixels, &length, value) == SATCHEL_OK)
        #expect(length == 2 * Int(info.row_stride))
        // Alpha is 255 where the file has none.
        #expect(pixels?[3] == (mode == "RGBA" ? 99 : 255))
    }
}
