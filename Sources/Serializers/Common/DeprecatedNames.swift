// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

// The names these types had before the package took one naming scheme (request and response
// serializers in pairs; format readers and writers named …Reader and …Writer; "Decoder" only for
// Codable). Kept for one release so that code written against them compiles with a fix-it.

/// The former name of ``JSONRequestSerializer``.
@available(*, deprecated, renamed: "JSONRequestSerializer")
public typealias JSONSerializer = JSONRequestSerializer
/// The former name of ``FormRequestSerializer``.
@available(*, deprecated, renamed: "FormRequestSerializer")
public typealias FormSerializer = FormRequestSerializer
/// The former name of ``XMLRequestSerializer``.
@available(*, deprecated, renamed: "XMLRequestSerializer")
public typealias XMLSerializer = XMLRequestSerializer
/// The former name of ``PropertyListRequestSerializer``.
@available(*, deprecated, renamed: "PropertyListRequestSerializer")
public typealias PropertyListSerializer = PropertyListRequestSerializer
/// The former name of ``MultipartRequestSerializer``.
@available(*, deprecated, renamed: "MultipartRequestSerializer")
public typealias MultipartSerializer = MultipartRequestSerializer
/// The former name of ``FormReader``.
@available(*, deprecated, renamed: "FormReader")
public typealias FormDecoder = FormReader
/// The former name of ``FormWriter``.
@available(*, deprecated, renamed: "FormWriter")
public typealias FormEncoder = FormWriter
/// The former name of ``MultipartReader``.
@available(*, deprecated, renamed: "MultipartReader")
public typealias MultipartParser = MultipartReader
/// The former name of ``MultipartIncrementalReader``.
@available(*, deprecated, renamed: "MultipartIncrementalReader")
public typealias MultipartIncrementalDecoder = MultipartIncrementalReader
/// The former name of ``ImageReader``.
@available(*, deprecated, renamed: "ImageReader")
public typealias ImageDecoder = ImageReader
/// The former name of ``ImageReadingOptions``.
@available(*, deprecated, renamed: "ImageReadingOptions")
public typealias ImageDecodingOptions = ImageReadingOptions
/// The former name of ``XMLEventReader``.
@available(*, deprecated, renamed: "XMLEventReader")
public typealias XMLPushParser = XMLEventReader
