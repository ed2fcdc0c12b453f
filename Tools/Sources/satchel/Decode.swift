// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel

/// `satchel decode`: decode a payload as a response body and print its canonical JSON.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Decode a payload as a response body and print the value as canonical JSON.",
        discussion: """
            The serializer is chosen by --content-type through the registry, as for a response. \
            A body that carries no value prints nothing and exits 0: an empty body in every \
            format, and one of only white space in JSON, XML and property lists.

            A multipart/form-data body (give its boundary: -c 'multipart/form-data; boundary=B') \
            prints {"$multipart": [{headers, name, filename, filenameStar, contentType, size, \
            value}]}, each part's value decoded by its own Content-Type; a part that fails to \
            decode has {"$error": {code, message}} as its value. A malformed body exits 65 (68 for \
            a limit) with the part index and byte offset.

            A PNG or JPEG body (-c image/png or image/jpeg; the format is sniffed from the bytes) \
            prints {"$image": {format, width, height, channels, bitDepth, orientation, colorType, \
            interlaced, progressive, hasICCProfile}}; --dump-pixels FILE also writes its pixels \
            as raw 8-bit RGBA rows. GIF, WebP, BMP, TIFF and unknown formats exit 67.

            An XML body (-c application/xml, text/xml, any +xml) prints {"$xml": {"children": \
            [...]}}: elements as {name, namespace, namespaces, attributes, children}, text as \
            strings (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md). --xml-events decodes with the SAX parser instead of building a \
            tree (same output); --xpath prints the nodes an XPath expression selects, as a JSON \
            array, with prefixes from --namespace p=URI.

            -c application/x-plist reads an XML or binary property list (told from the bytes); \
            data, dates and UIDs print as {"$data": …}, {"$date": …} and {"$uid": n}.

            Record streams (-c text/event-stream, application/jsonl, application/x-ndjson, \
            application/json-seq) print one compact canonical JSON per record per line, each as \
            soon as it is complete (also while standard input is still open): an event as \
            {"event": TYPE, "data": DATA, "id": LAST_EVENT_ID}. A malformed record exits 65 after \
            the records before it (Sources/Satchel/Satchel.docc/RecordStreams.md).

            --each PATH reads one large JSON or XML document as a record stream of its elements \
            at PATH, printed the same way as each completes, in memory bounded by the largest \
            element: for JSON a JSON Pointer to an array ('' for a top-level array, /data/items \
            inside an envelope), for XML an element path (/feed/entry, //item, a:entry with \
            --namespace a=URI). A path that matches nothing exits 65 at the end; a malformed \
            document exits 65 after the elements before it.
            """
    )

    @Option(name: .shortAndLong, help: "The payload's media type.")
    var contentType: String = "application/json"

    @Flag(help: "Indent the output.")
    var pretty = false

    @Option(help: "JSON integers beyond 64 bits: throw, double or string.")
    var bigIntegers: BigIntegerChoice = .throw

    @Flag(help: "Drop JSON members and elements that are null.")
    var removeNulls = false

    @Flag(help: "Reject a JSON document that is a bare number, string, boolean or null.")
    var noTopLevelScalars = false

    @Flag(help: "Multipart: leave part bodies undecoded (text as strings, anything else as $data).")
    var rawParts = false

    @Flag(
        help: """
            Multipart: also accept a repeated Content-Disposition or Content-Type (the first wins), \
            another disposition than form-data, a malformed filename*, a boundary outside RFC 2046 \
            and a part that starts with the boundary.
            """)
    var lenient = false

    @Flag(
        help:
            "Multipart: accept CRLF line endings only (a bare LF is an error); by default CRLF and LF both end a line.")
    var crlfOnly = false

    @Option(help: ArgumentHelp("Images: write the decoded pixels as raw 8-bit RGBA rows to FILE.", valueName: "FILE"))
    var dumpPixels: String?

    @Option(help: "JPEG: decode at 1/N of the size (1, 2, 4 or 8) by DCT scaling.")
    var imageScale: Int = 1

    @Flag(help: "XML: decode with the event (SAX) parser, without building a tree.")
    var xmlEvents = false

    @Option(help: "XML: print the nodes this XPath expression selects, as a JSON array.")
    var xpath: String?

    @Option(
        name: .customLong("namespace"),
        help: ArgumentHelp("XML: a prefix for --xpath or --each, as p=URI (repeatable).", valueName: "p=URI"))
    var xpathNamespaces: [String] = []

    @Option(
        help: ArgumentHelp(
            "Print the elements at PATH of one large JSON or XML document as they complete (a JSON Pointer to an array, or an XML element path).",
            valueName: "PATH"))
    var each: String?

    @OptionGroup var limits: LimitOptions

    @Argument(help: "The file to decode, or - for standard input.")
    var file: String = "-"

    enum BigIntegerChoice: String, ExpressibleByArgument {
        case `throw`, double, string
    }

    func validate() throws {
        if ImageReadingOptions.Scale(rawValue: imageScale) == nil {
            throw ValidationError("--image-scale must be 1, 2, 4 or 8")
        }
    }

    func run() throws {
        do {
            let mediaType = try MediaType(parsing: contentType)
            let limits = self.limits.limits
            let registry = Registry.standard(limits: limits)
            var options = JSONReadingOptions()
            options.bigIntegers =
                switch bigIntegers {
                case .throw: .throw
                case .double: .double
                case .string: .string
                }
            options.removesKeysWithNullValues = removeNulls
            options.allowsTopLevelScalars = !noTopLevelScalars
            registry.register(JSONResponseSerializer(options: options), priority: 1)
            // The whole body is in memory already, so every part is decoded in place.
            let multipart = MultipartReader.Options(
                lenient: lenient, lineEndings: crlfOnly ? .crlf : .crlfOrLF, memoryThreshold: limits.maxBodyBytes)
            registry.register(
                MultipartResponseSerializer(options: multipart, rawParts: rawParts, registry: registry), priority: 1)

            let scale = ImageReadingOptions.Scale(rawValue: imageScale) ?? .full
            registry.register(
                ImageResponseSerializer(options: ImageReadingOptions(output: .rgba8, scale: scale)), priority: 1)

            if xmlEvents { registry.register(XMLEventResponseSerializer(), priority: 1) }
            registry.register(JSONLinesResponseSerializer(options: options), priority: 1)
            registry.register(JSONTextSequenceResponseSerializer(options: options), priority: 1)

            if let each {
                guard let base = registry.responseSerializer(for: mediaType) as? any ElementReadingSerializer else {
                    throw SatchelError(
                        .unsupportedFormat, "--each reads a JSON or XML document, not \(mediaType.essence)")
                }
                let elements = ElementRecordsSerializer(
                    base: base, path: each, namespaces: try CommandIO.namespaces(xpathNamespaces))
                return try printRecords(of: try elements.makeElementReader(contentType: mediaType, limits: limits))
            }
            if let records = registry.responseSerializer(for: mediaType) as? any RecordStreamSerializer {
                return try printRecords(of: records.makeRecordReader(contentType: mediaType, limits: limits))
            }
            let body = try CommandIO.read(file, limit: registry.limits.maxBodyBytes)
            guard var value = try registry.decode(body, contentType: mediaType) else { return }
            if let dumpPixels {
                guard let image = value.image else {
                    throw SatchelError(
                        .typeMismatch, "--dump-pixels needs an image, but the payload decoded to \(value.kindName)")
                }
                try CommandIO.write(image.pixels, toFile: dumpPixels)
            }
            if let xpath { value = try select(xpath, in: value) }
            try CommandIO.write(Array((value.canonicalJSON(pretty: pretty) + "\n").utf8))
        } catch {
            throw CommandIO.fail(error)
        }
    }

    /// Reads `file` with `reader` and prints each record as it completes: the records a chunk of
    /// input completes are written together, before the next chunk is read. The body is never
    /// held, so `maxBodyBytes` does not apply; records obey `maxRecordBytes`.
    private func printRecords(of reader: any RecordReader) throws {
        var output: [UInt8] = []
        let collect = { (record: Value) in output += Array((record.canonicalJSON() + "\n").utf8) }
        // Records before a malformed one are printed before the error.
        defer { try? CommandIO.write(output) }
        try CommandIO.readChunks(file) { chunk in
            try reader.feed(chunk, into: collect)
            try CommandIO.write(output)
            output.removeAll(keepingCapacity: true)
        }
        try reader.finish(into: collect)
    }

    /// The nodes `expression` selects in an XML document value.
    private func select(_ expression: String, in value: Value) throws -> Value {
        guard let document = value.xmlDocument else {
            throw SatchelError(.invalidArgument, "--xpath needs an XML document (without --xml-events)")
        }
        return .array(try document.nodes(xpath: expression, namespaces: try CommandIO.namespaces(xpathNamespaces)))
    }
}
