// SPDX-License-Identifier: Apache-2.0
import Satchel

extension Request {
    /// `--download`: a GET saved to `--output` (or the URL's last path segment) through
    /// `Session.download`, which resumes a partial file left by an interrupted run.
    func runDownload(
        _ plan: RequestPlan, session: Session, progress: (@Sendable (TransferProgress) -> Void)?, bar: ProgressBar?
    ) async throws {
        let destination = try output ?? Self.filename(from: plan.url)
        let printer = ValuePrinter(colors: usesColors)
        var request = SessionRequest(.get, plan.url, headers: plan.headers)
        request.progress = progress
        request.cachePolicy = transfer.cachePolicy ?? .useProtocol
        let outcome = await session.downloadResponse(for: request, to: destination, resume: true)
        bar?.finish()
        let result = try outcome.get()
        printCacheOutcome(result.metrics)
        if let error = result.error { throw error }
        try printHeads(
            request: result.request, response: result.response, version: result.metrics.httpVersion, printer: printer)
        if !quiet {
            let resumed = result.resumedFrom > 0 ? " (resumed at \(ProgressBar.bytes(result.resumedFrom)))" : ""
            CommandIO.writeError(Array("Saved \(result.fileSize) bytes to \(destination)\(resumed)\n".utf8))
        }
    }

    /// The last path segment of `url`, without query or fragment.
    /// - Throws: ``UsageError`` when the URL's path has no file name.
    static func filename(from url: String) throws -> String {
        let withoutQuery = url.prefix { $0 != "?" && $0 != "#" }
        let path = withoutQuery.split(separator: "/", omittingEmptySubsequences: false).dropFirst(3)
        guard let last = path.last, !last.isEmpty, last != ".", last != ".." else {
            throw UsageError("\(url) names no file: give --output FILE")
        }
        return String(last)
    }
}
