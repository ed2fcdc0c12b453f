// SPDX-License-Identifier: Apache-2.0
import HTTPTypes
import SerializerRegistry

/// Hands a final response's head and body chunks to a ``ChunkChannel``; other responses
/// (redirects, retried statuses) are read and dropped.
final class StreamSink: ResponseSink {
    private let channel: ChunkChannel
    private let isFinal: (HTTPResponse) -> Bool
    private var forwards = false

    init(channel: ChunkChannel, isFinal: @escaping (HTTPResponse) -> Bool) {
        self.channel = channel
        self.isFinal = isFinal
    }

    func begin(_ response: HTTPResponse) throws(SatchelError) {
        forwards = isFinal(response)
        if forwards { channel.deliver(head: response) }
    }

    func write(_ bytes: UnsafeRawBufferPointer) throws(SatchelError) -> Bool {
        forwards ? channel.offer(bytes) : true
    }

    func finish(error: SatchelError?) {}

    /// The head went to the channel's consumer, who may have read body chunks already.
    var hasHandedOn: Bool { forwards }
}
