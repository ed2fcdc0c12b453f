// SPDX-License-Identifier: Apache-2.0
// A Swift program with its own Swift runtime that loads the installed libsatchel.so.0 (which
// carries another, static and hidden) and uses both at once: Tests/CAPITests/SelfContainedLibraryTests.swift.
//
//   runtime_neighbour LIBSATCHEL_PATH
//
// Prints "ok" and exits 0 when every call answered as the header says.
import Dispatch
import Glibc

typealias Version = @convention(c) () -> UnsafePointer<CChar>
typealias RegistryCreate = @convention(c) (UnsafeMutablePointer<OpaquePointer?>) -> Int32
typealias RegistryFree = @convention(c) (OpaquePointer?) -> Void
typealias Decode =
    @convention(c) (
        UnsafeMutablePointer<OpaquePointer?>, OpaquePointer?, UnsafePointer<CChar>, Int, UnsafeRawPointer, Int
    ) -> Int32
typealias ToJSON =
    @convention(c) (
        UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>, UnsafeMutablePointer<Int>, OpaquePointer?, UInt32
    ) -> Int32
typealias ValueFree = @convention(c) (OpaquePointer?) -> Void
typealias Free = @convention(c) (UnsafeMutableRawPointer?) -> Void

func fail(_ message: String) -> Never {
    print("FAILED: \(message)")
    exit(1)
}

guard CommandLine.arguments.count == 2, let library = dlopen(CommandLine.arguments[1], RTLD_NOW | RTLD_LOCAL) else {
    fail("dlopen: \(String(cString: dlerror()))")
}
func symbol<T>(_ name: String, as type: T.Type) -> T {
    guard let address = dlsym(library, name) else { fail("no \(name)") }
    return unsafeBitCast(address, to: type)
}
let version = symbol("satchel_version", as: Version.self)
let create = symbol("satchel_registry_create", as: RegistryCreate.self)
let registryFree = symbol("satchel_registry_free", as: RegistryFree.self)
let decode = symbol("satchel_registry_decode", as: Decode.self)
let toJSON = symbol("satchel_value_to_json", as: ToJSON.self)
let valueFree = symbol("satchel_value_free", as: ValueFree.self)
let free = symbol("satchel_free", as: Free.self)

guard String(cString: version()).hasPrefix("0.") else { fail("version \(String(cString: version()))") }
var registry: OpaquePointer?
guard create(&registry) == 0 else { fail("satchel_registry_create") }

/// Decodes `body` as `type` through libsatchel and returns its canonical JSON.
func roundTrip(_ body: String, _ type: String) -> String {
    var value: OpaquePointer?
    let status = Array(body.utf8).withUnsafeBytes { bytes in
        decode(&value, registry, type, type.utf8.count, bytes.baseAddress!, bytes.count)
    }
    guard status == 0 else { fail("decode of \(body) as \(type): \(status)") }
    var json: UnsafeMutablePointer<CChar>?
    var length = 0
    guard toJSON(&json, &length, value, 0) == 0, let json else { fail("to_json") }
    defer {
        free(json)
        valueFree(value)
    }
    return String(cString: json)
}

// Both runtimes busy at once: this program's Dispatch threads and libsatchel's own.
let expected = #"{"a":[1,18446744073709551615,"é"]}"#
let failures = UnsafeMutablePointer<Int32>.allocate(capacity: 1)
failures.initialize(to: 0)
DispatchQueue.concurrentPerform(iterations: 64) { index in
    let text = roundTrip(#"{"a":[1,18446744073709551615,"\u00e9"]}"#, "application/json")
    let form = roundTrip("n=\(index)&s=caf%C3%A9", "application/x-www-form-urlencoded")
    if text != expected || form != #"{"n":"\#(index)","s":"café"}"# { failures.pointee = 1 }
}
guard failures.pointee == 0 else { fail("a decode on a Dispatch thread gave another result") }
registryFree(registry)
print("ok")
