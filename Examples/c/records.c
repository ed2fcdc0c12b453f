/* SPDX-License-Identifier: Apache-2.0 */
/*
** records.c -- print the records of a stream as they arrive: Server-Sent Events, JSON Lines,
** JSON text sequences, multipart parts.
**
**   records URL                 a GET through libsatchel's transport, records to a callback
**   records - CONTENT_TYPE      standard input read with a satchel_reader (any transport:
**                               curl -N URL | records - text/event-stream)
**
** Each record is printed as one line of canonical JSON the moment it is complete (an event as
** {"event":TYPE,"data":DATA,"id":LAST_EVENT_ID}). Exit status: 0, or 1 with libsatchel's
** message on stderr (the records before a malformed one are printed first).
**
**   cc Examples/c/records.c $(pkg-config --cflags --libs satchel) -o records
*/
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "satchel.h"

static int report(satchel_status status, const char *what) {
    fprintf(stderr, "records: %s: %s (%s)\n", what, satchel_last_error_message(), satchel_status_string(status));
    return 1;
}

/* Prints one record; the value is borrowed (valid during the call). */
static int print_record(const satchel_value *record) {
    char *json = NULL;
    size_t length = 0;
    if (satchel_value_to_json(&json, &length, record, 0) != SATCHEL_OK) return 1;
    printf("%s\n", json);
    fflush(stdout);  /* as it arrives, also into a pipe */
    satchel_free(json);
    return 0;
}

/* The record callback: called on a library thread, one record at a time. */
static int on_record(void *userdata, const satchel_value *record) {
    int *count = (int *)userdata;
    ++*count;
    return print_record(record) == 0 ? SATCHEL_DATA_CONTINUE : 1; /* anything else cancels */
}

/* Takes and prints every record the reader has ready. */
static void print_ready(satchel_reader *reader) {
    satchel_value *record = NULL;
    while (satchel_reader_next(&record, reader) == SATCHEL_OK) {
        print_record(record);
        satchel_value_free(record);
    }
}

static int read_stdin(const char *content_type) {
    satchel_registry *registry = NULL;
    satchel_reader *reader = NULL;
    satchel_status status;
    char buffer[4096];
    ssize_t count;
    int result = 1;

    if ((status = satchel_registry_create(&registry)) != SATCHEL_OK) return report(status, "registry");
    if ((status = satchel_reader_create(&reader, registry, content_type, SATCHEL_NTS)) != SATCHEL_OK) {
        report(status, content_type);
        goto done;
    }
    while ((count = read(STDIN_FILENO, buffer, sizeof buffer)) > 0) {
        status = satchel_reader_feed(reader, buffer, (size_t)count);
        print_ready(reader); /* the records before an error too */
        if (status != SATCHEL_OK) {
            report(status, "standard input");
            goto done;
        }
    }
    status = satchel_reader_finish(reader);
    print_ready(reader);
    result = status == SATCHEL_OK ? 0 : report(status, "standard input");
done:
    satchel_reader_free(reader);
    satchel_registry_free(registry);
    return result;
}

int main(int argc, char **argv) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_status status;
    int count = 0, result = 1;

    if (argc == 3 && strcmp(argv[1], "-") == 0) return read_stdin(argv[2]);
    if (argc != 2) {
        fprintf(stderr, "usage: records URL | records - CONTENT_TYPE\n");
        return 64;
    }
    if ((status = satchel_session_create(&session, NULL, 0, NULL)) != SATCHEL_OK) return report(status, "session");
    if ((status = satchel_request_create(&request, "GET", 3, argv[1], SATCHEL_NTS)) != SATCHEL_OK) {
        report(status, argv[1]);
        goto done;
    }
    satchel_request_set_record_callback(request, on_record, &count);
    status = satchel_session_send(&response, session, request);
    if (status != SATCHEL_OK) {
        report(status, argv[1]);
        goto done;
    }
    fprintf(stderr, "records: HTTP %d, %d records\n", satchel_response_status(response), count);
    result = 0;
done:
    satchel_response_free(response);
    satchel_request_free(request);
    satchel_session_free(session);
    return result;
}
