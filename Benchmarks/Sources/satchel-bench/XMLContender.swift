// SPDX-License-Identifier: Apache-2.0
import Foundation
import Satchel

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// One contender of the XML benchmarks, named so that `satchel-bench --contender NAME` can run
/// it alone in a fresh process (see ``IsolatedContender``).
enum XMLContender: String, CaseIterable, Sendable {
    /// `XMLDocumentPayload(parsing:)`.
    case satchelDocument = "xml-satchel-document"
    /// `xmlReadMemory`, then `xmlFreeDoc`.
    case libxml2Document = "xml-libxml2-document"
    /// Foundation's `XMLDocument(data:)`.
    case foundationDocument = "xml-foundation-document"
    /// `XMLEventReader`, one chunk.
    case satchelEvents = "xml-satchel-events"
    /// `XMLEventReader(viewHandler:)`, one chunk: counts elements and text bytes, as the
    /// Foundation delegate does.
    case satchelEventViews = "xml-satchel-event-views"
    /// Foundation's `XMLParser` with a counting delegate.
    case foundationEvents = "xml-foundation-events"
    /// libxml2's SAX push parser with empty callbacks.
    case libxml2SAX = "xml-libxml2-sax"

    /// The work to time on the file at `path`, read into memory first.
    func work(input path: String) throws -> Sampler.Work {
        work(on: try Corpus.File(reading: path))
    }

    /// The work to time on `file`.
    func work(on file: Corpus.File) -> Sampler.Work {
        let bytes = file.bytes
        let data = file.data
        switch self {
        case .satchelDocument: return { try XMLDocumentPayload(parsing: bytes) }
        case .libxml2Document: return { XMLBenchmarks.readMemory(bytes, elements: nil) }
        case .foundationDocument: return { try XMLDocument(data: data) }
        case .satchelEvents: return { try XMLBenchmarks.satchelEvents(bytes) }
        case .satchelEventViews: return { try XMLBenchmarks.satchelEventViews(bytes).elements }
        case .foundationEvents: return { try XMLBenchmarks.foundationEvents(data) }
        case .libxml2SAX: return { XMLBenchmarks.saxPush(bytes).elements }
        }
    }
}
