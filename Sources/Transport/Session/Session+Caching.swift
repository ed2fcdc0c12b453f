import Glibc
import HTTPTypes
import SerializerRegistry

extension Session {
    /// What the session's cache does for one hop of a request.
    struct CacheStep {
        /// The cache's key for the hop; `nil` when the cache stays out of it.
        var key: String?
        /// The outcome of a hop answered without the network (a hit, or an only-cache miss).
        var answered: Transfer.Outcome?
        /// The entry a conditional request validates; its fields are on the request.
        var validating: (entry: CachedEntry, body: [UInt8])?
    }

    /// Decides how the cache answers or shapes the hop `options` describes, feeding `sink` at
    /// once when a stored response is served.
    ///
    /// The cache takes part in `GET` requests without conditional fields of their own. A stored
    /// response is served only into a response collected in memory (`send`, `get`,
    /// `response(for:)`…); streamed responses and downloads are stored, never served from it.
    func cacheStep(
        for options: inout Transfer.Options, policy: CachePolicy, sink: any ResponseSink
    ) -> CacheStep {
        guard let cache = configuration.cache, options.request.method == .get else { return CacheStep() }
        let fields = options.request.headerFields
        let conditional: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]
        guard !conditional.contains(where: { fields[$0] != nil }), fields[.range] == nil else { return CacheStep() }
        let key = HTTPCache.key(method: .get, url: options.url)
        var step = CacheStep(key: key)
        let requestControl = CacheControl(fields)
        let onlyCache = policy == .onlyCache || requestControl.onlyIfCached
        guard policy != .reload, let memory = sink as? MemorySink else {
            if onlyCache { step.answered = Self.onlyCacheMiss(options.url) }
            return step
        }
        guard let (entry, body) = cache.lookup(key, request: fields) else {
            if onlyCache { step.answered = Self.onlyCacheMiss(options.url) }
            return step
        }
        let now = Int64(time(nil))
        let servable =
            onlyCache || policy == .preferCache
            || (policy == .useProtocol && entry.isServable(for: requestControl, now: now))
        if servable {
            let response = entry.response(age: entry.currentAge(now: now))
            var metrics = TransferMetrics()
            metrics.cache = .hit
            metrics.bytesReceived = Int64(body.count)
            step.answered = Transfer.Outcome(
                response: response, error: Self.feed(memory, response, body), metrics: metrics)
            return step
        }
        let validators = entry.validators
        guard !validators.isEmpty else { return step }
        options.request.headerFields.append(contentsOf: validators)
        step.validating = (entry, body)
        return step
    }

    /// After the network answered a hop: a `304` to a conditional request becomes the stored
    /// response with its fields updated, fed to `sink`; otherwise the outcome of `cacheSink`.
    /// An unsafe method's success invalidates what is stored for its URL (RFC 9111 §4.4).
    func settleCache(
        _ step: CacheStep, outcome: inout Transfer.Outcome, options: Transfer.Options, sink: any ResponseSink,
        cacheSink: CacheSink?
    ) {
        guard let cache = configuration.cache else { return }
        let safeMethods: Set<HTTPRequest.Method> = [.get, .head, .options, .trace]
        if let response = outcome.response, !safeMethods.contains(options.request.method),
            (200..<400).contains(response.status.code)
        {
            cache.remove(HTTPCache.key(method: .get, url: options.url))
            let origin = try? ResolvedURL(options.url, relativeTo: nil).origin
            for name in [HTTPField.Name.location, .contentLocation] {
                if let target = response.headerFields[name],
                    let resolved = try? ResolvedURL(target, relativeTo: options.url), resolved.origin == origin
                {
                    let url = resolved.scheme + "://" + resolved.authority + resolved.pathAndQuery
                    cache.remove(HTTPCache.key(method: .get, url: url))
                }
            }
            return
        }
        if let (entry, body) = step.validating, outcome.error == nil, outcome.response?.status.code == 304,
            let notModified = outcome.response, let memory = sink as? MemorySink
        {
            let now = Int64(time(nil))
            let updated = entry.updated(by: notModified, requestTime: now, responseTime: now)
            cache.replace(updated, body: body)
            let response = updated.response(age: updated.currentAge(now: now))
            outcome.response = response
            outcome.error = Self.feed(memory, response, body)
            outcome.metrics.cache = .revalidated
            return
        }
        if step.key != nil { outcome.metrics.cache = cacheSink?.outcome }
    }

    /// Feeds a stored response to `sink` as a transfer would.
    private static func feed(_ sink: MemorySink, _ response: HTTPResponse, _ body: [UInt8]) -> SatchelError? {
        do throws(SatchelError) {
            try sink.begin(response)
            _ = try body.withUnsafeBytes { bytes in Result { () throws(SatchelError) in try sink.write(bytes) } }.get()
            sink.finish(error: nil)
            return nil
        } catch {
            sink.finish(error: error)
            return error
        }
    }

    /// The answer to an only-cache request with nothing stored: a synthesized
    /// `504 Gateway Timeout` (RFC 9111 §5.2.1.7) and an error that says why.
    private static func onlyCacheMiss(_ url: String) -> Transfer.Outcome {
        var metrics = TransferMetrics()
        metrics.cache = .miss
        return Transfer.Outcome(
            response: HTTPResponse(status: .gatewayTimeout),
            error: SatchelError(
                .unacceptableStatusCode,
                "\(url): nothing is stored for it and the cache policy is only-cache (only-if-cached): 504"),
            metrics: metrics)
    }
}
