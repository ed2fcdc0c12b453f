// SPDX-License-Identifier: Apache-2.0
import CSatchel
import HTTPTypes
import SerializerRegistry
import Transport

/// The session's C event callback as an ``EventMonitor``: each event becomes a `satchel_event`
/// whose strings live for the call.
struct EventCallbackMonitor: EventMonitor, @unchecked Sendable {
    // Safe to send: the header makes the caller keep `userdata` valid, and the callback callable
    // from library threads, until the session is freed or the callback replaced.
    let function: satchel_event_callback
    let userdata: UnsafeMutableRawPointer?

    func requestDidStart(_ request: HTTPRequest, url: String) {
        report(.init(SATCHEL_EVENT_START, request, url))
    }

    func requestWillRedirect(_ request: HTTPRequest, from url: String, to location: String, status: Int) {
        var event = Event(SATCHEL_EVENT_REDIRECT, request, url)
        event.location = CBuffer(location)
        event.status = status
        report(event)
    }

    func requestWillRetry(_ request: HTTPRequest, url: String, retry: Int, delay: Duration, reason: SatchelError) {
        var event = Event(SATCHEL_EVENT_RETRY, request, url)
        event.retry = retry
        event.delay = delay
        event.error = reason
        report(event)
    }

    func requestDidFinishCollecting(_ metrics: TransferMetrics, request: HTTPRequest, url: String) {
        var event = Event(SATCHEL_EVENT_METRICS, request, url)
        event.metrics = metrics
        report(event)
    }

    func requestDidComplete(_ request: HTTPRequest, url: String, response: HTTPResponse?, error: SatchelError?) {
        var event = Event(SATCHEL_EVENT_COMPLETE, request, url)
        event.status = response?.status.code ?? 0
        event.error = error
        report(event)
    }

    func sessionDidWarn(_ warning: SatchelError) {
        var event = Event(SATCHEL_EVENT_WARNING, nil, nil)
        event.error = warning
        report(event)
    }

    /// An event in Swift's terms, before its C form.
    struct Event {
        var kind: satchel_event_kind
        var method: CBuffer?
        var url: CBuffer?
        var location: CBuffer?
        var status = 0
        var retry = 0
        var delay = Duration.zero
        var error: SatchelError?
        var metrics: TransferMetrics?

        init(_ kind: satchel_event_kind, _ request: HTTPRequest?, _ url: String?) {
            self.kind = kind
            method = request.map { CBuffer($0.method.rawValue) }
            self.url = url.map { CBuffer($0) }
        }
    }

    private func report(_ event: Event) {
        let message = event.error.map { CBuffer($0.cDescription) }
        let httpVersion = CBuffer(event.metrics?.httpVersion ?? "")
        var metrics = satchel_metrics()
        metrics.struct_size = UInt32(MemoryLayout<satchel_metrics>.size)
        metrics.abi_version = UInt32(SATCHEL_ABI_VERSION)
        if let collected = event.metrics { metrics.fill(from: collected, httpVersion: httpVersion) }
        withExtendedLifetime((event, message, httpVersion)) {
            withUnsafePointer(to: &metrics) { metricsPointer in
                var cEvent = satchel_event()
                cEvent.struct_size = UInt32(MemoryLayout<satchel_event>.size)
                cEvent.abi_version = UInt32(SATCHEL_ABI_VERSION)
                cEvent.kind = event.kind
                cEvent.method = event.method?.cString
                cEvent.url = event.url?.cString
                cEvent.location = event.location?.cString
                cEvent.status = Int32(clamping: event.status)
                cEvent.retry = UInt32(clamping: event.retry)
                cEvent.delay_ms = UInt64(max(0, event.delay.milliseconds.rounded()))
                cEvent.error = event.error.map { satchel_status($0.code) } ?? SATCHEL_OK
                cEvent.message = message?.cString
                cEvent.metrics = event.metrics == nil ? nil : metricsPointer
                function(userdata, &cEvent)
            }
        }
    }
}
