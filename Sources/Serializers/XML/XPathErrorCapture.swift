// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

/// The first error of one XPath evaluation, delivered through the XPath context's structured
/// error callback (`ctxt->error` with `ctxt->userData`), never through libxml2's global handler.
final class XPathErrorCapture {
    var error: (message: String, position: Int)?

    static let callback: xmlStructuredErrorFunc = { userData, error in
        guard let userData, let error else { return }
        let capture = Unmanaged<XPathErrorCapture>.fromOpaque(userData).takeUnretainedValue()
        guard capture.error == nil else { return }
        let message = error.pointee.message.map { String(cString: $0) } ?? "XPath error \(error.pointee.code)"
        capture.error = (String(message.prefix { $0 != "\n" }), Int(error.pointee.int1))
    }

    /// The captured error as a ``SatchelError`` naming the expression and the character.
    func satchelError(expression: String) -> SatchelError {
        guard let (message, position) = error else {
            return SatchelError(.syntaxError, "the XPath expression '\(expression)' could not be evaluated")
        }
        var converted = SatchelError(.syntaxError, "XPath: \(message) in '\(expression)'", offset: position)
        converted.line = 1
        converted.column = position + 1
        return converted
    }
}
