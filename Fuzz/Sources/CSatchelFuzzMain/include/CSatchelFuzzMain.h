// SPDX-License-Identifier: Apache-2.0
#ifndef CSATCHEL_FUZZ_MAIN_H
#define CSATCHEL_FUZZ_MAIN_H

/// The executable's entry point in a debug build, where SwiftPM links `main` to
/// `satchel_fuzz_main` (scripts/fuzz --in-test-build); a release build uses libFuzzer's own `main`.
/// Runs libFuzzer's driver with the module's `LLVMFuzzerTestOneInput`.
int satchel_fuzz_main(int argc, char **argv);

#endif
