// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Writes parameters as an XML body, `application/xml; charset=utf-8`.
///
/// An ``XMLDocumentPayload`` is written as it is; the canonical form
/// `{"$xml": {"children": […]}}` (what the XML response serializers decode to) is written node
/// for node, so decoding and encoding round-trip; any other value is mapped to elements: an
/// object with one member is the root element named by its key (otherwise the root is
/// ``rootElementName``), members become child elements, `"@name"` members attributes, a
/// `"#text"` member text, arrays repeat their element. See Sources/Satchel/Satchel.docc/RegistryAndSerializers.md. For GET, HEAD and
/// DELETE the parameters go into the query string, as with every AFNetworking serializer.
public struct XMLRequestSerializer: RequestSerializer {
    /// `"xml"`.
    public var name: String { "xml" }
    /// `application/xml; charset=utf-8`.
    public var contentType: MediaType {
        MediaType(type: "application", subtype: "xml", parameters: [.init(name: "charset", value: "utf-8")])
    }
    /// Headers set on every serialized request unless it already has them.
    public var headers: HTTPFields
    /// The root element for a value that is not an object with a single member. Default `root`.
    public var rootElementName: String
    /// Methods whose parameters go into the query string, as the form serializer writes them
    /// (AFNetworking's `HTTPMethodsEncodingParametersInURI`).
    public var methodsEncodingParametersInURI: Set<HTTPRequest.Method>

    /// Creates an XML serializer.
    public init(
        rootElementName: String = "root",
        methodsEncodingParametersInURI: Set<HTTPRequest.Method> = .encodingParametersInURI,
        headers: HTTPFields = DefaultHeaders.standard
    ) {
        self.rootElementName = rootElementName
        self.methodsEncodingParametersInURI = methodsEncodingParametersInURI
        self.headers = headers
    }

    /// The XML document for `value`.
    /// - Throws: ``SatchelError/Code/unencodableValue`` with the key path of what XML cannot hold
    ///   (a key that is not an XML name, an undeclared prefix, a character XML 1.0 forbids, an
    ///   array inside an array, a comment containing `--`).
    public func encodeBody(_ value: Value) throws(SatchelError) -> [UInt8] {
        var writer = XMLWriter(rootElementName: rootElementName)
        return try writer.write(value)
    }

    /// Returns `request` with the parameters in its query (GET, HEAD, DELETE) or as an XML body.
    public func serialize(_ parameters: Value?, into request: HTTPRequest) throws(SatchelError) -> SerializedRequest {
        try serialize(parameters, into: request, queryMethods: methodsEncodingParametersInURI)
    }
}
