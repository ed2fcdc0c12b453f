// SPDX-License-Identifier: Apache-2.0
import Foundation
import HTTPTypes
import Satchel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

extension Request {
    /// Builds the request, sends it and prints or saves the response.
    func perform() async throws {
        let limits = self.limits.limits
        var parsedItems = try items.map(RequestItem.init(parsing:))
        for header in headerOptions {
            guard let colon = header.firstIndex(of: ":"), colon != header.startIndex else {
                throw UsageError("--header '\(header)' is not 'Name: value'")
            }
            let value = header[header.index(after: colon)...].drop { $0 == " " || $0 == "\t" }
            parsedItems.append(.header(name: String(header[..<colon]), value: String(value)))
        }
        if download && (parsedItems.contains(where: \.isData) || method.uppercased() != "GET") {
            throw UsageError("--download sends a GET without data items")
        }
        if raw && output != nil { throw UsageError("--raw and --output exclude each other") }
        if [stream, sse, each != nil].filter({ $0 }).count > 1
            || (stream || sse || each != nil) && (raw || output != nil || download)
        {
            throw UsageError(
                "--stream, --sse and --each print records: not with each other, --raw, --output or --download")
        }
        var plan = try RequestPlan(method: method, url: url, items: parsedItems, format: format, limits: limits)
        if let cacert = transfer.cacert { CommandIO.close(try CommandIO.open(cacert)) }
        if transfer.cookieJar != nil && transfer.noCookies {
            throw UsageError("--cookie-jar and --no-cookies exclude each other")
        }
        if self.session != nil && transfer.cookieJar != nil {
            throw UsageError("--session and --cookie-jar exclude each other (a session keeps the cookies)")
        }
        var configuration = try transfer.configuration()
        configuration.eventMonitors.append(WarningPrinter())
        let sessionPath = try self.session.map { try SessionFile.path(for: $0, url: plan.url) }
        let sessionFile = try sessionPath.map(SessionFile.load)
        if let sessionFile { try restore(sessionFile, into: &plan, &configuration) }
        if let credentials {
            try authenticate(&plan, &configuration, with: credentials, as: authType)
        } else if let auth = sessionFile?.auth,
            let raw = auth.raw_auth ?? auth.username.map({ "\($0):\(auth.password ?? "")" })
        {
            try authenticate(
                &plan, &configuration, with: raw, as: auth.type.flatMap(AuthType.init(rawValue:)) ?? .basic)
        }
        configuration.downloadDurability = durability.value
        let session = try Session(configuration: configuration, registry: .standard(limits: limits))
        // A cookie jar is written on the store's own queue: the process waits for it before it ends.
        defer { session.cookieStore.flush() }
        defer {
            if let sessionPath, let sessionFile { keep(sessionFile, at: sessionPath, plan: plan, session: session) }
        }
        let bar = showsProgress ? ProgressBar() : nil
        var progress: (@Sendable (TransferProgress) -> Void)?
        if let bar { progress = { bar.update($0) } }
        let interrupts = InterruptHandler(progressBar: bar)
        defer { withExtendedLifetime(interrupts) {} }

        if download {
            try await runDownload(plan, session: session, progress: progress, bar: bar)
            return
        }
        var request = try plan.makeRequest(progress: progress)
        request.cachePolicy = transfer.cachePolicy ?? .useProtocol
        if noCheckStatus { request.validation = ResponseValidation(acceptableStatusCodes: [100..<1000]) }
        if stream { return try await runStream(request, session: session) }
        if let each {
            return try await runElements(at: each, request, session: session)
        }
        if sse { return try await runEventSource(request, session: session) }
        if raw || output != nil { request.responseSerializer = RawBodySerializer() }
        let result = await session.result(for: request)
        bar?.finish()
        try report(result.get())
    }

    /// Adds a `--session` file's headers (where the command gives none of the name) and
    /// cookies (unless `--no-cookies`) to the request.
    private func restore(
        _ file: SessionFile, into plan: inout RequestPlan, _ configuration: inout SessionConfiguration
    ) throws {
        for header in file.headers {
            guard let name = HTTPField.Name(header.name), SessionFile.keeps(name), plan.headers[name] == nil else {
                continue
            }
            plan.headers[name] = header.value
        }
        guard !transfer.noCookies else { return }
        let store = CookieStore()
        try store.setCookies(file.storeCookies(for: URLComponents(string: plan.url)?.host ?? ""))
        configuration.cookieStore = store
    }

    /// Writes the `--session` file back with this run's headers, cookies and `--auth`; a
    /// failure is a warning (the request itself went through).
    private func keep(_ file: SessionFile, at path: String, plan: RequestPlan, session: Session) {
        var file = file
        file.keep(plan.headers)
        if !transfer.noCookies { file.keep(session.cookieStore.cookies()) }
        if let credentials { file.auth = SessionFile.Auth(type: authType.rawValue, raw_auth: credentials) }
        do {
            try file.save(path)
        } catch {
            CommandIO.writeError(Array("satchel: warning: the session was not saved: \(error)\n".utf8))
        }
    }

