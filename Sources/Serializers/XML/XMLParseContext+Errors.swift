// SPDX-License-Identifier: Apache-2.0
import CSatchelLibXML2
import SerializerRegistry

extension XMLParseContext {
    /// libxml2 errors that mean "the input ended inside a construct".
    private static let unfinishedCodes: Set<Int32> = Set(
        [
            XML_ERR_ENTITY_NOT_FINISHED, XML_ERR_ATTRIBUTE_NOT_FINISHED, XML_ERR_LITERAL_NOT_FINISHED,
            XML_ERR_COMMENT_NOT_FINISHED, XML_ERR_PI_NOT_FINISHED, XML_ERR_NOTATION_NOT_FINISHED,
            XML_ERR_ATTLIST_NOT_FINISHED, XML_ERR_MIXED_NOT_FINISHED, XML_ERR_ELEMCONTENT_NOT_FINISHED,
            XML_ERR_XMLDECL_NOT_FINISHED, XML_ERR_CONDSEC_NOT_FINISHED, XML_ERR_EXT_SUBSET_NOT_FINISHED,
            XML_ERR_DOCTYPE_NOT_FINISHED, XML_ERR_CDATA_NOT_FINISHED, XML_ERR_TAG_NOT_FINISHED,
        ].map { Int32($0.rawValue) })

    /// libxml2 errors about the text encoding.
    private static let encodingCodes: Set<Int32> = Set(
        [
            XML_ERR_UNKNOWN_ENCODING, XML_ERR_UNSUPPORTED_ENCODING, XML_ERR_INVALID_ENCODING,
        ].map { Int32($0.rawValue) })

    /// The ``SatchelError`` for a libxml2 error, or `nil` for a warning or our own stop.
    ///
    /// The code says what kind of failure it is (see Sources/Satchel/Satchel.docc/RegistryAndSerializers.md); the message is libxml2's, and
    /// the location its line and column with the byte offset of the document's parser.
    func convert(_ error: xmlError, ctxt: xmlParserCtxtPtr) -> SatchelError? {
        guard error.level.rawValue >= XML_ERR_ERROR.rawValue, error.code != Int32(XML_ERR_USER_STOP.rawValue) else {
            return nil
        }
        if let failure = inputFailure(ctxt) { return failure }
        let code = error.code
        let message = Self.message(of: error)
        var converted: SatchelError
        if code == Int32(XML_ERR_NO_MEMORY.rawValue) {
            converted = SatchelError(.internal, message)
        } else if code == Int32(XML_ERR_ENTITY_LOOP.rawValue) {
            converted = .limitExceeded(
                "maxEntityExpansions", limits.maxEntityExpansions, "entity expansion (\(message))")
        } else if message.contains("Excessive depth") {
            converted = .limitExceeded("maxDepth", limits.maxDepth, "element nesting (\(message))")
        } else if Self.encodingCodes.contains(code) || error.domain == Int32(XML_FROM_I18N.rawValue)
            || message.contains("not proper UTF-8") || message.contains("encoding") || stoppedAtInvalidUTF8(code, ctxt)
        {
            converted = SatchelError(.invalidEncoding, message)
        } else if Self.unfinishedCodes.contains(code) || (inputEnded && (depth > 0 || !sawElement)) {
            converted = SatchelError(.truncatedInput, "the document ends early: \(message)")
        } else {
            converted = SatchelError(.syntaxError, message)
        }
        converted.underlying = XMLLibraryError(code: Int(code), domain: Int(error.domain))
        locate(&converted, ctxt: ctxt)
        if error.line > 0 {
            converted.line = Int(error.line)
            converted.column = error.int2 > 0 ? Int(error.int2) : converted.column
        }
        return converted
    }

    /// Records the first error libxml2 raised without a parser context: bytes that did not
    /// convert (the input buffer's converter, `XML_FROM_I18N`/`XML_IO_ENCODER`), or encoding
    /// detection while the push parser was being created.
    func noteContextless(_ error: xmlError) {
        guard contextlessError == nil, error.level.rawValue >= XML_ERR_ERROR.rawValue else { return }
        let message = Self.message(of: error)
        let encoding =
            error.domain == Int32(XML_FROM_I18N.rawValue) || error.code == Int32(XML_IO_ENCODER.rawValue)
            || Self.encodingCodes.contains(error.code)
        contextlessError = SatchelError(encoding ? .invalidEncoding : .syntaxError, message)
    }

