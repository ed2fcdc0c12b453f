// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry
import Serializers

// Decoding straight into a visitor: `satchel_registry_visit` (include/satchel.h, "Walking a value").

@c @implementation
public func satchel_registry_visit(
    _ registry: OpaquePointer?, _ contentType: UnsafePointer<CChar>?, _ contentTypeLength: Int,
    _ body: UnsafeRawPointer?, _ length: Int, _ visitor: UnsafePointer<satchel_visitor>?,
    _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        let handle = try RegistryHandle.from(registry)
        let callbacks = try Arguments.versioned(visitor, "visitor")
        let mediaType = try Arguments.optionalMediaType(contentType, contentTypeLength, "content_type")
        let bytes = try Arguments.bytes(body, length, "body")
        let limits = handle.registry.limits
        try limits.checkBody(count: bytes.count)
        // The member satchel_registry_decode would pick; JSON is walked from its index, with no
        // value built, and every other format is decoded, then walked.
        guard
            let (serializer, type) = try handle.registry.dispatchingSerializer.member(
                declared: mediaType, sample: Array(bytes.prefix(Registry.sniffLength)))
        else { return }
        var value: Value?
        if let json = serializer as? JSONResponseSerializer {
            let receiver = JSONVisitor(callbacks: callbacks, userdata: userdata)
            switch try json.walk(buffer: bytes, contentType: type, limits: limits, into: receiver) {
            case .walked, .blank: return
            case .stopped: throw ValueVisit.stopped
            case .value(let tree): value = tree
            }
        } else {
            value = try serializer.decode(buffer: bytes, contentType: type, limits: limits)
        }
        if let value { try ValueVisit(callbacks: callbacks, userdata: userdata).walk(value) }
    }
}

/// A C visitor as the receiver of a JSON walk: each value goes to its callback (a NULL callback
/// skips that kind), and a non-zero result stops the walk.
final class JSONVisitor: JSONValueReceiver {
    let callbacks: satchel_visitor
    let userdata: UnsafeMutableRawPointer?

    init(callbacks: satchel_visitor, userdata: UnsafeMutableRawPointer?) {
        self.callbacks = callbacks
        self.userdata = userdata
    }

    func null() -> Bool { callbacks.null_value.map { $0(userdata) == 0 } ?? true }
    func bool(_ value: Bool) -> Bool { callbacks.boolean.map { $0(userdata, value ? 1 : 0) == 0 } ?? true }
    func integer(_ value: Int64) -> Bool { callbacks.int64.map { $0(userdata, value) == 0 } ?? true }
    func unsignedInteger(_ value: UInt64) -> Bool { callbacks.uint64.map { $0(userdata, value) == 0 } ?? true }
    func double(_ value: Double) -> Bool { callbacks.real.map { $0(userdata, value) == 0 } ?? true }
    func string(_ text: UnsafeBufferPointer<UInt8>) -> Bool { Self.deliver(text, callbacks.string, userdata) }
    func beginArray(count: Int) -> Bool { callbacks.begin_array.map { $0(userdata, count) == 0 } ?? true }
    func endArray() -> Bool { callbacks.end_array.map { $0(userdata) == 0 } ?? true }
    func beginObject(count: Int) -> Bool { callbacks.begin_object.map { $0(userdata, count) == 0 } ?? true }
    func name(_ text: UnsafeBufferPointer<UInt8>) -> Bool { Self.deliver(text, callbacks.key, userdata) }
    func endObject() -> Bool { callbacks.end_object.map { $0(userdata) == 0 } ?? true }

    /// Calls a text callback with `text`, which is never NULL (an empty string points at "").
    @inline(__always)
    private static func deliver(
        _ text: UnsafeBufferPointer<UInt8>,
        _ callback: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int32)?,
        _ userdata: UnsafeMutableRawPointer?
    ) -> Bool {
        guard let callback else { return true }
        let start = text.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        return callback(userdata, start ?? StaticCString.empty, text.count) == 0
    }
}
