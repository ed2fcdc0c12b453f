// SPDX-License-Identifier: Apache-2.0
import Satchel

#if canImport(Glibc)
    import Glibc
#endif

/// What a fuzz target asserts. Every failure prints what went wrong and aborts, which libFuzzer
/// reports as a crash and saves the input for.
enum FuzzCheck {
    /// Stops the run: a bug was found.
    static func fail(_ message: String) -> Never {
        report("satchel-fuzz: BUG: \(message)")
        abort()
    }

    /// Writes a line to standard error (unbuffered, so it is out before an abort).
    static func report(_ line: String) {
        let text = Array((line + "\n").utf8)
        _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Runs `body`, turning a thrown ``SatchelError`` into a `.failure` and any other thrown
    /// error into a trap: every parser reports bad input as a ``SatchelError``.
    static func outcome<T>(_ what: String, _ body: () throws -> T) -> Result<T, SatchelError> {
        do {
            return .success(try body())
        } catch let error as SatchelError {
            return .failure(error)
        } catch {
            fail("\(what) threw \(type(of: error)), not a SatchelError: \(error)")
        }
    }

    /// Traps unless the whole-input and chunked outcomes agree: both values equal (per `same`),
    /// or both errors — with the same code unless `sameCode` is `false` (libxml2's push parser
    /// may name another first error when a chunk ends inside a token).
    static func agree<T>(
        _ what: String, whole: Result<T, SatchelError>, chunked: Result<T, SatchelError>,
        sameCode: Bool = true, same: (T, T) -> Bool
    ) {
        switch (whole, chunked) {
        case (.success(let a), .success(let b)):
            if !same(a, b) {
                fail("\(what): the chunked parse gives another value than the whole one:\n\(a)\nvs\n\(b)")
            }
        case (.failure(let a), .failure(let b)):
            if sameCode && a.code != b.code {
                fail(
                    "\(what): the chunked parse fails with \(b.code) (\(b.message)), the whole one with \(a.code) (\(a.message))"
                )
            }
        case (.success(let a), .failure(let b)):
            fail("\(what): the chunked parse fails (\(b)) where the whole one gives \(a)")
        case (.failure(let a), .success(let b)):
            fail("\(what): the whole parse fails (\(a)) where the chunked one gives \(b)")
        }
    }

    /// Structural equality that also counts NaN equal to NaN (a property list `<real>nan</real>`
    /// survives a round trip, but IEEE equality says it changed).
    static func same(_ a: Value, _ b: Value) -> Bool {
        switch (a, b) {
        case (.double(let x), .double(let y)):
            return x == y || (x.isNaN && y.isNaN)
        case (.array(let x), .array(let y)):
            return x.count == y.count && zip(x, y).allSatisfy { same($0, $1) }
        case (.object(let x), .object(let y)):
            return x.count == y.count
                && zip(x, y).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default:
            return a == b
        }
    }

    /// ``same(_:_:)`` for optional values (`nil` is "no value").
    static func same(_ a: Value?, _ b: Value?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let x?, let y?): same(x, y)
        default: false
        }
    }
}
