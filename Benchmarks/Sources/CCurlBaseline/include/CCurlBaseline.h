/* SPDX-License-Identifier: Apache-2.0 */
/* The raw libcurl baseline for Satchel's transport benchmarks: a multi loop in C. */
#ifndef SATCHEL_BENCH_CURL_BASELINE_H
#define SATCHEL_BENCH_CURL_BASELINE_H

#ifdef __cplusplus
extern "C" {
#endif

/* One libcurl multi handle with a fixed set of easy handles, kept across runs so connections stay alive. */
typedef struct satchel_bench_curl_loop satchel_bench_curl_loop;

/*
 * Creates a loop that GETs `url` with at most `in_flight` requests at once (1 to 1024).
 * Returns NULL when libcurl cannot be set up or `in_flight` is out of range.
 */
satchel_bench_curl_loop *satchel_bench_curl_loop_create(const char *url, int in_flight);

/*
 * Runs `count` GETs, re-adding each finished easy handle to the multi handle (keep-alive), and
 * parses every body with json-c's strict tokenizer (depth 512) and frees the tree again.
 * Returns how many responses had status 200 and a body that parsed as a JSON object, or -1 when
 * libcurl's multi interface failed. Adds the body bytes received to `*body_bytes`.
 */
long satchel_bench_curl_loop_run(satchel_bench_curl_loop *loop, long count, long long *body_bytes);

/* Frees the loop, its handles and its connections. NULL is ignored. */
void satchel_bench_curl_loop_destroy(satchel_bench_curl_loop *loop);

#ifdef __cplusplus
}
#endif

#endif
