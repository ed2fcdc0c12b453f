// SPDX-License-Identifier: Apache-2.0
import SerializerRegistry
import Synchronization

/// Turns two threads in one handle at once, which the header forbids for multipart builders and
/// readers, into `SATCHEL_E_MISUSE` for the second, instead of a corrupt body or a crash.
///
/// One atomic compare-and-exchange on the way in and a store on the way out: a few nanoseconds a
/// call. A call that finds the handle busy changes nothing.
final class ExclusiveUse: Sendable {
    /// What the handle is, for the message: "multipart builder", "reader".
    private let what: StaticString
    private let busy = Atomic<Bool>(false)

    init(_ what: StaticString) {
        self.what = what
    }

    /// Runs `body` as the handle's only user.
    /// - Throws: ``SatchelError/Code/misuse`` when another thread is inside the handle; what
    ///   `body` throws.
    func run<T>(_ function: StaticString, _ body: () throws(SatchelError) -> T) throws(SatchelError) -> T {
        guard busy.compareExchange(expected: false, desired: true, ordering: .acquiring).exchanged else {
            throw SatchelError(
                .misuse,
                "\(function): another thread is using this \(what); a \(what) is used by one thread at a time")
        }
        defer { busy.store(false, ordering: .releasing) }
        return try body()
    }
}
