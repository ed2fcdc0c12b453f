// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2

/// One-time set-up of libxml2 shared by every parser, document and XPath context.
enum XMLLibrary {
    /// `xmlInitParser()` runs once, before the first parser is created; Swift runs a static
    /// initializer exactly once even when threads race to it.
    private static let initialized: Bool = {
        xmlInitParser()
        return true
    }()

    /// Initializes libxml2 if no one has yet.
    static func initialize() {
        _ = initialized
    }

    /// A Swift string from a libxml2 string; `nil` stays `nil`.
    static func string(_ text: UnsafePointer<xmlChar>?) -> String? {
        guard let text else { return nil }
        return String(cString: text)
    }
}

extension XMLLibrary {
    /// Releases memory libxml2 allocated for us, with libxml2's own deallocator (`xmlFree`, a
    /// per-thread global that C reaches through a macro).
    static func free(_ pointer: UnsafeMutableRawPointer?) {
        guard let pointer else { return }
        satchel_xml_free(pointer)
    }

    static func free(_ pointer: UnsafeMutablePointer<xmlChar>?) {
        free(UnsafeMutableRawPointer(pointer))
    }
}

/// The libxml2 error behind a ``SatchelError``: its numeric code (`xmlParserErrors`) and domain
/// (`xmlErrorDomain`).
public struct XMLLibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `xmlParserErrors` value, such as 76 for `XML_ERR_TAG_NAME_MISMATCH`.
    public var code: Int
    /// The `xmlErrorDomain` value, such as 1 for the parser.
    public var domain: Int

    /// `libxml2 error CODE (domain DOMAIN)`.
    public var description: String { "libxml2 error \(code) (domain \(domain))" }
}
