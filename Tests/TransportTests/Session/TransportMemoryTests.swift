// SPDX-License-Identifier: Apache-2.0
import Foundation
import SatchelTestSupport
import SerializerRegistry
import Serializers
import Testing

@testable import Transport

/// 1 GiB up and 1 GiB down in constant memory. Peak RSS is a property of a whole process, so
/// these run alone in their own test process (`scripts/measure-transport-memory`, called by
/// `scripts/test`), enabled by `SATCHEL_MEMORY_PROBE=1`.
@Suite(
    .serialized, .hangGuard,
    .enabled(if: ProcessInfo.processInfo.environment["SATCHEL_MEMORY_PROBE"] == "1"))
struct TransportMemoryTests {
    static let gibibyte: Int64 = 1 << 30
    static let budget = 16 << 20

    @Test func aOneGibibyteMultipartUploadRunsInConstantMemory() async throws {
        let servers = try TestServers.shared()
        let session = try SessionSupport.session(servers.fast)
        let path = SessionSupport.temporaryPath("gibibyte.bin")
        #expect(FileManager.default.createFile(atPath: path, contents: nil))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.truncate(atOffset: UInt64(Self.gibibyte))  // sparse: reads as zeros, costs no disk
        try handle.close()
        var form = MultipartFormData()
        form.append("probe", name: "kind")
        try form.append(fileAt: path, name: "data")
        let expected = try form.makeBodyStream().length
        _ = try await session.result(for: SessionRequest(.get, "retry-count")).get()  // warm up
        try ProcessMemory.resetPeak()
        let before = try ProcessMemory.peakResident
        let response = try await session.upload(.multipart(form), to: "discard")
        let peak = try ProcessMemory.peakResident
        print(
            "transport-memory upload: \(expected ?? -1) bytes, peak RSS \(peak >> 20) MiB (\(before >> 20) MiB before)")
        #expect(response.value?["bytes"]?.int64Value == expected)
        #expect(peak - before < Self.budget)
    }

    @Test func aOneGibibyteDownloadToAFileRunsInConstantMemory() async throws {
        let servers = try TestServers.shared()
        let session = try SessionSupport.session(servers.fast)
        let destination = SessionSupport.temporaryPath("gibibyte.download")
        defer { try? FileManager.default.removeItem(atPath: destination) }
        _ = try await session.result(for: SessionRequest(.get, "retry-count")).get()
        try ProcessMemory.resetPeak()
        let before = try ProcessMemory.peakResident
        let result = try await session.download("large/\(Self.gibibyte)", to: destination)
        let peak = try ProcessMemory.peakResident
        print(
            "transport-memory download: \(result.fileSize) bytes, peak RSS \(peak >> 20) MiB (\(before >> 20) MiB before)"
        )
        #expect(result.fileSize == Self.gibibyte)
        let attributes = try FileManager.default.attributesOfItem(atPath: destination)
        #expect((attributes[.size] as? NSNumber)?.int64Value == Self.gibibyte)
        #expect(peak - before < Self.budget)
    }
}
