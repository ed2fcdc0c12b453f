// SPDX-License-Identifier: Apache-2.0
/// A command line that cannot be carried out as written (an unknown request item, options that
/// contradict each other): one line on standard error and exit status 64, like argument-parser's
/// own usage errors.
struct UsageError: Error, CustomStringConvertible {
    /// What is wrong, in one sentence.
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
