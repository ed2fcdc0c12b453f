// SPDX-License-Identifier: Apache-2.0
import Satchel

extension Request {
    /// `--stream`: prints the records of a streaming response (Server-Sent Events, JSON Lines,
    /// JSON text sequences, multipart parts) one compact JSON per line, each as it arrives.
    func runStream(_ request: SessionRequest, session: Session) async throws {
        try await print(try await session.records(for: request))
    }

    /// `--each PATH`: prints the elements at `path` of a large JSON or XML response as
    /// `--stream` prints records.
    func runElements(at path: String, _ request: SessionRequest, session: Session) async throws {
        let namespaces = try CommandIO.namespaces(self.namespaces)
        try await print(try await session.records(for: request, each: path, namespaces: namespaces))
    }

    /// Prints the response head (with `-v`), then each record as it arrives.
    private func print(_ records: RecordStream<Value>) async throws {
        try printHeads(request: nil, response: records.response, version: "", printer: ValuePrinter(colors: usesColors))
        if headers { return records.cancel() }
        for try await record in records {
            try CommandIO.write(Array((record.canonicalJSON() + "\n").utf8))
        }
    }

    /// `--sse`: follows an event stream as a browser's `EventSource` does — reconnecting after
    /// the stream ends or drops, with `Last-Event-ID` — and prints each event as `--stream` does,
    /// until the server answers 204 or the command is interrupted.
    func runEventSource(_ request: SessionRequest, session: Session) async throws {
        let source = EventSource(session: session, request: request)
        for try await event in source {
            try CommandIO.write(Array((event.value.canonicalJSON() + "\n").utf8))
        }
    }
}
