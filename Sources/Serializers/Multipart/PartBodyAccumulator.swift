// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry

/// Collects a part's body: in memory up to a threshold, then in a temporary file.
struct PartBodyAccumulator {
    let threshold: Int
    let directory: String?
    private var memory: [UInt8] = []
    private var file: TemporaryFileWriter?

    init(threshold: Int, directory: String?) {
        self.threshold = threshold
        self.directory = directory
    }

    /// Appends body bytes, moving the body to a file once it outgrows the threshold.
    mutating func append(_ bytes: UnsafePointer<UInt8>, count: Int) throws(SatchelError) {
        guard count > 0 else { return }
        if let file {
            try file.write(bytes, count: count)
        } else if count <= threshold - memory.count {
            memory.append(contentsOf: UnsafeBufferPointer(start: bytes, count: count))
        } else {
            let file = try TemporaryFileWriter(directory: directory)
            try memory.withUnsafeBufferPointer { (held) throws(SatchelError) in
                if let start = held.baseAddress { try file.write(start, count: held.count) }
            }
            memory = []
            try file.write(bytes, count: count)
            self.file = file
        }
    }

    /// The body, in memory or in a sealed file.
    mutating func finish() throws(SatchelError) -> MultipartReader.Part.Body {
        if let file {
            self.file = nil
            return .file(try file.seal())
        }
        defer { memory = [] }
        return .bytes(memory)
    }
}
