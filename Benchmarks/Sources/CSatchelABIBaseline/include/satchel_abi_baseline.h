/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of Satchel's C ABI benchmark: a C caller of libsatchel's decode. */
#ifndef SATCHEL_BENCH_ABI_BASELINE_H
#define SATCHEL_BENCH_ABI_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* libsatchel, opened with dlopen, and one registry it made (satchel_registry_create). */
typedef struct satchel_bench_abi satchel_bench_abi;

/*
 * Opens the library at `library_path` (libSatchelC.so or an installed libsatchel.so), looks up
 * the functions the benchmark calls and creates a registry. Returns NULL on failure, with a
 * message in `error` (`error_size` bytes, NUL-terminated).
 */
satchel_bench_abi *satchel_bench_abi_open(const char *library_path, char *error, size_t error_size);

/*
 * Decodes `length` bytes of `body` as `content_type` (NUL-terminated) with
 * satchel_registry_decode, then releases the value with satchel_value_free: what a C host does.
 * Returns the value's satchel_type (>= 0), or minus the satchel_status on failure.
 */
int satchel_bench_abi_decode(const satchel_bench_abi *abi, const char *content_type, const void *body, size_t length);

/* Frees the registry (the library stays loaded). NULL does nothing. */
void satchel_bench_abi_close(satchel_bench_abi *abi);

#ifdef __cplusplus
}
#endif

#endif