    /// Applies `--auth` as `--auth-type` says: a Basic or bearer header the plan carries (to
    /// downloads too), or a credential the session answers the URL's host's challenge with.
    private func authenticate(
        _ plan: inout RequestPlan, _ configuration: inout SessionConfiguration, with credentials: String,
        as authType: AuthType
    ) throws {
        if authType == .bearer {
            plan.headers[.authorization] = "Bearer \(credentials)"
            return
        }
        let (user, password) = try CommandIO.userAndPassword(credentials, option: "--auth")
        guard authType != .basic else {
            // SessionRequest writes the header (RFC 7617, UTF-8).
            var carrier = SessionRequest(.get, plan.url)
            carrier.authenticate(username: user, password: password)
            plan.headers[.authorization] = carrier.headers[.authorization]
            return
        }
        guard let components = URLComponents(string: plan.url), let host = components.host else {
            throw UsageError("--auth: \(plan.url) has no host")
        }
        let method: Credential.Method =
            switch authType {
            case .digest: .digest
            case .ntlm: .ntlm
            default: .any
            }
        let key = components.port.map { "\(host):\($0)" } ?? host
        configuration.credentials[key] = Credential(user: user, password: password, method: method)
    }

    /// Whether a progress bar is drawn: on a terminal, or forced; never with --quiet.
    private var showsProgress: Bool {
        !quiet && (progress || CommandIO.isTerminal(STDERR_FILENO))
    }

    /// Prints (or saves) a finished response, or throws its error.
    private func report(_ response: DataResponse) throws {
        let printer = ValuePrinter(colors: usesColors)
        printCacheOutcome(response.metrics)
        if var error = response.error {
            if error.code == .unacceptableContentType, case let head = response.response, !noCheckStatus,
                !(200..<300).contains(head.status.code)
            {
                error = SatchelError(
                    .unacceptableStatusCode, "status \(head.status.code) \(head.status.reasonPhrase) is not acceptable")
            } else if error.code == .unacceptableContentType, case let head = response.response, !response.body.isEmpty,
                error.response != nil
            {
                try printHeads(response, printer: printer)
                if !headers {
                    try printUndecoded(response.body, contentType: head.headerFields[.contentType], printer: printer)
                }
                return
            }
            if error.code == .unacceptableStatusCode {
                if !error.message.hasPrefix(response.url) { error.message = "\(response.url): " + error.message }
                if let summary = error.problemDetails?.summary { error.message += " (\(summary))" }
            }
            throw error
        }
        if let output {
            try CommandIO.writeAtomically(response.body, toFile: output)
            try printHeads(response, printer: printer)
            return
        }
        try printHeads(response, printer: printer)
        if headers { return }
        if raw {
            try CommandIO.write(response.body)
            return
        }
        if let problem = problemDetails(of: response) {
            try CommandIO.write(Array(printer.problemSummary(problem).utf8))
            return
        }
        try CommandIO.write(Array(printer.text(for: response.value).utf8))
    }

    /// A body no serializer reads (httpie's "binary data not shown"): as text when it is UTF-8
    /// without control characters, else a one-line note.
    private func printUndecoded(_ body: [UInt8], contentType: String?, printer: ValuePrinter) throws {
        if let text = String(validating: body, as: UTF8.self),
            !text.unicodeScalars.contains(where: { $0.value < 0x20 && $0 != "\n" && $0 != "\r" && $0 != "\t" })
        {
            try CommandIO.write(Array(printer.text(for: .string(text)).utf8))
        } else {
            let note =
                "[\(body.count) bytes of \(contentType ?? "no Content-Type"): no serializer decodes it; use --raw or --output]"
            try CommandIO.write(Array((printer.style(note, .dim) + "\n").utf8))
        }
    }

    /// The response's problem details, when it is `application/problem+json` with an object body.
    private func problemDetails(of response: DataResponse) -> ProblemDetails? {
        guard let value = response.value, let text = response.response.headerFields[.contentType],
            (try? MediaType(parsing: text))?.essence == "application/problem+json"
        else { return nil }
        return ProblemDetails(value)
    }

    /// Colours: asked for, or on when standard output is a terminal and NO_COLOR is unset.
    var usesColors: Bool {
        switch color {
        case .always: true
        case .never: false
        case .auto: CommandIO.isTerminal(STDOUT_FILENO) && getenv("NO_COLOR") == nil
        }
    }
}

/// Prints the session's warnings (a cookie jar it could not read or write) on standard error.
private struct WarningPrinter: EventMonitor {
    func sessionDidWarn(_ warning: SatchelError) {
        CommandIO.writeError(Array("satchel: warning: \(warning.message)\n".utf8))
    }
}
