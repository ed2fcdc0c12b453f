/* SPDX-License-Identifier: Apache-2.0 */
#include "CCurlBaseline.h"

#include <curl/curl.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <string.h>

/* One easy handle and the body it is receiving. */
struct transfer {
    CURL *easy;
    char *body;
    size_t length;
    size_t capacity;
};

struct satchel_bench_curl_loop {
    CURLM *multi;
    json_tokener *tokener;
    int count;
    struct transfer transfers[];
};

static size_t append_body(char *data, size_t size, size_t items, void *context) {
    struct transfer *transfer = context;
    size_t length = size * items;
    if (transfer->length + length > transfer->capacity) {
        size_t capacity = transfer->capacity ? transfer->capacity : 4096;
        while (capacity < transfer->length + length) capacity *= 2;
        char *grown = realloc(transfer->body, capacity);
        if (grown == NULL) return 0; /* makes libcurl fail the transfer */
        transfer->body = grown;
        transfer->capacity = capacity;
    }
    memcpy(transfer->body + transfer->length, data, length);
    transfer->length += length;
    return length;
}

satchel_bench_curl_loop *satchel_bench_curl_loop_create(const char *url, int in_flight) {
    if (in_flight < 1 || in_flight > 1024) return NULL;
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return NULL;
    satchel_bench_curl_loop *loop = calloc(1, sizeof *loop + (size_t)in_flight * sizeof(struct transfer));
    if (loop == NULL) return NULL;
    loop->multi = curl_multi_init();
    loop->tokener = json_tokener_new_ex(512);
    if (loop->multi == NULL || loop->tokener == NULL) {
        satchel_bench_curl_loop_destroy(loop);
        return NULL;
    }
    json_tokener_set_flags(loop->tokener, JSON_TOKENER_STRICT);
    curl_multi_setopt(loop->multi, CURLMOPT_MAXCONNECTS, (long)in_flight);
    for (int index = 0; index < in_flight; index++) {
        struct transfer *transfer = &loop->transfers[index];
        transfer->easy = curl_easy_init();
        loop->count = index + 1;
        if (transfer->easy == NULL) {
            satchel_bench_curl_loop_destroy(loop);
            return NULL;
        }
        curl_easy_setopt(transfer->easy, CURLOPT_URL, url);
        curl_easy_setopt(transfer->easy, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(transfer->easy, CURLOPT_WRITEFUNCTION, append_body);
        curl_easy_setopt(transfer->easy, CURLOPT_WRITEDATA, transfer);
        curl_easy_setopt(transfer->easy, CURLOPT_PRIVATE, transfer);
    }
    return loop;
}

/* Parses a finished transfer's body; 1 when it was a 200 with a JSON object, else 0. */
static int check_transfer(satchel_bench_curl_loop *loop, struct transfer *transfer, CURLcode result) {
    long status = 0;
    curl_easy_getinfo(transfer->easy, CURLINFO_RESPONSE_CODE, &status);
    if (result != CURLE_OK || status != 200) return 0;
    json_tokener_reset(loop->tokener);
    json_object *object = json_tokener_parse_ex(loop->tokener, transfer->body, (int)transfer->length);
    int parsed = object != NULL && json_tokener_get_error(loop->tokener) == json_tokener_success
        && json_object_is_type(object, json_type_object);
    json_object_put(object);
    return parsed;
}

long satchel_bench_curl_loop_run(satchel_bench_curl_loop *loop, long count, long long *body_bytes) {
    long started = 0, finished = 0, good = 0;
    for (int index = 0; index < loop->count && started < count; index++, started++) {
        loop->transfers[index].length = 0;
        if (curl_multi_add_handle(loop->multi, loop->transfers[index].easy) != CURLM_OK) return -1;
    }
    while (finished < count) {
        int running = 0;
        if (curl_multi_perform(loop->multi, &running) != CURLM_OK) return -1;
        CURLMsg *message;
        int queued;
        while ((message = curl_multi_info_read(loop->multi, &queued)) != NULL) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            CURLcode result = message->data.result;
            struct transfer *transfer = NULL;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&transfer);
            good += check_transfer(loop, transfer, result);
            *body_bytes += (long long)transfer->length;
            finished++;
            curl_multi_remove_handle(loop->multi, easy);
            if (started < count) {
                transfer->length = 0;
                if (curl_multi_add_handle(loop->multi, easy) != CURLM_OK) return -1;
                started++;
            }
        }
        if (finished < count && curl_multi_poll(loop->multi, NULL, 0, 1000, NULL) != CURLM_OK) return -1;
    }
    return good;
}

void satchel_bench_curl_loop_destroy(satchel_bench_curl_loop *loop) {
    if (loop == NULL) return;
    for (int index = 0; index < loop->count; index++) {
        struct transfer *transfer = &loop->transfers[index];
        if (transfer->easy) curl_easy_cleanup(transfer->easy);
        free(transfer->body);
    }
    if (loop->multi) curl_multi_cleanup(loop->multi);
    if (loop->tokener) json_tokener_free(loop->tokener);
    free(loop);
}
