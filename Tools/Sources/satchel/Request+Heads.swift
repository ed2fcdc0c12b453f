// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Request {
    /// With -v, the request head and the response head; with --headers, the response head. They
    /// go to standard output, or to standard error when the body goes to a file (httpie's rule).
    func printHeads(_ response: DataResponse, printer: ValuePrinter) throws {
        try printHeads(
            request: response.request, response: response.response, version: response.metrics.httpVersion,
            printer: printer)
    }

    /// With -v and --cache: `cache: hit|miss|revalidated|stored|not-stored (reason)` on standard error.
    func printCacheOutcome(_ metrics: TransferMetrics) {
        if verbose, let cache = metrics.cache { CommandIO.writeError(Array("cache: \(cache)\n".utf8)) }
    }

    /// The heads of a request and its response, as ``printHeads(_:printer:)``.
    /// Without `request` (a streamed response, whose request head is not kept), only the response's.
    func printHeads(request: HTTPRequest?, response: HTTPResponse?, version: String, printer: ValuePrinter) throws {
        guard verbose || headers else { return }
        let protocolName = version.isEmpty ? "HTTP/1.1" : version.hasPrefix("HTTP") ? version : "HTTP/" + version
        var text = ""
        if verbose, let request {
            text += printer.style("\(request.method.rawValue) \(request.path ?? "/") \(protocolName)", .bold) + "\n"
            if let authority = request.authority,
                !request.headerFields.contains(where: { $0.name.canonicalName == "host" })
            {
                text += printer.style("Host", .cyan) + ": \(authority)\n"
            }
            text += Self.fields(request.headerFields, printer: printer) + "\n"
        }
        if let response {
            let ok = (200..<300).contains(response.status.code)
            text +=
                printer.style(
                    // HTTP/2 has no reason phrase: no space after the code then.
                    "\(protocolName) \(response.status.code) \(response.status.reasonPhrase)".trimmingTrailingSpaces(),
                    ok ? .green : .red, .bold) + "\n"
            text += Self.fields(response.headerFields, printer: printer) + "\n"
        }
        let bytes = Array(text.utf8)
        if output != nil || download {
            CommandIO.writeError(bytes)
        } else {
            try CommandIO.write(bytes)
        }
    }

    private static func fields(_ fields: HTTPFields, printer: ValuePrinter) -> String {
        fields.map { printer.style($0.name.rawName, .cyan) + ": \($0.value)\n" }.joined()
    }
}

extension String {
    /// The text without the spaces at its end.
    fileprivate func trimmingTrailingSpaces() -> String {
        String(self[..<(lastIndex { $0 != " " }.map(index(after:)) ?? startIndex)])
    }
}
