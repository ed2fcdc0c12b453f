/* SPDX-License-Identifier: Apache-2.0 */
/* satchel_session_send from a plain C thread: COUNT GETs of URL (a JSON body, decoded into a
** value), one after another, after 20 to warm up; prints the requests per second.
** Built and run by scripts/measure-engine-hops. */
#include <satchel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: capi-send URL COUNT\n"); return 64; }
    const char *url = argv[1];
    long count = atol(argv[2]);
    satchel_registry *registry = NULL;
    satchel_session *session = NULL;
    if (satchel_registry_create(&registry) != SATCHEL_OK) return 1;
    if (satchel_session_create(&session, NULL, 0, registry) != SATCHEL_OK) return 1;
    struct timespec start, end;
    long ok = 0;
    for (long i = -20; i < count; i++) {  /* 20 warm-up requests */
        if (i == 0) clock_gettime(CLOCK_MONOTONIC, &start);
        satchel_request *request = NULL;
        satchel_response *response = NULL;
        if (satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS) != SATCHEL_OK) return 1;
        if (satchel_session_send(&response, session, request) == SATCHEL_OK && satchel_response_status(response) == 200
            && satchel_response_value(response) != NULL && i >= 0)
            ok++;
        satchel_response_free(response);
        satchel_request_free(request);
    }
    clock_gettime(CLOCK_MONOTONIC, &end);
    double seconds = (double)(end.tv_sec - start.tv_sec) + (double)(end.tv_nsec - start.tv_nsec) / 1e9;
    printf("capi-send: %ld/%ld decoded, %.1f req/s\n", ok, count, (double)count / seconds);
    satchel_session_free(session);
    satchel_registry_free(registry);
    return ok == count ? 0 : 1;
}
