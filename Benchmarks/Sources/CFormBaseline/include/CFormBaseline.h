/* SPDX-License-Identifier: Apache-2.0 */
/* The C table encoder baseline for Satchel's form benchmark. */
#ifndef SATCHEL_BENCH_FORM_BASELINE_H
#define SATCHEL_BENCH_FORM_BASELINE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* One name-value pair, unescaped. `value` NULL writes the bare key (no `=`). */
typedef struct satchel_bench_form_pair {
    const char *key;
    size_t key_length;
    const char *value;
    size_t value_length;
} satchel_bench_form_pair;

/*
 * Percent-encodes `count` pairs the AFNetworking way (only A-Z a-z 0-9 - . _ ~ / ? kept, every
 * other byte %XX in upper case, pairs joined by `&`) into one malloc'd buffer sized for the worst
 * case, through a 256-entry table.
 *
 * Returns the encoded length, or (size_t)-1 when the buffer cannot be allocated. With `out`
 * NULL the buffer is freed before returning; otherwise it is handed to the caller (free).
 */
size_t satchel_bench_form_encode(const satchel_bench_form_pair *pairs, size_t count, char **out);

#ifdef __cplusplus
}
#endif

#endif
