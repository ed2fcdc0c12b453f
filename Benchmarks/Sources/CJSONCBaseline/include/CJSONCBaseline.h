/* SPDX-License-Identifier: Apache-2.0 */
/* The raw json-c baseline for Satchel's JSON benchmarks. */
#ifndef SATCHEL_BENCH_JSONC_BASELINE_H
#define SATCHEL_BENCH_JSONC_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses `length` bytes of JSON text with json-c's own strict tokenizer (depth 512,
 * JSON_TOKENER_STRICT), builds json-c's tree and frees it again.
 *
 * `bytes` is borrowed and need not be NUL-terminated.
 * Returns 0 when the whole input is one valid document, -1 when json-c rejects it or could not
 * allocate, and 1 when json-c wants more input (the text stopped inside a value).
 */
int satchel_bench_jsonc_parse(const char *bytes, size_t length);

#ifdef __cplusplus
}
#endif

#endif