    /// The error for input libxml2 could not read, if it met some: bytes that do not convert
    /// from the document's encoding, or another error raised without a parser context.
    ///
    /// libxml2 converts ahead of the parse and keeps what converted: it parses up to the bad
    /// bytes, then goes on (some converters skip a byte), stops without reporting an error, or
    /// reports what it never got ("Extra content at the end of the document"). The signs: an
    /// error raised outside the parser (``noteContextless(_:)``), the input buffer's
    /// `XML_IO_ENCODER`, bytes left unconverted at the end, or the input buffer freed by a halt.
    /// Checked after every chunk and before converting a parser error.
    /// - Parameters:
    ///   - halted: Whether `xmlParseChunk` halted the parser.
    ///   - encoder: The converter's name before that push, for the message.
    func inputFailure(_ ctxt: xmlParserCtxtPtr, halted: Bool = false, encoder: String? = nil) -> SatchelError? {
        let parser = mainParser ?? ctxt
        let buffer = parser.pointee.input?.pointee.buf
        let unconverted =
            buffer.map { buffer in
                buffer.pointee.error != 0
                    || (inputEnded && buffer.pointee.encoder != nil
                        && buffer.pointee.raw.map { xmlBufUse($0) > 0 } == true)
            } ?? false
        guard halted || unconverted || contextlessError != nil else { return nil }
        var error: SatchelError
        if let contextlessError, contextlessError.code != .invalidEncoding {
            error = contextlessError
        } else {
            let name = buffer?.pointee.encoder?.pointee.name.map { String(cString: $0) } ?? encoder
            var message =
                "the body does not convert from the character encoding \(name.map { "'\($0)'" } ?? "libxml2 detected")"
            if let detail = contextlessError?.message { message += " (\(detail))" }
            error = SatchelError(.invalidEncoding, message)
        }
        locate(&error, ctxt: parser)
        // A halt resets the byte count; the line and column are still right.
        if buffer == nil { error.offset = nil }
        return error
    }

    /// libxml2's message for `error` without its trailing newline, or its code when it has none.
    private static func message(of error: xmlError) -> String {
        let message = error.message.map { String(String(cString: $0).trimmingSuffix(while: \.isWhitespace)) } ?? ""
        return message.isEmpty ? "libxml2 error \(error.code)" : message
    }

    /// Whether libxml2 gave up ("no progress in element content") in front of a byte sequence
    /// that is not UTF-8: its push parser reports invalid UTF-8 that way when fewer than four
    /// bytes are buffered.
    private func stoppedAtInvalidUTF8(_ code: Int32, _ ctxt: xmlParserCtxtPtr) -> Bool {
        guard code == Int32(XML_ERR_INTERNAL_ERROR.rawValue), let input = ctxt.pointee.input,
            let current = input.pointee.cur, let end = input.pointee.end, current < end
        else { return false }
        let lead = current.pointee
        guard lead >= 0x80 else { return false }
        guard (0xC2...0xF4).contains(lead) else { return true }
        return current + 1 < end && (current + 1).pointee & 0xC0 != 0x80
    }

    /// Sets the byte offset (in the document, also while libxml2 parses an entity's text), line
    /// and column of the parser's position.
    func locate(_ error: inout SatchelError, ctxt: xmlParserCtxtPtr) {
        let parser = mainParser ?? ctxt
        let consumed = Int(xmlByteConsumed(parser))
        if consumed >= 0 { error.offset = consumed }
        if let input = parser.pointee.input {
            error.line = Int(input.pointee.line)
            error.column = Int(input.pointee.col)
        }
    }
}

extension StringProtocol {
    /// The text without the trailing characters matching `predicate`.
    fileprivate func trimmingSuffix(while predicate: (Character) -> Bool) -> SubSequence {
        var end = endIndex
        while end > startIndex, predicate(self[index(before: end)]) { end = index(before: end) }
        return self[startIndex..<end]
    }
}
