/* SPDX-License-Identifier: Apache-2.0 */
/* libcurl, loaded at its first use instead of with libsatchel.so.0.

   Only scripts/install-c-library compiles this file, into libsatchel.so.0 (SwiftPM's targets
   link libcurl as usual). It defines every libcurl function Satchel calls; each one loads
   libcurl.so.4 (or the file SATCHEL_LIBCURL names) once, with dlopen, and calls the real one.
   A C program that only decodes then never loads libcurl and the thirty libraries it needs,
   which were most of the time from dlopen to a registry (docs/CAPI.md, "Weight").
   The version script hides these definitions, so they never stand in for another copy of
   libcurl in the process.

   When libcurl cannot be loaded, curl_global_init returns CURLE_FAILED_INIT, every
   constructor returns NULL, every other call its "failed" code, and curl_easy_strerror gives
   the loader's message, which the engine's error carries. */
#define _GNU_SOURCE
#define CURL_DISABLE_TYPECHECK /* the typed macros would replace the definitions below */
#include <curl/curl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* The variadic options Satchel passes (CSatchelCurl's typed wrappers) are long, curl_off_t or
   pointers: on the 64-bit ABIs Satchel is built for, each is one 8-byte integer-class argument,
   so forwarding it as a pointer puts the same bits in the same register. */
_Static_assert(sizeof(long) == sizeof(void *) && sizeof(curl_off_t) == sizeof(void *),
               "variadic curl arguments are forwarded as one pointer-sized word");

/* name, return type, parameters, arguments, the value returned when libcurl is missing */
#define SATCHEL_CURL_FUNCTIONS(X)                                                                  \
    X(curl_global_init, CURLcode, (long flags), (flags), CURLE_FAILED_INIT)                        \
    X(curl_easy_init, CURL *, (void), (), NULL)                                                    \
    X(curl_easy_reset, void, (CURL * handle), (handle), )                                          \
    X(curl_easy_cleanup, void, (CURL * handle), (handle), )                                        \
    X(curl_easy_pause, CURLcode, (CURL * handle, int mask), (handle, mask), CURLE_FAILED_INIT)     \
    X(curl_multi_init, CURLM *, (void), (), NULL)                                                  \
    X(curl_multi_cleanup, CURLMcode, (CURLM * multi), (multi), CURLM_BAD_HANDLE)                   \
    X(curl_multi_add_handle, CURLMcode, (CURLM * multi, CURL * handle), (multi, handle),           \
      CURLM_BAD_HANDLE)                                                                            \
    X(curl_multi_remove_handle, CURLMcode, (CURLM * multi, CURL * handle), (multi, handle),        \
      CURLM_BAD_HANDLE)                                                                            \
    X(curl_multi_perform, CURLMcode, (CURLM * multi, int *running), (multi, running),              \
      CURLM_BAD_HANDLE)                                                                            \
    X(curl_multi_poll, CURLMcode,                                                                  \
      (CURLM * multi, struct curl_waitfd * fds, unsigned int count, int timeout, int *ready),      \
      (multi, fds, count, timeout, ready), CURLM_BAD_HANDLE)                                       \
    X(curl_multi_wakeup, CURLMcode, (CURLM * multi), (multi), CURLM_BAD_HANDLE)                    \
    X(curl_multi_timeout, CURLMcode, (CURLM * multi, long *timeout), (multi, timeout),             \
      CURLM_BAD_HANDLE)                                                                            \
    X(curl_multi_info_read, CURLMsg *, (CURLM * multi, int *left), (multi, left), NULL)            \
    X(curl_share_init, CURLSH *, (void), (), NULL)                                                 \
    X(curl_share_cleanup, CURLSHcode, (CURLSH * share), (share), CURLSHE_INVALID)                  \
    X(curl_slist_append, struct curl_slist *, (struct curl_slist * list, const char *text),        \
      (list, text), NULL)                                                                          \
    X(curl_slist_free_all, void, (struct curl_slist * list), (list), )                             \
    X(curl_url, CURLU *, (void), (), NULL)                                                         \
    X(curl_url_cleanup, void, (CURLU * url), (url), )                                              \
    X(curl_url_set, CURLUcode, (CURLU * url, CURLUPart part, const char *text, unsigned int flags), \
      (url, part, text, flags), CURLUE_OUT_OF_MEMORY)                                              \
    X(curl_url_get, CURLUcode, (CURLU * url, CURLUPart part, char **text, unsigned int flags), \
      (url, part, text, flags), CURLUE_OUT_OF_MEMORY)                                              \
    X(curl_free, void, (void *pointer), (pointer), )

