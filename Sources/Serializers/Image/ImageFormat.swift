import SerializerRegistry

/// An image container format Satchel decodes.
public enum ImageFormat: String, Sendable, Hashable, CaseIterable {
    /// PNG, decoded by libpng.
    case png
    /// JPEG (JFIF, EXIF, Adobe), decoded by libjpeg-turbo.
    case jpeg
}
