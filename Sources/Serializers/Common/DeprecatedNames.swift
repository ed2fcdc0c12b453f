// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

// The names these types had before the package took one naming scheme (request and response
// serializers in pairs; format readers and writers named …Reader and …Writer; "Decoder" only for
// Codable). Kept for one release so that code written against them compiles with a fix-it.

@available(*, deprecated, renamed: "JSONRequestSerializer")
public typealias JSONSerializer = JSONRequestSerializer
@available(*, deprecated, renamed: "FormRequestSerializer")
public typealias FormSerializer = FormRequestSerializer
@available(*, deprecated, renamed: "XMLRequestSerializer")
public typealias XMLSerializer = XMLRequestSerializer
@available(*, deprecated, renamed: "PropertyListRequestSerializer")
public typealias PropertyListSerializer = PropertyListRequestSerializer
@available(*, deprecated, renamed: "MultipartRequestSerializer")
public typealias MultipartSerializer = MultipartRequestSerializer
@available(*, deprecated, renamed: "FormReader")
public typealias FormDecoder = FormReader
@available(*, deprecated, renamed: "FormWriter")
public typealias FormEncoder = FormWriter
@available(*, deprecated, renamed: "MultipartReader")
public typealias MultipartParser = MultipartReader
@available(*, deprecated, renamed: "MultipartIncrementalReader")
public typealias MultipartIncrementalDecoder = MultipartIncrementalReader
@available(*, deprecated, renamed: "ImageReader")
public typealias ImageDecoder = ImageReader
@available(*, deprecated, renamed: "ImageReadingOptions")
public typealias ImageDecodingOptions = ImageReadingOptions
@available(*, deprecated, renamed: "XMLEventReader")
public typealias XMLPushParser = XMLEventReader
