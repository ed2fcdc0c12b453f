// SPDX-License-Identifier: Apache-2.0
#include "CSatchelFuzzMain.h"

#include <stddef.h>
#include <stdint.h>

// libFuzzer's driver (since LLVM 11) and the target hook the Swift module defines with @_cdecl.
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int satchel_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
