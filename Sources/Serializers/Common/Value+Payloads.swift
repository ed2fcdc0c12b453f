// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

// Typed access to the payloads the built-in serializers produce, so that a caller writes
// `value.multipartParts` instead of casting `value.payloadValue`.
extension Value {
    /// The parts, if the value is a decoded multipart body (`$multipart`).
    public var multipartParts: MultipartParts? { payload(as: MultipartParts.self) }

    /// The document, if the value is a decoded XML document (`$xml`).
    public var xmlDocument: XMLDocumentPayload? { payload(as: XMLDocumentPayload.self) }

    /// The image, if the value is a decoded PNG or JPEG (`$image`).
    public var image: DecodedImage? { payload(as: DecodedImage.self) }

    /// The message, if the value is an embedded HTTP message such as a batch part (`$http`).
    public var httpMessage: EmbeddedHTTPMessage? { payload(as: EmbeddedHTTPMessage.self) }

    /// The failure, if the value stands for a part or member that failed to decode (`$error`).
    public var decodingFailure: DecodingFailure? { payload(as: DecodingFailure.self) }
}
