// SPDX-License-Identifier: Apache-2.0
import CSatchel
import SerializerRegistry

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

// A whole value in one call: `satchel_value_visit` (include/satchel.h, "Walking a value").

@c @implementation
public func satchel_value_visit(
    _ value: OpaquePointer?, _ visitor: UnsafePointer<satchel_visitor>?, _ userdata: UnsafeMutableRawPointer?
) -> satchel_status {
    guarded {
        let handle = try ValueHandle.from(value)
        let callbacks = try Arguments.versioned(visitor, "visitor")
        try ValueVisit(callbacks: callbacks, userdata: userdata).walk(handle.value)
    }
}

/// Walks a value depth first and calls the visitor's callback for each node, with no handle per
/// node: the one-call read that the Python extension and other bindings build their own values
/// with. The walk keeps its own stack, so a value of any depth is walked on any thread's stack.
struct ValueVisit {
    let callbacks: satchel_visitor
    let userdata: UnsafeMutableRawPointer?

    /// An open container: its remaining elements or members.
    private enum Frame {
        case array([Value], next: Int)
        case object(ValueObject, next: Int)
    }

    /// What a stopped walk throws: the status the header promises.
    static var stopped: SatchelError { SatchelError(.cancelled, "the visitor stopped the walk") }

    func walk(_ root: Value) throws(SatchelError) {
        var stack: [Frame] = []
        var next: Value? = root
        while true {
            if let value = next {
                next = nil
                if let frame = try visit(value) { stack.append(frame) }
            }
            guard let top = stack.popLast() else { return }
            switch top {
            case .array(let elements, let index):
                if index < elements.count {
                    stack.append(.array(elements, next: index + 1))
                    next = elements[index]
                } else {
                    try call(callbacks.end_array) { $0(userdata) }
                }
            case .object(let members, let index):
                if index < members.count {
                    stack.append(.object(members, next: index + 1))
                    try text(members.keys[index], callbacks.key)
                    next = members.values[index]
                } else {
                    try call(callbacks.end_object) { $0(userdata) }
                }
            }
        }
    }

    /// Reports `value`; a container is opened and returned as the frame to walk.
    private func visit(_ value: Value) throws(SatchelError) -> Frame? {
        switch value {
        case .null: try call(callbacks.null_value) { $0(userdata) }
        case .bool(let flag): try call(callbacks.boolean) { $0(userdata, flag ? 1 : 0) }
        case .integer(let number): try call(callbacks.int64) { $0(userdata, number) }
        case .unsignedInteger(let number): try call(callbacks.uint64) { $0(userdata, number) }
        case .double(let number): try call(callbacks.real) { $0(userdata, number) }
        case .string(let string): try text(string, callbacks.string)
        case .bytes(let bytes):
            try bytes.withUnsafeBufferPointer { (bytes) throws(SatchelError) in
                try call(callbacks.bytes) { $0(userdata, bytes.baseAddress ?? Self.emptyBytes, bytes.count) }
            }
        case .date(let date): try call(callbacks.date) { $0(userdata, date.timeIntervalSince1970) }
        case .array(let elements):
            try call(callbacks.begin_array) { $0(userdata, elements.count) }
            return .array(elements, next: 0)
        case .object(let members):
            try call(callbacks.begin_object) { $0(userdata, members.count) }
            return .object(members, next: 0)
        case .payload:
            // A borrowed handle that lives for the call only, as the header says.
            let handle = ValueHandle(value, ownedByParent: true)
            try withExtendedLifetime(handle) { () throws(SatchelError) in
                try call(callbacks.other) { $0(userdata, handle.borrowedPointer) }
            }
        }
        return nil
    }

    /// What an empty string or byte run points at: never NULL.
    private static var emptyBytes: UnsafePointer<UInt8> {
        UnsafeRawPointer(StaticCString.empty).assumingMemoryBound(to: UInt8.self)
    }

    /// Calls a text callback with `string`'s UTF-8 bytes, without a copy for a native string.
    private func text(
        _ string: String, _ callback: (@convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, Int) -> Int32)?
    ) throws(SatchelError) {
        guard let callback else { return }
        var string = string
        let status = string.withUTF8 { utf8 in
            utf8.withMemoryRebound(to: CChar.self) {
                callback(userdata, $0.baseAddress ?? StaticCString.empty, $0.count)
            }
        }
        if status != 0 { throw Self.stopped }
    }

    /// Calls `callback` through `invoke` when the visitor set it; a non-zero result stops the walk.
    @inline(__always)
    private func call<Callback>(_ callback: Callback?, _ invoke: (Callback) -> Int32) throws(SatchelError) {
        guard let callback else { return }
        if invoke(callback) != 0 { throw Self.stopped }
    }
}
