// SPDX-License-Identifier: Apache-2.0
import Glibc
import HTTPTypes
import SerializerRegistry

extension Session {
    /// What the session's cache does for one hop of a request.
    struct CacheStep {
        /// The cache's key for the hop; `nil` when the cache stays out of it.
        var key: String?
        /// A stored response served without the network.
        var serving: (entry: CachedEntry, body: CachedBody)?
        /// An only-cache request with nothing stored: its synthesized `504` outcome.
        var missing: Transfer.Outcome?
        /// The entry a conditional request validates; its fields are on the request.
        var validating: (entry: CachedEntry, body: CachedBody)?
    }

    /// Decides how the cache answers or shapes the hop `options` describes. The cache takes part
    /// in `GET` requests without conditional or `Range` fields of their own, whatever consumes
    /// the response (collected, streamed, downloaded).
    func cacheStep(for options: inout Transfer.Options, policy: CachePolicy) -> CacheStep {
        guard let cache = configuration.cache, options.request.method == .get else { return CacheStep() }
        let fields = options.request.headerFields
        let conditional: [HTTPField.Name] = [.ifNoneMatch, .ifModifiedSince, .ifMatch, .ifUnmodifiedSince, .ifRange]
        guard !conditional.contains(where: { fields[$0] != nil }), fields[.range] == nil else { return CacheStep() }
        let key = HTTPCache.key(method: .get, url: options.url)
        var step = CacheStep(key: key)
        let requestControl = CacheControl(fields)
        let onlyCache = policy == .onlyCache || requestControl.onlyIfCached
        guard policy != .reload, let (entry, body) = cache.lookup(key, request: fields) else {
            if onlyCache { step.missing = Self.onlyCacheMiss(options.url) }
            return step
        }
        let servable =
            onlyCache || policy == .preferCache
            || (policy == .useProtocol && entry.isServable(for: requestControl, now: Int64(time(nil))))
        if servable {
            step.serving = (entry, body)
            return step
        }
        let validators = entry.validators
        guard !validators.isEmpty else { return step }
        options.request.headerFields.append(contentsOf: validators)
        step.validating = (entry, body)
        return step
    }

    /// Serves a stored response: feeds it to `sink` as a transfer would, waiting while the sink
    /// is paused (a streamed body's consumer behind), stopping when the request is cancelled.
    func serve(
        _ entry: CachedEntry, body: CachedBody, outcome: CacheOutcome, into sink: any ResponseSink,
        cancellation: TransferCancellation
    ) async -> Transfer.Outcome {
        let response = entry.response(age: entry.currentAge(now: Int64(time(nil))))
        var metrics = TransferMetrics()
        metrics.cache = outcome
        var served: Int64 = 0
        var failure: SatchelError?
        do throws(SatchelError) {
            try sink.begin(response)
            var chunks: [[UInt8]] = []
            var position: Int64 = 0
            while position < body.count {
                if let reason = cancellation.reason { throw reason }
                // Read ahead a little, then offer each chunk until the sink takes it.
                chunks.removeAll(keepingCapacity: true)
                guard
                    body.forEachChunk(
                        startingAt: position, size: 256 << 10,
                        { chunk in
                            chunks.append(chunk)
                            return chunks.count < 4
                        }) || !chunks.isEmpty
                else {
                    throw SatchelError(.io, "\(entry.key): the stored body could not be read")
                }
                for chunk in chunks {
                    while true {
                        if let reason = cancellation.reason { throw reason }
                        let taken = try chunk.withUnsafeBytes { bytes in
                            Result { () throws(SatchelError) in try sink.write(bytes) }
                        }.get()
                        if taken { break }
                        await cancellation.waitForResume()
                    }
                    position += Int64(chunk.count)
                    served = position
                }
            }
        } catch {
            failure = error
        }
        sink.finish(error: failure)
        metrics.bytesReceived = served
        return Transfer.Outcome(response: response, error: failure, metrics: metrics)
    }

    /// After the network answered a hop: a `304` to a conditional request becomes the stored
    /// response with its fields updated, served to `sink`; otherwise the outcome of `cacheSink`.
    /// An unsafe method's success invalidates what is stored for its URL (RFC 9111 §4.4).
    func settleCache(
        _ step: CacheStep, outcome: inout Transfer.Outcome, options: Transfer.Options, sink: any ResponseSink,
        cacheSink: CacheSink?, cancellation: TransferCancellation
    ) async {
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
            let notModified = outcome.response
        {
            let now = Int64(time(nil))
            let updated = entry.updated(by: notModified, requestTime: now, responseTime: now)
            cache.replace(updated, body: body)
            let network = outcome.metrics
            outcome = await serve(updated, body: body, outcome: .revalidated, into: sink, cancellation: cancellation)
            let received = outcome.metrics.bytesReceived
            outcome.metrics = network
            outcome.metrics.cache = .revalidated
            outcome.metrics.bytesReceived = received
            return
        }
        if step.key != nil { outcome.metrics.cache = cacheSink?.outcome }
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
