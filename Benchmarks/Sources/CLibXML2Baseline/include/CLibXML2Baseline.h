/* SPDX-License-Identifier: Apache-2.0 */
/* The raw libxml2 baselines for Satchel's XML benchmarks. */
#ifndef SATCHEL_CLibXML2Baseline_H
#define SATCHEL_CLibXML2Baseline_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Parses `length` bytes with xmlReadMemory (XML_PARSE_NONET | XML_PARSE_NOENT |
 * XML_PARSE_HUGE | XML_PARSE_NOERROR | XML_PARSE_NOWARNING: the work Satchel's document form
 * asks of libxml2) and frees the tree again. When `elements` is not NULL, the tree's elements
 * are counted into it first (for the benchmark's guard, not while timing).
 *
 * `bytes` is borrowed. Returns 0 on success, -1 when libxml2 rejects the document.
 */
int satchel_bench_xml_read_memory(const char *bytes, size_t length, long *elements);

/*
 * Parses `length` bytes with libxml2's SAX2 push parser (xmlCreatePushParserCtxt, one
 * xmlParseChunk with terminate), with callbacks that do nothing but count start tags into
 * `elements` (not NULL).
 *
 * `bytes` is borrowed. Returns 0 on success, -1 when libxml2 rejects the document.
 */
int satchel_bench_xml_sax_push(const char *bytes, size_t length, long *elements);

#ifdef __cplusplus
}
#endif

#endif
