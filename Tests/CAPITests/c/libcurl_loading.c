/* SPDX-License-Identifier: Apache-2.0 */
/* libsatchel loads libcurl at the first session (Sources/CAPI/libcurl-loader.c).
   usage: libcurl_loading URL            decodes with libcurl unmapped, then GETs URL
          libcurl_loading URL missing    expects the session to fail (SATCHEL_LIBCURL is bad)
   Prints one line per check and exits 0 when every check held. */
#include <satchel.h>
#include <stdio.h>
#include <string.h>

static int failures;

static void check(int condition, const char *what) {
    printf("%s: %s\n", condition ? "ok" : "FAILED", what);
    if (!condition) failures++;
}

/* Whether libcurl.so.* is mapped into this process (not this program, whose name starts so). */
static int libcurl_mapped(void) {
    FILE *maps = fopen("/proc/self/maps", "r");
    char line[1024];
    int found = 0;
    while (maps != NULL && fgets(line, sizeof line, maps) != NULL) {
        if (strstr(line, "/libcurl.so.") != NULL) found = 1;
    }
    if (maps != NULL) fclose(maps);
    return found;
}

int main(int argc, char **argv) {
    satchel_registry *registry = NULL;
    satchel_value *value = NULL;
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    if (argc < 2) return 64;
    check(!libcurl_mapped(), "libcurl is not mapped when the program starts");
    check(satchel_registry_create(&registry) == SATCHEL_OK, "a registry");
    check(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, "{\"a\":[1,2]}", 11) ==
              SATCHEL_OK,
          "a JSON decode");
    satchel_value_free(value);
    check(!libcurl_mapped(), "libcurl is not mapped after a registry and a decode");
    satchel_status status = satchel_session_create(&session, NULL, 0, registry);
    if (argc > 2) {
        const char *message = satchel_last_error_message();
        check(status == SATCHEL_E_INTERNAL && session == NULL, "without libcurl, the session fails with SATCHEL_E_INTERNAL");
        check(strstr(message, "SATCHEL_E_INTERNAL: libcurl could not be initialised: ") == message,
              "the message says libcurl could not be initialised");
        check(strstr(message, argv[2]) != NULL, "the message names the file that could not be loaded");
        printf("message: %s\n", message);
    } else {
        check(status == SATCHEL_OK, "a session");
        check(satchel_request_create(&request, "GET", 3, argv[1], SATCHEL_NTS) == SATCHEL_OK, "a request");
        check(satchel_session_send(&response, session, request) == SATCHEL_OK, "a GET");
        check(libcurl_mapped(), "libcurl is mapped after the GET");
        satchel_response_free(response);
        satchel_request_free(request);
        satchel_session_free(session);
    }
    satchel_registry_free(registry);
    printf("%d failed\n", failures);
    return failures == 0 ? 0 : 1;
}
