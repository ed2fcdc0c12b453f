/* SPDX-License-Identifier: Apache-2.0 */
/*
** authenticated.c -- GET a URL with an OAuth-style bearer token that a command refreshes,
** keeping the cookies the server sets in a cookie jar between runs.
**
**   authenticated URL TOKEN_COMMAND [COOKIE_JAR]
**
** The token is the first line TOKEN_COMMAND prints (`gcloud auth print-access-token`,
** `op read op://vault/api/token`, ...), asked for before the first request and again whenever
** the server answers 401 -- once, however many requests were refused at the same time. The
** body is printed on stdout; the number of refreshes and cookies on stderr. Exit status: 0,
** or 1 with libsatchel's message on stderr.
**
**   cc Examples/c/authenticated.c $(pkg-config --cflags --libs satchel) -o authenticated
*/
#define _POSIX_C_SOURCE 200809L /* popen, pclose, getline */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satchel.h"

typedef struct token_command {
    const char *command;
    int refreshes;  /* only the refresh thread writes it, one refresh at a time */
} token_command;

static int report(satchel_status status, const char *what) {
    fprintf(stderr, "authenticated: %s: %s (%s)\n", what, satchel_last_error_message(), satchel_status_string(status));
    return 1;
}

/* The refresh callback: runs on a library thread of its own. The token it returns is malloc'd
** (getline allocates); libsatchel frees it. Non-zero fails the refresh, and the requests
** waiting for it. */
static int refresh(void *userdata, char **out_token) {
    token_command *source = (token_command *)userdata;
    FILE *output = popen(source->command, "r");
    char *line = NULL;
    size_t capacity = 0;
    ssize_t length;
    if (output == NULL) return 1;
    length = getline(&line, &capacity, output);
    if (pclose(output) != 0 || length <= 0) {
        free(line);
        return 2;
    }
    while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
    source->refreshes++;
    *out_token = line;
    return 0;
}

int main(int argc, char **argv) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_value *cookies = NULL;
    token_command source = {NULL, 0};
    const uint8_t *body = NULL;
    size_t length = 0, count = 0;
    satchel_status status;
    int result = 1;

    if (argc != 3 && argc != 4) {
        fprintf(stderr, "usage: authenticated URL TOKEN_COMMAND [COOKIE_JAR]\n");
        return 64;
    }
    source.command = argv[2];
    if ((status = satchel_session_create(&session, NULL, 0, NULL)) != SATCHEL_OK) return report(status, "session");
    if ((status = satchel_session_set_token_refresh(session, refresh, &source)) != SATCHEL_OK
        || (argc == 4 && (status = satchel_session_set_cookie_jar(session, argv[3])) != SATCHEL_OK)
        || (status = satchel_request_create(&request, "GET", 3, argv[1], SATCHEL_NTS)) != SATCHEL_OK) {
        report(status, "setup");
        goto done;
    }
    if ((status = satchel_session_send(&response, session, request)) != SATCHEL_OK) {
        report(status, argv[1]);
        goto done;
    }
    satchel_response_body(&body, &length, response);
    fwrite(body, 1, length, stdout);
    printf("\n");
    if ((status = satchel_session_cookies(&cookies, session, NULL, 0)) == SATCHEL_OK) satchel_value_count(&count, cookies);
    fprintf(stderr, "authenticated: HTTP %d, %d token refresh(es), %zu cookie(s)\n", satchel_response_status(response),
            source.refreshes, count);
    result = 0;
done:
    satchel_value_free(cookies);
    satchel_response_free(response);
    satchel_request_free(request);
    satchel_session_free(session);
    return result;
}
