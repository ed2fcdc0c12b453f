// SPDX-License-Identifier: Apache-2.0
import ArgumentParser
import Satchel
import SatchelServer

/// `satchel demo`: starts `satchel serve` in-process (plain and TLS) on free ports and walks
/// through the framework against it, printing what each step sent and got.
struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Tour Satchel against an embedded server: every serializer, uploads, batches, resumes, TLS pinning.",
        discussion: """
            Starts 'satchel serve' in this process on free ports of 127.0.0.1 (one plain, one with \
            a throwaway TLS certificate authority) and runs each step: a form and a JSON body \
            echoed back, property lists in both formats, XML with XPath, PNG and JPEG decoding, a \
            streamed multipart upload of a generated file with a progress bar, a batch response \
            decoded part by part, a download cut halfway and resumed with Range, and a request \
            pinned to the server's public key (plus the failures a wrong pin and an untrusted \
            certificate give). Needs no network. Exits 0 only if every step worked, else 1.
            """
    )

    @Flag(help: "Show progress bars even when standard error is not a terminal.")
    var progress = false

    @Option(help: ArgumentHelp("Bytes in the generated upload.", valueName: "bytes"))
    var uploadSize = 32 << 20

    func validate() throws {
        guard (1...(1 << 32)).contains(uploadSize) else {
            throw ValidationError("--upload-size must be between 1 and 4294967296")
        }
    }

    func run() async throws {
        let terminal = CommandIO.isTerminal(STDOUT_FILENO)
        let reporter = DemoReporter(printer: ValuePrinter(colors: terminal), colors: terminal)
        let plain: FixtureServer
        let secure: FixtureServer
        do {
            plain = try await FixtureServer.start(FixtureServerConfiguration())
            secure = try await FixtureServer.start(FixtureServerConfiguration(tls: true))
        } catch {
            throw CommandIO.fail(SatchelError(.io, "cannot start the embedded server: \(error)"))
        }
        reporter.line(
            "Satchel \(DefaultHeaders.satchelVersion) demo against satchel serve at \(plain.baseURL) and \(secure.baseURL)"
        )
        let steps = DemoSteps(
            server: plain, secureServer: secure, reporter: reporter, uploadSize: uploadSize,
            showsProgress: progress || CommandIO.isTerminal(STDERR_FILENO))
        let passed = await steps.runAll()
        await plain.stop()
        await secure.stop()
        reporter.summary(passed: passed, of: DemoSteps.count)
        if passed < DemoSteps.count { throw ExitCode(1) }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif
