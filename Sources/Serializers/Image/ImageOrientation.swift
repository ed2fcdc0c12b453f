// SPDX-License-Identifier: Apache-2.0
/// The EXIF orientation of an image: how its stored pixels must be turned to be shown upright.
/// Raw values are the EXIF tag 0x0112 values; ``up`` (1) when the image has no EXIF orientation.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Stored upright.
    case up = 1
    /// Mirrored left to right.
    case upMirrored = 2
    /// Turned 180°.
    case down = 3
    /// Mirrored top to bottom.
    case downMirrored = 4
    /// Mirrored along the top-left to bottom-right diagonal.
    case leftMirrored = 5
    /// Must be turned 90° clockwise to be upright.
    case right = 6
    /// Mirrored along the top-right to bottom-left diagonal.
    case rightMirrored = 7
    /// Must be turned 90° counter-clockwise to be upright.
    case left = 8
}
