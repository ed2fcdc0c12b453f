// SPDX-License-Identifier: Apache-2.0
import CSatchelImageCodecs

extension ImageColorType {
    /// The colour type the C shim read from a PNG or JPEG header.
    init(_ color: satchel_image_color) {
        self =
            switch color {
            case SATCHEL_IMAGE_COLOR_GRAY: .gray
            case SATCHEL_IMAGE_COLOR_GRAY_ALPHA: .grayAlpha
            case SATCHEL_IMAGE_COLOR_RGB: .rgb
            case SATCHEL_IMAGE_COLOR_RGBA: .rgba
            case SATCHEL_IMAGE_COLOR_PALETTE: .palette
            case SATCHEL_IMAGE_COLOR_YCBCR: .yCbCr
            case SATCHEL_IMAGE_COLOR_CMYK: .cmyk
            case SATCHEL_IMAGE_COLOR_YCCK: .ycck
            default: .other
            }
    }
}
