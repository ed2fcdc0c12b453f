// SPDX-License-Identifier: Apache-2.0
import Foundation

/// `Corpus/multipart/manifest.json`: what `scripts/corpus multipart` wrote into each
/// body, for the parse guards.
struct MultipartManifest: Decodable {
    /// One body.
    struct Body: Decodable {
        /// One part.
        struct Part: Decodable {
            /// The `name` of its Content-Disposition.
            let name: String
            /// How many header fields it has.
            let headers: Int
            /// Its body's size.
            let bytes: Int
        }

        /// The boundary.
        let boundary: String
        /// The body's size.
        let bytes: Int
        /// The parts, in order.
        let parts: [Part]
    }

    /// The bodies by file name.
    let bodies: [String: Body]

    /// Reads the manifest at `path`.
    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw BenchmarkFailure.corpus("cannot read \(path) (run scripts/corpus multipart first)")
        }
        bodies = try JSONDecoder().decode([String: Body].self, from: data)
    }
}
