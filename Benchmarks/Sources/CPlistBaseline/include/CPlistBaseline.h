/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CPlistBaseline_H
#define SATCHEL_CPlistBaseline_H
/* The raw libplist 2.2 baseline: its own parse into a plist_t tree and its own writers, with no
 * conversion to Satchel's Value. The candidate engine (b) that Satchel's Swift readers were
 * measured against. */
#include <stddef.h>
#include <stdint.h>

/* Parses `length` bytes (binary when `binary` is non-zero, else XML) and frees the tree.
 * Returns the number of top-level children (0 on failure or for an empty container). */
int plist_baseline_read(const char *bytes, uint32_t length, int binary);

/* Parses once for the write benchmark; NULL on failure. */
void *plist_baseline_parse(const char *bytes, uint32_t length, int binary);

/* Writes `tree` as binary or XML, frees the output, and returns its length (0 on failure). */
uint32_t plist_baseline_write(void *tree, int binary);

/* Copies the output of plist_baseline_write into `buffer` (up to `capacity` bytes); returns the
 * length written. For the correctness guard. */
uint32_t plist_baseline_write_into(void *tree, int binary, char *buffer, uint32_t capacity);

/* Frees a tree from plist_baseline_parse; NULL does nothing. */
void plist_baseline_free(void *tree);
#endif
