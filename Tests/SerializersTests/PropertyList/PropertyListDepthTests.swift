// SPDX-License-Identifier: Apache-2.0
import Foundation
import SerializerRegistry
import Serializers
import Testing

/// The readers and writers recurse once per container: the default `Limits.maxDepth` (512) must
/// fit a small thread stack (512 KiB in release builds, as for JSON; unoptimised frames are
/// larger), and one level more must be a limit error, never a stack overflow.
@Suite struct PropertyListDepthTests {
    #if DEBUG
        static let stackSize = 2 * 1024 * 1024
    #else
        static let stackSize = 512 * 1024
    #endif

    static func nested(_ depth: Int) -> Value {
        (0..<depth - 1).reduce(Value.array(["leaf"])) { inner, level in level % 2 == 0 ? ["k": inner] : [inner] }
    }

    @Test(
        .disabled(
            if: AdversarialJSONTests.isSanitized,
            "sanitized debug frames are far larger than the release frames this stack budget is for"),
        arguments: PropertyListFormat.allCases)
    func theDefaultMaximumDepthFitsASmallThreadStack(format: PropertyListFormat) {
        let depth = Limits.default.maxDepth
        AdversarialJSONTests.onThread(stackSize: Self.stackSize) {
            do {
                let value = Self.nested(depth)
                let bytes = try PropertyListWriter(format: format, maxDepth: depth).write(value)
                #expect(try readPlist(bytes) == value)
                let error = satchelError { try PropertyListWriter(format: format).write(Self.nested(depth + 1)) }
                #expect(error?.limit == "maxDepth")
                let deeper = try PropertyListWriter(format: format, maxDepth: depth + 1).write(Self.nested(depth + 1))
                let readError = satchelError { try readPlist(deeper) }
                #expect(readError?.limit == "maxDepth")
                #expect(readError?.keyPath?.hasPrefix("$[0].k[0].k[0]") == true, "\(readError?.keyPath ?? "")")
            } catch {
                Issue.record("\(error)")
            }
        }
    }
}