/* The variadic ones and the three that return text, called through the same table. */
#define SATCHEL_CURL_OTHERS(X)                                                                     \
    X(curl_easy_setopt, CURLcode, (CURL *, CURLoption, ...))                                       \
    X(curl_easy_getinfo, CURLcode, (CURL *, CURLINFO, ...))                                        \
    X(curl_multi_setopt, CURLMcode, (CURLM *, CURLMoption, ...))                                   \
    X(curl_share_setopt, CURLSHcode, (CURLSH *, CURLSHoption, ...))                                \
    X(curl_version, char *, (void))                                                                \
    X(curl_easy_strerror, const char *, (CURLcode))                                                \
    X(curl_multi_strerror, const char *, (CURLMcode))                                              \
    X(curl_url_strerror, const char *, (CURLUcode))

static struct {
#define SATCHEL_CURL_FIELD(name, result, parameters, ...) result(*name) parameters;
    SATCHEL_CURL_FUNCTIONS(SATCHEL_CURL_FIELD)
    SATCHEL_CURL_OTHERS(SATCHEL_CURL_FIELD)
#undef SATCHEL_CURL_FIELD
} satchel_curl;

static pthread_once_t satchel_curl_once = PTHREAD_ONCE_INIT;
static int satchel_curl_loaded;
static char satchel_curl_failure[512];

static void satchel_curl_load(void) {
    const char *path = getenv("SATCHEL_LIBCURL");
    if (path == NULL || *path == 0) path = "libcurl.so.4";
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(satchel_curl_failure, sizeof satchel_curl_failure, "%s", dlerror());
        return;
    }
#define SATCHEL_CURL_RESOLVE(name, ...)                                                            \
    if ((*(void **)&satchel_curl.name = dlsym(library, #name)) == NULL) {                          \
        snprintf(satchel_curl_failure, sizeof satchel_curl_failure,                                \
                 "%s has no %s", path, #name);                        \
        return;                                                                                    \
    }
    SATCHEL_CURL_FUNCTIONS(SATCHEL_CURL_RESOLVE)
    SATCHEL_CURL_OTHERS(SATCHEL_CURL_RESOLVE)
#undef SATCHEL_CURL_RESOLVE
    satchel_curl_loaded = 1;
}

/* Whether libcurl is there to call; loads it on the first call (thread-safe). */
static int satchel_curl_ready(void) {
    pthread_once(&satchel_curl_once, satchel_curl_load);
    return satchel_curl_loaded;
}

#define SATCHEL_CURL_DEFINE(name, result, parameters, arguments, missing)                          \
    result name parameters {                                                                       \
        if (!satchel_curl_ready()) return missing;                                                 \
        return satchel_curl.name arguments;                                                        \
    }
SATCHEL_CURL_FUNCTIONS(SATCHEL_CURL_DEFINE)
#undef SATCHEL_CURL_DEFINE

#define SATCHEL_CURL_FORWARD_OPTION(name, result, handle_type, option_type, missing)               \
    result name(handle_type *handle, option_type option, ...) {                                    \
        if (!satchel_curl_ready()) return missing;                                                 \
        va_list arguments;                                                                         \
        va_start(arguments, option);                                                               \
        void *value = va_arg(arguments, void *);                                                   \
        va_end(arguments);                                                                         \
        return satchel_curl.name(handle, option, value);                                           \
    }
SATCHEL_CURL_FORWARD_OPTION(curl_easy_setopt, CURLcode, CURL, CURLoption, CURLE_FAILED_INIT)
SATCHEL_CURL_FORWARD_OPTION(curl_easy_getinfo, CURLcode, CURL, CURLINFO, CURLE_FAILED_INIT)
SATCHEL_CURL_FORWARD_OPTION(curl_multi_setopt, CURLMcode, CURLM, CURLMoption, CURLM_BAD_HANDLE)
SATCHEL_CURL_FORWARD_OPTION(curl_share_setopt, CURLSHcode, CURLSH, CURLSHoption, CURLSHE_INVALID)
#undef SATCHEL_CURL_FORWARD_OPTION

char *curl_version(void) {
    return satchel_curl_ready() ? satchel_curl.curl_version() : satchel_curl_failure;
}

const char *curl_easy_strerror(CURLcode code) {
    return satchel_curl_ready() ? satchel_curl.curl_easy_strerror(code) : satchel_curl_failure;
}

const char *curl_multi_strerror(CURLMcode code) {
    return satchel_curl_ready() ? satchel_curl.curl_multi_strerror(code) : satchel_curl_failure;
}

const char *curl_url_strerror(CURLUcode code) {
    return satchel_curl_ready() ? satchel_curl.curl_url_strerror(code) : satchel_curl_failure;
}
