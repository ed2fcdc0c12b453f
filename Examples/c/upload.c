/* SPDX-License-Identifier: Apache-2.0 */
/*
** upload.c -- build a multipart/form-data body from files and upload it with progress.
**
**   upload URL FILE...
**
** Each FILE becomes a part named "file1", "file2", ... streamed from disk (constant memory);
** a text field "note" is added too. Progress goes to stderr; the decoded response is printed
** as canonical JSON. Exit status: 0, or 1 with libsatchel's message on stderr.
**
**   cc Examples/c/upload.c $(pkg-config --cflags --libs satchel) -o upload
*/
#include <stdio.h>
#include <string.h>

#include "satchel.h"

static int report(satchel_status status, const char *what) {
    fprintf(stderr, "upload: %s: %s (%s)\n", what, satchel_last_error_message(), satchel_status_string(status));
    return 1;
}

/* Prints progress as it comes; called on a library thread. */
static int progress(void *userdata, int64_t uploaded, int64_t upload_total, int64_t downloaded, int64_t download_total) {
    int *reports = (int *)userdata;
    (void)downloaded; (void)download_total;
    ++*reports;
    fprintf(stderr, "\rupload: %lld of %lld bytes", (long long)uploaded, (long long)upload_total);
    return 0;
}

int main(int argc, char **argv) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_multipart *multipart = NULL;
    satchel_response *response = NULL;
    satchel_status status;
    int64_t length = 0;
    int index, reports = 0, result = 1;
    char *json;

    if (argc < 3) { fprintf(stderr, "usage: upload URL FILE...\n"); return 64; }
    if ((status = satchel_multipart_create(&multipart, NULL, 0)) != SATCHEL_OK) return report(status, "multipart");
    satchel_multipart_add_field(multipart, "note", SATCHEL_NTS, "uploaded by Examples/c/upload.c", SATCHEL_NTS);
    for (index = 2; index < argc; index++) {
        char name[32];
        sprintf(name, "file%d", index - 1);
        if ((status = satchel_multipart_add_file(multipart, name, SATCHEL_NTS, argv[index], NULL, 0, NULL, 0)) != SATCHEL_OK) {
            report(status, argv[index]);
            goto done;
        }
    }
    satchel_multipart_content_length(&length, multipart);
    fprintf(stderr, "upload: %lld bytes in %d parts\n", (long long)length, argc - 1);

    if ((status = satchel_session_create(&session, NULL, 0, NULL)) != SATCHEL_OK) { report(status, "session"); goto done; }
    if ((status = satchel_request_create(&request, "POST", SATCHEL_NTS, argv[1], SATCHEL_NTS)) != SATCHEL_OK) { report(status, "request"); goto done; }
    if ((status = satchel_request_set_body_multipart(request, multipart)) != SATCHEL_OK) { report(status, "body"); goto done; }
    multipart = NULL; /* the request owns it now */
    satchel_request_set_progress(request, progress, &reports);
    status = satchel_session_send(&response, session, request);
    fprintf(stderr, "\n");
    if (status != SATCHEL_OK) { report(status, argv[1]); goto done; }
    fprintf(stderr, "upload: HTTP %d after %d progress reports\n", satchel_response_status(response), reports);
    if (satchel_response_value(response) && satchel_value_to_json(&json, NULL, satchel_response_value(response), SATCHEL_JSON_PRETTY) == SATCHEL_OK) {
        printf("%s\n", json);
        satchel_free(json);
    }
    result = 0;
done:
    satchel_response_free(response);
    satchel_request_free(request);
    satchel_multipart_free(multipart);
    satchel_session_free(session);
    return result;
}
