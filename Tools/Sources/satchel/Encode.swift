// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import HTTPTypes
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// `satchel encode`: read parameters as JSON and print what a request serializer makes of them.
struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read parameters as JSON and print the serialized body.",
        discussion: """
            For GET, HEAD and DELETE the parameters go into the URL, as AFNetworking puts them: \
            the output is then the query string. --include-headers prints the request head \
            (request line and headers) before the body.

            --as multipart writes a multipart/form-data body: the parameters become text parts \
            named as the form serializer names them (user[tags][]), then each --file adds a file \
            part. The body is streamed to standard output, never held in memory, and printed \
            without a trailing newline; with --include-headers the head carries its \
            Content-Type (with the boundary) and its exact Content-Length. Parameters are read \
            from FILE, or from standard input when there is no FILE and no --file; an empty \
            input means no parameters.

            --as xml writes application/xml: the {"$xml": …} form that decode prints is written \
            back node for node; other JSON maps to elements (an object with one member names the \
            root, else --root-element; "@name" members are attributes, "#text" text, arrays \
            repeat their element).

            --as plist writes an XML property list, --as plist-binary a binary one (bplist00), \
            both without a trailing newline. The canonical JSON forms {"$data": base64}, \
            {"$date": ISO-8601} and {"$uid": n} become plist data, dates and UIDs, so the \
            output of 'satchel decode -c application/x-plist' encodes back to the same plist.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case form, json, multipart, xml, plist
        case plistBinary = "plist-binary"
    }

    @Option(
        name: .customLong("as"), help: "The body format: \(Format.allCases.map(\.rawValue).joined(separator: ", ")).")
    var format: Format

    @Option(help: "The request method, which decides between query string and body.")
    var method: String = "POST"

    @Flag(help: "Print the request line and headers before the body.")
    var includeHeaders = false

    @Flag(help: "JSON: indent the output.")
    var pretty = false

    @Flag(help: "JSON: write object members sorted by key.")
    var sortedKeys = false

    @Flag(help: "JSON: write '/' unescaped.")
    var withoutEscapingSlashes = false

    @Option(help: "XML: the root element of parameters that are not an object with one member.")
    var rootElement = "root"

    @Option(
        name: .customLong("file"),
        help: ArgumentHelp(
            "Multipart: a file part, as name=@path[;type=MEDIA-TYPE][;filename=NAME] (repeatable).",
            valueName: "name=@path"))
    var fileParts: [String] = []

    @Option(help: "Multipart: the boundary, for reproducible output (random by default).")
    var boundary: String?

    @OptionGroup var limits: LimitOptions

    @Argument(help: "A JSON file of parameters, or - for standard input (the default).")
    var file: String?

    func validate() throws {
        guard HTTPRequest.Method(method.uppercased()) != nil else {
            throw ValidationError("'\(method)' is not an HTTP method")
        }
        if format != .multipart && (!fileParts.isEmpty || boundary != nil) {
            throw ValidationError("--file and --boundary apply only to --as multipart")
        }
        if let boundary {
            do {
                _ = try MultipartBoundary(boundary)
            } catch {
                throw ValidationError("invalid --boundary: \(error.message)")
            }
        }
        for part in fileParts { _ = try FilePart(parsing: part) }
    }

    func run() throws {
        do {
            switch format {
            case .form, .json, .xml, .plist, .plistBinary:
                try runSerializer()
            case .multipart:
                try runMultipart()
            }
        } catch {
            throw CommandIO.fail(error)
        }
    }

    /// Form and JSON: the whole body in memory, through the request serializer.
    private func runSerializer() throws {
        let limits = limits.limits
        let input = try CommandIO.read(file ?? "-", limit: limits.maxBodyBytes)
        var parameters = try JSONReader(limits: limits).read(input)
        let serializer: any RequestSerializer
        if format == .form {
            serializer = FormRequestSerializer()
        } else if format == .xml {
            serializer = XMLRequestSerializer(rootElementName: rootElement)
        } else if format == .plist || format == .plistBinary {
            serializer = PropertyListRequestSerializer(format: format == .plist ? .xml : .binary)
            parameters = try Self.propertyListValue(parameters)
        } else {
            var options = JSONWriter.Options()
            options.prettyPrinted = pretty
            options.sortedKeys = sortedKeys
            options.escapesSlashes = !withoutEscapingSlashes
            serializer = JSONRequestSerializer(writingOptions: options)
        }
        var serialized = try serializer.serialize(parameters, into: requestHead)
        if let body = serialized.body {
            serialized.request.headerFields[.contentLength] = String(body.count)
        }
        let endsWithNewline = format != .plist && format != .plistBinary
        try CommandIO.write(Self.render(serialized, includeHeaders: includeHeaders, endsWithNewline: endsWithNewline))
    }

    /// The request line's method and target, before a serializer fills it.
    private var requestHead: HTTPRequest {
        let method = HTTPRequest.Method(method.uppercased()) ?? .post
        return HTTPRequest(method: method, scheme: "http", authority: "localhost", path: "/")
    }

    /// The body, or the query string when the parameters went into the URL; with the head first
    /// when asked. `endsWithNewline: false` leaves a body as it is (a binary plist ends with
    /// its trailer).
    static func render(_ serialized: SerializedRequest, includeHeaders: Bool, endsWithNewline: Bool = true) -> [UInt8] {
        let path = serialized.request.path ?? "/"
        var output: [UInt8] = []
        if includeHeaders {
            output.append(contentsOf: head(of: serialized.request).utf8)
        }
        if let body = serialized.body {
            output.append(contentsOf: body)
        } else if let query = path.split(separator: "?", maxSplits: 1).dropFirst().first {
            output.append(contentsOf: query.utf8)
        }
        if serialized.body == nil || !includeHeaders && endsWithNewline { output.append(UInt8(ascii: "\n")) }
        return output
    }

    /// The request line and headers, ending with the blank line.
    static func head(of request: HTTPRequest) -> String {
        var head = "\(request.method) \(request.path ?? "/") HTTP/1.1\r\n"
        for field in request.headerFields {
            head += "\(field.name): \(field.value)\r\n"
        }
        return head + "\r\n"
    }
}

// MARK: - Multipart

extension Encode {
    /// One `--file name=@path[;type=…][;filename=…]` option, as curl's `-F` writes it.
    ///
    /// The path runs to the first `;type=` or `;filename=`; each value runs to the next one, or
    /// is a double-quoted string (with `\"` and `\\` escapes) to hold those characters.
    struct FilePart {
        var name: String
        var path: String
        var mediaType: MediaType?
        var filename: String?

        init(parsing text: String) throws(ValidationError) {
            func invalid(_ reason: String) -> ValidationError {
                ValidationError("invalid --file '\(text)': \(reason); expected name=@path[;type=…][;filename=…]")
            }
            guard let equals = text.firstIndex(of: "=") else { throw invalid("no '='") }
            name = String(text[..<equals])
            guard !name.isEmpty else { throw invalid("the field name is empty") }
            var rest = text[text.index(after: equals)...]
            guard rest.first == "@" else { throw invalid("the value must start with '@' and a path") }
            rest = rest.dropFirst()
            let pathEnd = Self.nextOption(in: rest)
            path = String(rest[..<pathEnd])
            guard !path.isEmpty else { throw invalid("the path is empty") }
            rest = rest[pathEnd...]
            while !rest.isEmpty {
                let key = rest.hasPrefix(";type=") ? "type" : "filename"
                rest = rest.dropFirst(key.count + 2)
                let value: String
                if rest.first == "\"" {
                    var unquoted = ""
                    var index = rest.index(after: rest.startIndex)
                    var closed = false
                    while index < rest.endIndex {
                        let character = rest[index]
                        index = rest.index(after: index)
                        if character == "\"" {
                            closed = true
                            break
                        }
                        if character == "\\", index < rest.endIndex {
                            unquoted.append(rest[index])
                            index = rest.index(after: index)
                        } else {
                            unquoted.append(character)
                        }
                    }
                    guard closed else { throw invalid("unterminated quoted \(key)") }
                    rest = rest[index...]
                    guard rest.isEmpty || Self.nextOption(in: rest) == rest.startIndex else {
                        throw invalid("text after the quoted \(key)")
                    }
                    value = unquoted
                } else {
                    let end = Self.nextOption(in: rest)
                    value = String(rest[..<end])
                    rest = rest[end...]
                }
                if key == "type" {
                    guard let mediaType = MediaType(value) else { throw invalid("'\(value)' is not a media type") }
                    self.mediaType = mediaType
                } else {
                    self.filename = value
                }
            }
        }

        /// Where the next `;type=` or `;filename=` starts, or the end.
        private static func nextOption(in text: Substring) -> Substring.Index {
            var index = text.startIndex
            while let semicolon = text[index...].firstIndex(of: ";") {
                let after = text[semicolon...]
                if after.hasPrefix(";type=") || after.hasPrefix(";filename=") { return semicolon }
                index = text.index(after: semicolon)
            }
            return text.endIndex
        }
    }

    /// Multipart: builds the body from the parameters and the files, then streams it to
    /// standard output through one 64 KiB buffer.
    private func runMultipart() throws {
        let limits = limits.limits
        var parameters = Value.null
        if let source = file ?? (fileParts.isEmpty ? "-" : nil) {
            let input = try CommandIO.read(source, limit: limits.maxBodyBytes)
            let blank = input.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            if !blank { parameters = try JSONReader(limits: limits).read(input) }
        }
        var encoding = FormWriter.Options()
        encoding.maxDepth = limits.maxDepth
        let serializer = MultipartRequestSerializer(
            boundary: try boundary.map(MultipartBoundary.init) ?? .random(), encoding: encoding)
        var form = try serializer.formData(from: parameters)
        for text in fileParts {
            let part = try FilePart(parsing: text)
            try form.append(fileAt: part.path, name: part.name, filename: part.filename, mediaType: part.mediaType)
        }
        let stream = try form.makeBodyStream()
        if includeHeaders {
            var request = requestHead
            serializer.applyDefaultHeaders(to: &request)
            request.headerFields[.contentType] = form.contentType.description
            if let length = stream.length {
                request.headerFields[.contentLength] = String(length)
            } else {
                request.headerFields[.transferEncoding] = "chunked"
            }
            try CommandIO.write(Array(Self.head(of: request).utf8))
        }
        try stream.write(toFileDescriptor: STDOUT_FILENO, named: "standard output")
    }
}
