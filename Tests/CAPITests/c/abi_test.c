/* SPDX-License-Identifier: Apache-2.0 */
/*
** abi_test.c -- exercises every function of include/satchel.h and checks each status and
** output. Compiles as C99 and as C++. Exit status 0 when every check passed.
**
**   abi_test PNG_FILE PLUGIN_SO [HTTP_BASE [TLS_BASE CA_FILE PIN WRONG_PIN]]
**   abi_test --reachability-change   (as root in a new network namespace: `unshare --net`)
**
** HTTP_BASE is an httpbin ("http://127.0.0.1:PORT"); TLS_BASE an httpbin over TLS whose
** certificate chains to CA_FILE and whose public key hashes to PIN ("sha256//...").
*/
#define _POSIX_C_SOURCE 200809L /* mkstemp, mkdtemp, write, unlink, nanosleep under -std=c99 */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "satchel.h"

static int failures = 0;
static int checks = 0;

#define CHECK(condition) do { checks++; if (!(condition)) { failures++; \
    fprintf(stderr, "abi_test.c:%d: check failed: %s (last error: %s)\n", __LINE__, #condition, satchel_last_error_message()); } } while (0)
#define CHECK_STATUS(call, expected) do { satchel_status status_ = (call); checks++; if (status_ != (expected)) { failures++; \
    fprintf(stderr, "abi_test.c:%d: %s returned %d (%s), expected %d; last error: %s\n", __LINE__, #call, (int)status_, \
        satchel_status_string(status_), (int)(expected), satchel_last_error_message()); } } while (0)
#define OK(call) CHECK_STATUS(call, SATCHEL_OK)

static int contains(const char *text, const char *part) { return text && strstr(text, part) != NULL; }

static char *json_of(const satchel_value *value) {
    char *json = NULL;
    OK(satchel_value_to_json(&json, NULL, value, SATCHEL_JSON_SORTED_KEYS));
    return json;
}

static int json_is(const satchel_value *value, const char *expected) {
    char *json = json_of(value);
    int same = json && strcmp(json, expected) == 0;
    if (!same) fprintf(stderr, "  JSON was %s\n  expected %s\n", json ? json : "(null)", expected);
    satchel_free(json);
    return same;
}

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    unsigned char *bytes;
    long size;
    if (!file) return NULL;
    fseek(file, 0, SEEK_END);
    size = ftell(file);
    fseek(file, 0, SEEK_SET);
    bytes = (unsigned char *)malloc((size_t)size + 1);
    *length = fread(bytes, 1, (size_t)size, file);
    fclose(file);
    return bytes;
}

static void test_versions_and_statuses(void) {
    CHECK(strcmp(satchel_version(), SATCHEL_VERSION) == 0);
    CHECK(satchel_version_number() == SATCHEL_VERSION_NUMBER);
    CHECK(strcmp(satchel_status_string(SATCHEL_OK), "ok") == 0);
    CHECK(strcmp(satchel_status_string(SATCHEL_E_SYNTAX), "syntax error") == 0);
    CHECK(strcmp(satchel_status_string((satchel_status)999), "unknown status") == 0);
    satchel_free(NULL);
    satchel_value_free(NULL);
    satchel_registry_free(NULL);
    satchel_multipart_free(NULL);
    satchel_session_free(NULL);
    satchel_request_free(NULL);
    satchel_response_free(NULL);
    satchel_task_free(NULL);
}

static void test_null_arguments(void) {
    satchel_value *value = NULL;
    satchel_registry *registry = NULL;
    const satchel_value *borrowed = NULL;
    int64_t integer = 0;
    size_t count = 0;
    CHECK_STATUS(satchel_value_parse_json(NULL, "1", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "out_value is NULL"));
    CHECK_STATUS(satchel_value_parse_json(&value, NULL, 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(value == NULL);
    CHECK_STATUS(satchel_value_get_int64(&integer, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_value_get_int64(NULL, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_value_count(&count, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_value_array_get(&borrowed, NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(satchel_value_type(NULL) == SATCHEL_TYPE_INVALID);
    CHECK_STATUS(satchel_registry_create(NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_decode(&value, NULL, NULL, 0, "1", 1), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_registry_create(&registry));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, NULL, 4), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", (size_t)-2, "1", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_multipart_create(NULL, NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_create(NULL, NULL, 0, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_request_create(NULL, "GET", 3, "/", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(satchel_response_status(NULL) == 0);
    CHECK(satchel_response_header_count(NULL) == 0);
    CHECK(satchel_response_value(NULL) == NULL);
    satchel_registry_free(registry);
}

static void test_json_values(void) {
    const char *text = "{\"s\":\"caf\\u00e9\\u0000x\",\"i\":-7,\"u\":18446744073709551615,\"d\":1.5,"
                       "\"b\":true,\"n\":null,\"a\":[1,[2]],\"o\":{\"k\":\"v\"}}";
    satchel_value *value = NULL;
    const satchel_value *member = NULL, *element = NULL;
    const char *string = NULL, *key = NULL;
    size_t length = 0, count = 0, key_length = 0;
    int64_t integer = 0;
    uint64_t unsigned_integer = 0;
    double number = 0;
    int boolean = 0;
    char *json = NULL;

    OK(satchel_value_parse_json(&value, text, SATCHEL_NTS));
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_OBJECT);
    OK(satchel_value_count(&count, value));
    CHECK(count == 8);

    OK(satchel_value_object_get(&member, value, "s", SATCHEL_NTS));
    OK(satchel_value_get_string(&string, &length, member));
    CHECK(length == 7 && memcmp(string, "caf\xc3\xa9\0x", 7) == 0 && string[7] == '\0');
    OK(satchel_value_object_get(&member, value, "i", 1));
    OK(satchel_value_get_int64(&integer, member));
    CHECK(integer == -7);
    CHECK_STATUS(satchel_value_get_uint64(&unsigned_integer, member), SATCHEL_E_NUMBER_RANGE);
    OK(satchel_value_get_double(&number, member));
    CHECK(number == -7.0);
    OK(satchel_value_object_get(&member, value, "u", 1));
    OK(satchel_value_get_uint64(&unsigned_integer, member));
    CHECK(unsigned_integer == 18446744073709551615ULL);
    CHECK_STATUS(satchel_value_get_int64(&integer, member), SATCHEL_E_NUMBER_RANGE);
    CHECK(contains(satchel_last_error_message(), "INT64_MAX"));
    OK(satchel_value_object_get(&member, value, "d", 1));
    OK(satchel_value_get_double(&number, member));
    CHECK(number == 1.5);
    CHECK_STATUS(satchel_value_get_int64(&integer, member), SATCHEL_E_TYPE_MISMATCH);
    OK(satchel_value_object_get(&member, value, "b", 1));
    OK(satchel_value_get_bool(&boolean, member));
    CHECK(boolean == 1);
    CHECK_STATUS(satchel_value_get_string(&string, &length, member), SATCHEL_E_TYPE_MISMATCH);
    CHECK(string == NULL && length == 0);
    CHECK(contains(satchel_last_error_message(), "not a string"));
    OK(satchel_value_object_get(&member, value, "n", 1));
    CHECK(satchel_value_type(member) == SATCHEL_TYPE_NULL);
    OK(satchel_value_object_get(&member, value, "a", 1));
    CHECK(satchel_value_type(member) == SATCHEL_TYPE_ARRAY);
    OK(satchel_value_array_get(&element, member, 1));
    OK(satchel_value_array_get(&element, element, 0));
    OK(satchel_value_get_int64(&integer, element));
    CHECK(integer == 2);
    CHECK_STATUS(satchel_value_array_get(&element, member, 2), SATCHEL_E_NOT_FOUND);
    CHECK(element == NULL);
    CHECK_STATUS(satchel_value_array_get(&element, member, (size_t)-1), SATCHEL_E_NOT_FOUND);
    CHECK_STATUS(satchel_value_object_get(&member, value, "missing", SATCHEL_NTS), SATCHEL_E_NOT_FOUND);
    CHECK(contains(satchel_last_error_message(), "missing"));
    CHECK_STATUS(satchel_value_object_get(&member, value, "\xff", 1), SATCHEL_E_ENCODING);
    CHECK_STATUS(satchel_value_object_entry(&key, &key_length, &member, value, 8), SATCHEL_E_NOT_FOUND);
    CHECK(key == NULL && member == NULL);
    OK(satchel_value_object_entry(&key, &key_length, &member, value, 7));
    CHECK(key_length == 1 && strcmp(key, "o") == 0);
    CHECK(json_is(member, "{\"k\":\"v\"}"));
    /* The same child twice is the same borrowed handle. */
    {
        const satchel_value *first = NULL, *second = NULL;
        OK(satchel_value_object_get(&first, value, "o", 1));
        OK(satchel_value_object_get(&second, value, "o", 1));
        CHECK(first == second && first == member);
        satchel_value_free((satchel_value *)first); /* borrowed: ignored, not freed */
        CHECK(json_is(second, "{\"k\":\"v\"}"));
    }
    OK(satchel_value_to_json(&json, &length, value, 0));
    CHECK(length == strlen(json) && contains(json, "\"caf\xc3\xa9\\u0000x\"")); /* U+0000 escaped */
    satchel_free(json);
    OK(satchel_value_to_json(&json, NULL, value, SATCHEL_JSON_PRETTY | SATCHEL_JSON_SORTED_KEYS));
    CHECK(json[0] == '{' && json[1] == '\n' && contains(json, "  \"a\": ["));
    satchel_free(json);
    CHECK_STATUS(satchel_value_to_json(&json, NULL, value, 0x80u), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(json == NULL);
    {
        satchel_value *copy = NULL;
        OK(satchel_value_copy(&copy, member));
        CHECK(json_is(copy, "{\"k\":\"v\"}"));
        satchel_value_free(copy);
    }
    satchel_value_free(value);

    CHECK_STATUS(satchel_value_parse_json(&value, "{\"a\":", SATCHEL_NTS), SATCHEL_E_TRUNCATED);
    CHECK(value == NULL && contains(satchel_last_error_message(), "at byte 5"));
    /* C callers read the header's name of the status, not the Swift library's. */
    CHECK(strncmp(satchel_last_error_message(), "SATCHEL_E_TRUNCATED: ", 21) == 0);
    CHECK_STATUS(satchel_value_parse_json(&value, "[1,]", 4), SATCHEL_E_SYNTAX);
    CHECK_STATUS(satchel_value_parse_json(&value, "\"\xc3\"", 3), SATCHEL_E_ENCODING);
    CHECK_STATUS(satchel_value_parse_json(&value, "123456789012345678901234567890", SATCHEL_NTS), SATCHEL_E_NUMBER_RANGE);
    {
        /* 10 000 nested arrays: over the depth limit, an error and no crash. */
        char *deep = (char *)malloc(20001);
        memset(deep, '[', 10000);
        memset(deep + 10000, ']', 10000);
        deep[20000] = '\0';
        CHECK_STATUS(satchel_value_parse_json(&value, deep, SATCHEL_NTS), SATCHEL_E_LIMIT);
        free(deep);
    }
}

/* A visitor that writes each node it is told about into a trace, and can stop at a given node. */
typedef struct trace { char text[4096]; size_t length; int nodes, stop_at; } trace;
static int trace_add(trace *t, const char *piece) {
    size_t n = strlen(piece);
    if (t->length + n + 1 < sizeof t->text) { memcpy(t->text + t->length, piece, n + 1); t->length += n; }
    return ++t->nodes == t->stop_at;
}
static int visit_null(void *u) { return trace_add((trace *)u, "n "); }
static int visit_bool(void *u, int v) { return trace_add((trace *)u, v ? "b1 " : "b0 "); }
static int visit_int64(void *u, int64_t v) { char b[32]; sprintf(b, "i%lld ", (long long)v); return trace_add((trace *)u, b); }
static int visit_uint64(void *u, uint64_t v) { char b[32]; sprintf(b, "u%llu ", (unsigned long long)v); return trace_add((trace *)u, b); }
static int visit_real(void *u, double v) { char b[32]; sprintf(b, "r%g ", v); return trace_add((trace *)u, b); }
static int visit_string(void *u, const char *s, size_t n) { char b[128]; snprintf(b, sizeof b, "s:%.*s ", (int)n, s); return trace_add((trace *)u, b); }
static int visit_bytes(void *u, const uint8_t *s, size_t n) { char b[64]; sprintf(b, "x%zu:%d ", n, n ? s[0] : -1); return trace_add((trace *)u, b); }
static int visit_date(void *u, double v) { char b[32]; sprintf(b, "d%g ", v); return trace_add((trace *)u, b); }
static int visit_begin_array(void *u, size_t n) { char b[32]; sprintf(b, "[%zu ", n); return trace_add((trace *)u, b); }
static int visit_end_array(void *u) { return trace_add((trace *)u, "] "); }
static int visit_begin_object(void *u, size_t n) { char b[32]; sprintf(b, "{%zu ", n); return trace_add((trace *)u, b); }
static int visit_key(void *u, const char *s, size_t n) { char b[128]; snprintf(b, sizeof b, "k:%.*s ", (int)n, s); return trace_add((trace *)u, b); }
static int visit_end_object(void *u) { return trace_add((trace *)u, "} "); }
static int visit_other(void *u, const satchel_value *v) { char b[32]; sprintf(b, "p%d ", (int)satchel_value_type(v)); return trace_add((trace *)u, b); }

static satchel_visitor tracing_visitor(void) {
    satchel_visitor visitor;
    memset(&visitor, 0, sizeof visitor);
    visitor.struct_size = sizeof visitor;
    visitor.abi_version = SATCHEL_ABI_VERSION;
    visitor.null_value = visit_null;
    visitor.boolean = visit_bool;
    visitor.int64 = visit_int64;
    visitor.uint64 = visit_uint64;
    visitor.real = visit_real;
    visitor.string = visit_string;
    visitor.bytes = visit_bytes;
    visitor.date = visit_date;
    visitor.begin_array = visit_begin_array;
    visitor.end_array = visit_end_array;
    visitor.begin_object = visit_begin_object;
    visitor.key = visit_key;
    visitor.end_object = visit_end_object;
    visitor.other = visit_other;
    return visitor;
}

static void test_visit(satchel_registry *registry) {
    const char *json = "{\"a\":[1,-2,18446744073709551615,2.5,true,null,\"x\u00e9\",\"\"],\"b\":{},\"c\":[]}";
    const char *multipart = "--B\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n--B--\r\n";
    satchel_value *value = NULL, *list = NULL, *element = NULL, *inner = NULL;
    satchel_visitor visitor = tracing_visitor();
    trace t;
    int depth;
    memset(&t, 0, sizeof t);
    OK(satchel_value_parse_json(&value, json, SATCHEL_NTS));
    OK(satchel_value_visit(value, &visitor, &t));
    CHECK(strcmp(t.text, "{3 k:a [8 i1 i-2 u18446744073709551615 r2.5 b1 n s:x\xc3\xa9 s: ] k:b {0 } k:c [0 ] } ") == 0);
    /* A callback that returns non-zero stops the walk there. */
    memset(&t, 0, sizeof t);
    t.stop_at = 5;
    CHECK_STATUS(satchel_value_visit(value, &visitor, &t), SATCHEL_E_CANCELLED);
    CHECK(strcmp(t.text, "{3 k:a [8 i1 i-2 ") == 0);
    /* NULL callbacks skip their kind of node; the containers' contents are still visited. */
    memset(&t, 0, sizeof t);
    visitor.begin_array = NULL;
    visitor.end_array = NULL;
    visitor.key = NULL;
    visitor.int64 = NULL;
    OK(satchel_value_visit(value, &visitor, &t));
    CHECK(strcmp(t.text, "{3 u18446744073709551615 r2.5 b1 n s:x\xc3\xa9 s: {0 } } ") == 0);
    visitor = tracing_visitor();
    CHECK_STATUS(satchel_value_visit(NULL, &visitor, &t), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_value_visit(value, NULL, &t), SATCHEL_E_INVALID_ARGUMENT);
    visitor.abi_version = 99;
    CHECK_STATUS(satchel_value_visit(value, &visitor, &t), SATCHEL_E_ABI_MISMATCH);
    visitor = tracing_visitor();
    satchel_value_free(value);

    /* Bytes, dates and payloads (a multipart value goes to `other`, borrowed for the call). */
    OK(satchel_value_create_array(&list));
    OK(satchel_value_create_bytes(&element, (const uint8_t *)"\x07z", 2));
    OK(satchel_value_array_append(list, element));
    OK(satchel_value_create_bytes(&element, NULL, 0));
    OK(satchel_value_array_append(list, element));
    OK(satchel_value_create_date(&element, 86400.5));
    OK(satchel_value_array_append(list, element));
    OK(satchel_registry_decode(&element, registry, "multipart/form-data; boundary=B", SATCHEL_NTS, multipart, strlen(multipart)));
    OK(satchel_value_array_append(list, element));
    memset(&t, 0, sizeof t);
    OK(satchel_value_visit(list, &visitor, &t));
    CHECK(strcmp(t.text, "[4 x2:7 x0:-1 d86400.5 p12 ] ") == 0);
    satchel_value_free(list);

    /* Depth: ten thousand nested arrays are walked without growing the thread's stack. */
    OK(satchel_value_create_array(&list));
    for (depth = 0; depth < 10000; depth++) {
        inner = list;
        OK(satchel_value_create_array(&list));
        OK(satchel_value_array_append(list, inner)); /* built from the inside out */
    }
    memset(&t, 0, sizeof t);
    visitor.begin_array = NULL;
    visitor.end_array = visit_end_array;
    t.stop_at = 0;
    OK(satchel_value_visit(list, &visitor, &t));
    CHECK(t.nodes == 10001);
    satchel_value_free(list);
}

/* satchel_registry_visit: a body decoded and walked in one call, with no value kept. */
static void test_registry_visit(satchel_registry *registry) {
    const char *json = "{\"a\":[1,-2,18446744073709551615,2.5,true,null,\"x\\u00e9\",\"\"],\"b\":{},\"a\":[]}";
    const char *multipart = "--B\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\nx\r\n--B--\r\n";
    satchel_visitor visitor = tracing_visitor();
    trace t;
    memset(&t, 0, sizeof t);
    OK(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, json, strlen(json), &visitor, &t));
    /* A duplicate name keeps its first place with its last value, as satchel_registry_decode has it. */
    CHECK(strcmp(t.text, "{2 k:a [0 ] k:b {0 } } ") == 0);
    memset(&t, 0, sizeof t);
    OK(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "[1,2.5,\"x\\u00e9\",null]", 22, &visitor, &t));
    CHECK(strcmp(t.text, "[4 i1 r2.5 s:x\xc3\xa9 n ] ") == 0);
    /* Other formats are decoded, then walked; a payload goes to `other`. */
    memset(&t, 0, sizeof t);
    OK(satchel_registry_visit(registry, "multipart/form-data; boundary=B", SATCHEL_NTS, multipart, strlen(multipart),
                              &visitor, &t));
    CHECK(strcmp(t.text, "p12 ") == 0);
    /* A blank body is no value: no call. */
    memset(&t, 0, sizeof t);
    OK(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "  ", 2, &visitor, &t));
    CHECK(t.nodes == 0);
    /* Errors: bad text, a stop, bad arguments. */
    memset(&t, 0, sizeof t);
    CHECK_STATUS(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "[1,", 3, &visitor, &t),
                 SATCHEL_E_TRUNCATED);
    CHECK_STATUS(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "[1,1e400]", 9, &visitor, &t),
                 SATCHEL_E_NUMBER_RANGE);
    memset(&t, 0, sizeof t);
    t.stop_at = 2;
    CHECK_STATUS(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "[1,2,3]", 7, &visitor, &t),
                 SATCHEL_E_CANCELLED);
    CHECK(t.nodes == 2);
    CHECK_STATUS(satchel_registry_visit(NULL, "application/json", SATCHEL_NTS, "[1]", 3, &visitor, &t),
                 SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, "[1]", 3, NULL, &t),
                 SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_visit(registry, "application/json", SATCHEL_NTS, NULL, 3, &visitor, &t),
                 SATCHEL_E_INVALID_ARGUMENT);
}

static void test_builders(satchel_registry *registry) {
    satchel_value *object = NULL, *array = NULL, *element = NULL, *string = NULL, *extra = NULL;
    const satchel_value *borrowed = NULL;
    uint8_t *body = NULL;
    size_t length = 0;
    char *content_type = NULL;
    double seconds = 0;

    OK(satchel_value_create_object(&object));
    OK(satchel_value_create_string(&string, "Ann Lee", SATCHEL_NTS));
    OK(satchel_value_object_set(object, "name", SATCHEL_NTS, string));
    OK(satchel_value_create_array(&array));
    OK(satchel_value_create_int64(&element, -3));
    OK(satchel_value_array_append(array, element));
    OK(satchel_value_create_uint64(&element, 18446744073709551615ULL));
    OK(satchel_value_array_append(array, element));
    OK(satchel_value_create_double(&element, 0.25));
    OK(satchel_value_array_append(array, element));
    OK(satchel_value_create_bool(&element, 7));
    OK(satchel_value_array_append(array, element));
    OK(satchel_value_create_null(&element));
    OK(satchel_value_array_append(array, element));
    OK(satchel_value_object_set(object, "list", 4, array));
    OK(satchel_value_create_bytes(&element, (const uint8_t *)"\x00\x01", 2));
    OK(satchel_value_object_set(object, "raw", SATCHEL_NTS, element));
    OK(satchel_value_create_date(&element, 0));
    OK(satchel_value_get_date(&seconds, element));
    CHECK(seconds == 0);
    OK(satchel_value_object_set(object, "when", SATCHEL_NTS, element));
    OK(satchel_value_create_string(&string, "Bo", 2));
    OK(satchel_value_object_set(object, "name", SATCHEL_NTS, string)); /* replaces, keeps the place */
    CHECK(json_is(object, "{\"list\":[-3,18446744073709551615,0.25,true,null],\"name\":\"Bo\",\"raw\":{\"$data\":\"AAE=\"},\"when\":{\"$date\":\"1970-01-01T00:00:00Z\"}}"));

    CHECK_STATUS(satchel_value_create_string(&string, "\xc3(", 2), SATCHEL_E_ENCODING);
    CHECK(string == NULL);
    CHECK_STATUS(satchel_value_create_date(&element, 1.0 / 0.0), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_value_create_null(&extra));
    CHECK_STATUS(satchel_value_array_append(object, extra), SATCHEL_E_TYPE_MISMATCH);
    CHECK_STATUS(satchel_value_array_append(extra, extra), SATCHEL_E_INVALID_ARGUMENT);
    /* Read a child, then the object can no longer change (pointers into it are out). */
    OK(satchel_value_object_get(&borrowed, object, "name", SATCHEL_NTS));
    CHECK_STATUS(satchel_value_object_set(object, "x", 1, extra), SATCHEL_E_MISUSE);
    /* A borrowed value cannot be taken. */
    OK(satchel_value_create_array(&array));
    CHECK_STATUS(satchel_value_array_append(array, (satchel_value *)borrowed), SATCHEL_E_MISUSE);
    OK(satchel_value_array_append(array, extra)); /* still the caller's after the failures */
    CHECK(json_is(array, "[null]"));
    satchel_value_free(array);

    /* Encode through the registry's request serializers. */
    OK(satchel_value_create_object(&element));
    OK(satchel_value_create_string(&string, "a b&c", SATCHEL_NTS));
    OK(satchel_value_object_set(element, "q", 1, string));
    OK(satchel_registry_encode(&body, &length, &content_type, registry, "application/x-www-form-urlencoded", SATCHEL_NTS, element));
    CHECK(contains((const char *)body, "q=a%20b%26c") && contains(content_type, "application/x-www-form-urlencoded"));
    satchel_free(body);
    satchel_free(content_type);
    OK(satchel_registry_encode(&body, &length, NULL, registry, "application/json", SATCHEL_NTS, object));
    CHECK(length > 0 && body[0] == '{' && body[length] == '\0');
    satchel_free(body);
    OK(satchel_registry_encode(&body, &length, &content_type, registry, "application/x-plist", SATCHEL_NTS, element));
    CHECK(contains((const char *)body, "<key>q</key>") && contains(content_type, "plist"));
    satchel_free(body);
    satchel_free(content_type);
    CHECK_STATUS(satchel_registry_encode(&body, &length, &content_type, registry, "application/x-nothing", SATCHEL_NTS, element), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(body == NULL && content_type == NULL);
    CHECK_STATUS(satchel_registry_encode(&body, &length, NULL, registry, "not a type", SATCHEL_NTS, element), SATCHEL_E_INVALID_MEDIA_TYPE);
    OK(satchel_value_create_double(&extra, 0.0 / 0.0));
    CHECK_STATUS(satchel_registry_encode(&body, &length, NULL, registry, "application/json", SATCHEL_NTS, extra), SATCHEL_E_UNENCODABLE);
    satchel_value_free(extra);
    satchel_value_free(element);
    satchel_value_free(object);
}

/* Whether an error message is one line: no line break in it, no white space at its end. */
static int ends_cleanly(const char *message) {
    size_t length = strlen(message);
    return length > 0 && strchr(message, '\n') == NULL && strchr(message, '\r') == NULL && message[length - 1] != ' ';
}

static void test_registry_decoding(satchel_registry *registry, const char *png_path) {
    satchel_value *value = NULL, *nodes = NULL;
    const satchel_value *member = NULL;
    const char *namespaces[] = {"a", "urn:a", NULL};
    const char *xml = "<r xmlns:a=\"urn:a\"><a:i n=\"1\">x</a:i><a:i n=\"2\">y</a:i></r>";
    const char *batch =
        "--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"ok\":1}\r\n"
        "--b\r\nContent-Type: application/json\r\n\r\n{bad\r\n--b--\r\n";
    unsigned char *png;
    size_t png_length = 0, count = 0;
    uint64_t limit = 0;

    OK(satchel_registry_decode(&value, registry, "application/xml", SATCHEL_NTS, xml, strlen(xml)));
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_XML);
    OK(satchel_value_xml_query(&nodes, value, "//a:i/@n", SATCHEL_NTS, namespaces));
    CHECK(json_is(nodes, "[\"1\",\"2\"]"));
    satchel_value_free(nodes);
    CHECK_STATUS(satchel_value_xml_query(&nodes, value, "//a:i[", SATCHEL_NTS, namespaces), SATCHEL_E_SYNTAX);
    CHECK(ends_cleanly(satchel_last_error_message()));
    CHECK_STATUS(satchel_value_xml_query(&nodes, value, "//b:i", SATCHEL_NTS, namespaces), SATCHEL_E_SYNTAX);
    CHECK(ends_cleanly(satchel_last_error_message()));
    CHECK_STATUS(satchel_value_xml_query(&nodes, value, "count(//i)", SATCHEL_NTS, NULL), SATCHEL_E_TYPE_MISMATCH);
    CHECK(nodes == NULL);
    {
        satchel_image_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        info.abi_version = SATCHEL_ABI_VERSION;
        CHECK_STATUS(satchel_value_image_info(&info, value), SATCHEL_E_TYPE_MISMATCH);
    }
    satchel_value_free(value);

    png = read_file(png_path, &png_length);
    CHECK(png != NULL);
    OK(satchel_registry_decode(&value, registry, NULL, 0, png, png_length)); /* sniffed */
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_IMAGE);
    {
        satchel_image_info info;
        const uint8_t *pixels = NULL;
        size_t pixels_length = 0;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        info.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_value_image_info(&info, value));
        CHECK(strcmp(info.format, "png") == 0 && info.width == 3 && info.height == 2 && info.channels == 4);
        CHECK(info.bit_depth == 8 && info.row_stride == 12 && strcmp(info.color_type, "rgba") == 0 && info.orientation == 1);
        OK(satchel_value_image_pixels(&pixels, &pixels_length, value));
        CHECK(pixels_length == 24 && pixels[0] == 10 && pixels[1] == 20 && pixels[2] == 30 && pixels[3] == 255);
        info.struct_size = 8;
        CHECK_STATUS(satchel_value_image_info(&info, value), SATCHEL_E_ABI_MISMATCH);
        info.struct_size = sizeof info;
        info.abi_version = 99;
        CHECK_STATUS(satchel_value_image_info(&info, value), SATCHEL_E_ABI_MISMATCH);
    }
    satchel_value_free(value);
    CHECK_STATUS(satchel_registry_decode(&value, registry, "image/png", SATCHEL_NTS, png, png_length / 2), SATCHEL_E_TRUNCATED);
    free(png);

    OK(satchel_registry_decode(&value, registry, "multipart/mixed; boundary=b", SATCHEL_NTS, batch, strlen(batch)));
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_MULTIPART);
    OK(satchel_value_count(&count, value));
    CHECK(count == 2);
    {
        satchel_part part;
        satchel_http_info http;
        const char *name = NULL, *text = NULL, *message = NULL;
        size_t name_length = 0, text_length = 0;
        satchel_status part_status = SATCHEL_OK;
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_value_part(&part, value, 0));
        CHECK(part.header_count == 1 && part.content_type_length == 16 && strcmp(part.content_type, "application/http") == 0);
        CHECK(part.name == NULL && part.filename == NULL);
        CHECK(satchel_value_part_header_count(value, 0) == 1);
        CHECK(satchel_value_part_header_count(value, 9) == 0);
        CHECK(satchel_value_part_header_count(NULL, 0) == 0);
        OK(satchel_value_part_header_at(&name, &name_length, &text, &text_length, value, 0, 0));
        CHECK(strcmp(name, "Content-Type") == 0 && strcmp(text, "application/http") == 0);
        CHECK_STATUS(satchel_value_part_header_at(&name, &name_length, &text, &text_length, value, 0, 1), SATCHEL_E_NOT_FOUND);
        CHECK(name == NULL && text == NULL);
        /* The 0.1.0 name answers the same. */
        OK(satchel_value_part_header(&name, &name_length, &text, &text_length, value, 0, 0));
        CHECK(strcmp(name, "Content-Type") == 0 && strcmp(text, "application/http") == 0);
        CHECK_STATUS(satchel_value_part_header(&name, &name_length, &text, &text_length, value, 0, 1), SATCHEL_E_NOT_FOUND);
        CHECK(satchel_value_type(part.value) == SATCHEL_TYPE_HTTP);
        memset(&http, 0, sizeof http);
        http.struct_size = sizeof http;
        http.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_value_http_info(&http, part.value));
        CHECK(http.status == 200 && http.header_count == 1 && json_is(http.value, "{\"ok\":1}"));
        CHECK(satchel_value_http_header_count(part.value) == 1);
        CHECK(satchel_value_http_header_count(value) == 0); /* a multipart value is no message */
        OK(satchel_value_http_header_at(&name, &name_length, &text, &text_length, part.value, 0));
        CHECK(strcmp(name, "Content-Type") == 0 && text_length == 16);
        CHECK_STATUS(satchel_value_http_header_at(&name, &name_length, &text, &text_length, part.value, 1), SATCHEL_E_NOT_FOUND);
        OK(satchel_value_http_header(&name, &name_length, &text, &text_length, part.value, 0));
        CHECK(strcmp(name, "Content-Type") == 0 && text_length == 16);
        OK(satchel_value_part(&part, value, 1));
        CHECK(satchel_value_type(part.value) == SATCHEL_TYPE_ERROR);
        OK(satchel_value_error(&part_status, &message, part.value));
        CHECK(part_status == SATCHEL_E_SYNTAX && strncmp(message, "SATCHEL_E_SYNTAX: ", 18) == 0);
        CHECK_STATUS(satchel_value_part(&part, value, 2), SATCHEL_E_NOT_FOUND);
    }
    satchel_value_free(value);

    /* Blank bodies: no value in every format (empty), and white space alone where the grammar
    ** allows it around a document (JSON, XML, property lists); in text it is content. */
    {
        static const char *const types[] = {"application/json", "application/x-plist", "application/xml",
                                            "text/plain", "application/x-www-form-urlencoded", "image/png",
                                            "multipart/form-data; boundary=B", "application/http"};
        for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
            value = (satchel_value *)&count;
            OK(satchel_registry_decode(&value, registry, types[i], SATCHEL_NTS, "", 0));
            CHECK(value == NULL);
            if (i < 3) {
                value = (satchel_value *)&count;
                OK(satchel_registry_decode(&value, registry, types[i], SATCHEL_NTS, " \r\n", 3));
                CHECK(value == NULL);
            }
        }
        const char *text = NULL;
        size_t text_length = 0;
        OK(satchel_registry_decode(&value, registry, "text/plain", SATCHEL_NTS, " ", 1));
        CHECK(satchel_value_get_string(&text, &text_length, value) == SATCHEL_OK && text_length == 1 && text[0] == ' ');
        satchel_value_free(value);
    }

    /* libxml2's messages end with a line break; the library's messages never do. */
    {
        static const char *const bad[] = {"<a><b></a>", "<a>&undefined;</a>", "<?xml version='1.0' encoding='nope'?><a/>", "<a", "<a b='1' b='2'/>"};
        for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
            CHECK(satchel_registry_decode(&value, registry, "application/xml", SATCHEL_NTS, bad[i], strlen(bad[i])) != SATCHEL_OK);
            CHECK(value == NULL && ends_cleanly(satchel_last_error_message()));
        }
    }

    /* A part's filename is its filename* decoded when it has one (the ASCII fallback otherwise). */
    {
        const char *body = "--B\r\nContent-Disposition: form-data; name=\"f\"; filename=\"caf_.txt\"; filename*=UTF-8''caf%C3%A9.txt\r\n\r\nx\r\n--B--\r\n";
        satchel_part part;
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_registry_decode(&value, registry, "multipart/form-data; boundary=B", SATCHEL_NTS, body, strlen(body)));
        OK(satchel_value_part(&part, value, 0));
        CHECK(part.filename != NULL && strcmp(part.filename, "caf\xc3\xa9.txt") == 0 && part.filename_length == 9);
        satchel_value_free(value);
    }

    /* Multipart flags: unknown bits refused; CRLF only makes a bare LF an error; back to the default. */
    CHECK_STATUS(satchel_registry_set_multipart_flags(registry, 16), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_set_multipart_flags(NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_registry_set_multipart_flags(registry, SATCHEL_MULTIPART_CRLF_ONLY));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "multipart/mixed; boundary=B", SATCHEL_NTS, "--B\n\nx\n--B--", 12), SATCHEL_E_SYNTAX);
    CHECK(contains(satchel_last_error_message(), "bare LF"));
    OK(satchel_registry_set_multipart_flags(registry, SATCHEL_MULTIPART_DEFAULT));
    OK(satchel_registry_decode(&value, registry, "multipart/mixed; boundary=B", SATCHEL_NTS, "--B\n\nx\n--B--", 12));
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_MULTIPART);
    satchel_value_free(value);

    /* A part over 1 MiB is spilled to a file, read through satchel_value_file and _file_read; with
    ** SATCHEL_MULTIPART_IN_MEMORY the same part is bytes. */
    {
        const char *head = "--B\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\n\r\n";
        const char *tail = "\r\n--B--\r\n";
        size_t part_length = 1536 * 1024, head_length = strlen(head), tail_length = strlen(tail);
        size_t body_length = head_length + part_length + tail_length, count = 0;
        uint8_t *body = (uint8_t *)malloc(body_length), piece[100];
        const char *path = NULL, *json_path = NULL;
        char *json = NULL;
        size_t path_length = 0, json_length = 0, i;
        uint64_t file_size = 0;
        const uint8_t *bytes = NULL;
        size_t bytes_length = 0;
        struct stat info;
        satchel_part part;
        memcpy(body, head, head_length);
        for (i = 0; i < part_length; i++) body[head_length + i] = (uint8_t)(i * 7 + (i >> 12));
        memcpy(body + head_length + part_length, tail, tail_length);
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;

        OK(satchel_registry_decode(&value, registry, "multipart/form-data; boundary=B", SATCHEL_NTS, body, body_length));
        OK(satchel_value_part(&part, value, 0));
        CHECK(satchel_value_type(part.value) == SATCHEL_TYPE_OTHER);
        CHECK_STATUS(satchel_value_get_bytes(&bytes, &bytes_length, part.value), SATCHEL_E_TYPE_MISMATCH);
        OK(satchel_value_file(&path, &path_length, &file_size, part.value));
        CHECK(path != NULL && strlen(path) == path_length && file_size == part_length && stat(path, &info) == 0);
        OK(satchel_value_to_json(&json, &json_length, part.value, 0));
        json_path = strstr(json, path);
        CHECK(json_path != NULL && strstr(json, "\"$file\"") != NULL);
        satchel_free(json);
        OK(satchel_value_file_read(&count, part.value, 0, piece, sizeof piece));
        CHECK(count == sizeof piece && memcmp(piece, body + head_length, sizeof piece) == 0);
        OK(satchel_value_file_read(&count, part.value, part_length - 10, piece, sizeof piece));
        CHECK(count == 10 && memcmp(piece, body + head_length + part_length - 10, 10) == 0);
        OK(satchel_value_file_read(&count, part.value, part_length, piece, sizeof piece));
        CHECK(count == 0);
        OK(satchel_value_file_read(&count, part.value, UINT64_MAX, piece, sizeof piece));
        CHECK(count == 0);
        CHECK_STATUS(satchel_value_file_read(&count, part.value, 0, piece, 0), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_value_file_read(&count, part.value, 0, NULL, 10), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_value_file_read(&count, part.value, 0, piece, (size_t)-1), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_value_file(&path, NULL, NULL, value), SATCHEL_E_TYPE_MISMATCH);
        CHECK(path == NULL);
        CHECK_STATUS(satchel_value_file_read(&count, value, 0, piece, sizeof piece), SATCHEL_E_TYPE_MISMATCH);
        {
            char kept[4096];
            OK(satchel_value_file(&path, NULL, NULL, part.value));
            snprintf(kept, sizeof kept, "%s", path);
            satchel_value_free(value); /* the last value holding the file: it is removed */
            CHECK(stat(kept, &info) != 0);
        }

        OK(satchel_registry_set_multipart_flags(registry, SATCHEL_MULTIPART_IN_MEMORY | SATCHEL_MULTIPART_RAW_PARTS));
        OK(satchel_registry_decode(&value, registry, "multipart/form-data; boundary=B", SATCHEL_NTS, body, body_length));
        OK(satchel_value_part(&part, value, 0));
        CHECK(satchel_value_type(part.value) == SATCHEL_TYPE_BYTES);
        OK(satchel_value_get_bytes(&bytes, &bytes_length, part.value));
        CHECK(bytes_length == part_length && memcmp(bytes, body + head_length, part_length) == 0);
        CHECK_STATUS(satchel_value_file(&path, NULL, NULL, part.value), SATCHEL_E_TYPE_MISMATCH);
        satchel_value_free(value);
        OK(satchel_registry_set_multipart_flags(registry, SATCHEL_MULTIPART_DEFAULT));
        free(body);
    }

    /* Unknown and bad media types. */
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/x-unknown", SATCHEL_NTS, "x", 1), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK_STATUS(satchel_registry_decode(&value, registry, "json", SATCHEL_NTS, "1", 1), SATCHEL_E_INVALID_MEDIA_TYPE);

    /* Limits. */
    OK(satchel_registry_get_limit(&limit, registry, SATCHEL_LIMIT_DEPTH));
    CHECK(limit == 512);
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_DEPTH, 2));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, "[[[1]]]", 7), SATCHEL_E_LIMIT);
    CHECK(contains(satchel_last_error_message(), "maxDepth"));
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_DEPTH, 512));
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_BODY_BYTES, 4));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, "[1,2]", 5), SATCHEL_E_LIMIT);
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_BODY_BYTES, 100u * 1024 * 1024));
    CHECK_STATUS(satchel_registry_set_limit(registry, SATCHEL_LIMIT_DEPTH, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_set_limit(registry, (satchel_limit)42, 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_registry_get_limit(&limit, registry, (satchel_limit)0), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, "[1,2]", 5));
    OK(satchel_value_get_string(NULL, NULL, value) == SATCHEL_E_INVALID_ARGUMENT ? SATCHEL_OK : SATCHEL_E_INTERNAL);
    CHECK(satchel_value_type(member) == SATCHEL_TYPE_INVALID);
    satchel_value_free(value);
}

/* A read source over a string, rewindable. */
typedef struct string_source { const char *text; size_t offset; int destroyed; } string_source;
static int64_t source_read(void *userdata, uint8_t *buffer, size_t capacity) {
    string_source *source = (string_source *)userdata;
    size_t left = strlen(source->text) - source->offset;
    size_t count = left < capacity ? left : capacity;
    memcpy(buffer, source->text + source->offset, count);
    source->offset += count;
    return (int64_t)count;
}
static int source_rewind(void *userdata) { ((string_source *)userdata)->offset = 0; return 0; }
static void source_destroy(void *userdata) { ((string_source *)userdata)->destroyed++; }
static int64_t failing_read(void *userdata, uint8_t *buffer, size_t capacity) { (void)userdata; (void)buffer; (void)capacity; return -1; }

static size_t read_all(satchel_multipart *multipart, uint8_t *output, size_t capacity, size_t piece) {
    size_t total = 0, count = 0;
    do {
        size_t want = capacity - total < piece ? capacity - total : piece;
        if (want == 0) break;
        if (satchel_multipart_read(&count, multipart, output + total, want) != SATCHEL_OK) return (size_t)-1;
        total += count;
    } while (count > 0);
    return total;
}

/* A read source whose first read says it has begun, then waits to be let go: while it waits,
** another thread's call into the same builder must be refused. */
typedef struct gate_source { pthread_mutex_t lock; pthread_cond_t changed; int entered, released; } gate_source;
static int64_t gate_read(void *userdata, uint8_t *buffer, size_t capacity) {
    gate_source *gate = (gate_source *)userdata;
    int first;
    pthread_mutex_lock(&gate->lock);
    first = !gate->entered;
    if (first) {
        gate->entered = 1;
        pthread_cond_broadcast(&gate->changed);
        while (!gate->released) pthread_cond_wait(&gate->changed, &gate->lock);
    }
    pthread_mutex_unlock(&gate->lock);
    if (!first || capacity == 0) return 0;
    buffer[0] = 'g';
    return 1;
}
typedef struct gate_reader { satchel_multipart *multipart; satchel_status status; size_t total; } gate_reader;
static void *gate_reader_main(void *argument) {
    gate_reader *reader = (gate_reader *)argument;
    uint8_t buffer[256];
    size_t count = 0;
    do {
        reader->status = satchel_multipart_read(&count, reader->multipart, buffer, sizeof buffer);
        reader->total += count;
    } while (reader->status == SATCHEL_OK && count > 0);
    return NULL;
}

static void test_multipart_concurrent_use(void) {
    satchel_multipart *multipart = NULL;
    satchel_read_source source;
    gate_source gate;
    gate_reader reader;
    pthread_t thread;
    uint8_t buffer[64];
    size_t count = 9;
    memset(&source, 0, sizeof source);
    memset(&gate, 0, sizeof gate);
    pthread_mutex_init(&gate.lock, NULL);
    pthread_cond_init(&gate.changed, NULL);
    source.struct_size = sizeof source;
    source.abi_version = SATCHEL_ABI_VERSION;
    source.length = -1;
    source.read = gate_read;
    source.userdata = &gate;
    OK(satchel_multipart_create(&multipart, "gate", 4));
    OK(satchel_multipart_add_callback(multipart, "g", 1, NULL, 0, NULL, 0, &source));
    reader.multipart = multipart;
    reader.status = SATCHEL_E_INTERNAL;
    reader.total = 0;
    CHECK(pthread_create(&thread, NULL, gate_reader_main, &reader) == 0);
    pthread_mutex_lock(&gate.lock);
    while (!gate.entered) pthread_cond_wait(&gate.changed, &gate.lock);
    pthread_mutex_unlock(&gate.lock);
    /* The other thread is inside satchel_multipart_read, in the callback. */
    CHECK_STATUS(satchel_multipart_read(&count, multipart, buffer, sizeof buffer), SATCHEL_E_MISUSE);
    CHECK(count == 0 && contains(satchel_last_error_message(), "another thread"));
    CHECK_STATUS(satchel_multipart_rewind(multipart), SATCHEL_E_MISUSE);
    CHECK_STATUS(satchel_multipart_add_field(multipart, "late", 4, "x", 1), SATCHEL_E_MISUSE);
    pthread_mutex_lock(&gate.lock);
    gate.released = 1;
    pthread_cond_broadcast(&gate.changed);
    pthread_mutex_unlock(&gate.lock);
    pthread_join(thread, NULL);
    /* The refused calls changed nothing: the reading thread got the whole body. */
    CHECK(reader.status == SATCHEL_OK && reader.total > 0);
    satchel_multipart_free(multipart);
    pthread_cond_destroy(&gate.changed);
    pthread_mutex_destroy(&gate.lock);
}

static void test_multipart(satchel_registry *registry, const char *file_path) {
    satchel_multipart *multipart = NULL;
    satchel_read_source source;
    string_source known = {"callback bytes", 0, 0}, unknown = {"more bytes", 0, 0};
    const char *content_type = NULL;
    size_t content_type_length = 0, total, again, count = 0;
    int64_t length = 0, again_length = 0;
    uint8_t *body = (uint8_t *)malloc(65536), *second = (uint8_t *)malloc(65536);
    satchel_value *value = NULL;
    char type[256];

    CHECK_STATUS(satchel_multipart_create(&multipart, "bad boundary!", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_multipart_create(&multipart, "abc123", SATCHEL_NTS));
    OK(satchel_multipart_content_type(&content_type, &content_type_length, multipart));
    /* "; " before the boundary, as curl, browsers and every HTTP library write it. */
    CHECK(strcmp(content_type, "multipart/form-data; boundary=abc123") == 0 && content_type_length == strlen(content_type));
    OK(satchel_multipart_add_field(multipart, "note", SATCHEL_NTS, "h\xc3\xa9llo", SATCHEL_NTS));
    OK(satchel_multipart_add_data(multipart, "data", 4, "\x01\x02\x03", 3, "d.bin", SATCHEL_NTS, NULL, 0));
    OK(satchel_multipart_add_file(multipart, "file", 4, file_path, NULL, 0, "image/png", SATCHEL_NTS));
    CHECK_STATUS(satchel_multipart_add_file(multipart, "missing", 7, "/nonexistent/file", NULL, 0, NULL, 0), SATCHEL_E_IO);
    CHECK(contains(satchel_last_error_message(), "/nonexistent/file"));
    memset(&source, 0, sizeof source);
    source.struct_size = sizeof source;
    source.abi_version = SATCHEL_ABI_VERSION;
    source.length = (int64_t)strlen(known.text);
    source.read = source_read;
    source.rewind = source_rewind;
    source.userdata = &known;
    source.destroy = source_destroy;
    OK(satchel_multipart_add_callback(multipart, "cb", 2, "cb.txt", SATCHEL_NTS, "text/plain", SATCHEL_NTS, &source));
    OK(satchel_multipart_content_length(&length, multipart));
    CHECK(length > 0);
    source.length = -1;
    source.userdata = &unknown;
    OK(satchel_multipart_add_callback(multipart, "cb2", 3, NULL, 0, NULL, 0, &source));
    OK(satchel_multipart_content_length(&length, multipart));
    CHECK(length == -1);
    source.struct_size = 4;
    CHECK_STATUS(satchel_multipart_add_callback(multipart, "x", 1, NULL, 0, NULL, 0, &source), SATCHEL_E_ABI_MISMATCH);

    total = read_all(multipart, body, 65536, 7);
    CHECK(total != (size_t)-1 && total > 100 && total < 65536);
    CHECK_STATUS(satchel_multipart_add_field(multipart, "late", 4, "x", 1), SATCHEL_E_MISUSE);
    CHECK_STATUS(satchel_multipart_read(&count, multipart, body, 0), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_multipart_rewind(multipart));
    again = read_all(multipart, second, 65536, 4096);
    CHECK(again == total && memcmp(body, second, total) == 0);

    sprintf(type, "%s", content_type);
    OK(satchel_registry_decode(&value, registry, type, SATCHEL_NTS, body, total));
    OK(satchel_value_count(&count, value));
    CHECK(count == 5);
    {
        satchel_part part;
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_value_part(&part, value, 0));
        CHECK(part.name_length == 4 && strcmp(part.name, "note") == 0 && json_is(part.value, "\"h\xc3\xa9llo\""));
        CHECK(part.size == 6);
        OK(satchel_value_part(&part, value, 1));
        CHECK(strcmp(part.filename, "d.bin") == 0 && part.size == 3 && strcmp(part.content_type, "application/octet-stream") == 0);
        OK(satchel_value_part(&part, value, 2));
        CHECK(strcmp(part.filename, "tiny.png") == 0 && satchel_value_type(part.value) == SATCHEL_TYPE_IMAGE);
        OK(satchel_value_part(&part, value, 3));
        CHECK(strcmp(part.name, "cb") == 0 && json_is(part.value, "\"callback bytes\""));
        OK(satchel_value_part(&part, value, 4));
        CHECK(part.size == 10);
    }
    satchel_value_free(value);
    satchel_multipart_free(multipart);
    CHECK(known.destroyed == 1 && unknown.destroyed == 1);

    /* A source whose read fails, and one that cannot rewind. */
    OK(satchel_multipart_create(&multipart, NULL, 0));
    source.struct_size = sizeof source;
    source.length = -1;
    source.read = failing_read;
    source.rewind = NULL;
    source.destroy = NULL;
    OK(satchel_multipart_add_callback(multipart, "bad", 3, NULL, 0, NULL, 0, &source));
    CHECK(read_all(multipart, body, 65536, 100) == (size_t)-1);
    satchel_multipart_free(multipart);

    /* A source without rewind: the rewind itself says it cannot start over once it was read. */
    known.offset = 0;
    OK(satchel_multipart_create(&multipart, NULL, 0));
    source.length = -1;
    source.read = source_read;
    source.userdata = &known;
    OK(satchel_multipart_add_callback(multipart, "once", 4, NULL, 0, NULL, 0, &source));
    OK(satchel_multipart_rewind(multipart)); /* nothing read yet: nothing to start over */
    CHECK(read_all(multipart, body, 65536, 100) != (size_t)-1);
    CHECK_STATUS(satchel_multipart_rewind(multipart), SATCHEL_E_IO);
    CHECK(contains(satchel_last_error_message(), "cannot rewind"));
    /* After a failed rewind every read fails, rather than give an empty body. */
    count = 7;
    CHECK_STATUS(satchel_multipart_read(&count, multipart, body, 64), SATCHEL_E_IO);
    CHECK(count == 0 && contains(satchel_last_error_message(), "failed rewind"));
    CHECK_STATUS(satchel_multipart_read(&count, multipart, body, 64), SATCHEL_E_IO);
    satchel_multipart_free(multipart);

    /* A file that changes size after it was added: the length announced stays the one sized
    ** when it was added, and reading fails rather than sending another length. */
    {
        char path[] = "/tmp/satchel-abi-XXXXXX";
        int descriptor = mkstemp(path);
        CHECK(descriptor >= 0 && write(descriptor, "12345", 5) == 5);
        OK(satchel_multipart_create(&multipart, "grow", SATCHEL_NTS));
        OK(satchel_multipart_add_file(multipart, "f", 1, path, "f.txt", SATCHEL_NTS, NULL, 0));
        OK(satchel_multipart_content_length(&length, multipart));
        CHECK(write(descriptor, "678", 3) == 3);
        OK(satchel_multipart_content_length(&again_length, multipart));
        CHECK(again_length == length);
        CHECK(read_all(multipart, body, 65536, 100) == (size_t)-1);
        CHECK(contains(satchel_last_error_message(), "changed size from 5 to 8"));
        satchel_multipart_free(multipart);
        close(descriptor);
        unlink(path);
    }
    free(body);
    free(second);
}

/* An inline plugin: application/x-upper decodes to the body in upper case; "fail" fails. */
static satchel_status upper_decode(void *userdata, const satchel_host *host, const char *content_type, size_t content_type_length,
                                   const uint8_t *body, size_t length, satchel_value **out_value) {
    char *upper = (char *)host->allocate(length + 1);
    size_t index;
    satchel_status status;
    (void)content_type; (void)content_type_length;
    ++*(int *)userdata;
    if (length == 4 && memcmp(body, "fail", 4) == 0) { host->free(upper); host->set_error_message("upper: the body says fail"); return SATCHEL_E_SYNTAX; }
    for (index = 0; index < length; index++) upper[index] = (char)(body[index] >= 'a' && body[index] <= 'z' ? body[index] - 32 : body[index]);
    status = host->value_create_string(out_value, upper, length);
    host->free(upper);
    return status;
}
static void upper_destroy(void *userdata) { *(int *)userdata = -1000; }
/* Version 2's sniff: bodies starting with "UPPER:" are application/x-upper; "BAD:" answers
** something that is not a media type, which the library ignores. */
static const char *upper_sniff(void *userdata, const uint8_t *prefix, size_t length) {
    (void)userdata;
    if (length >= 6 && memcmp(prefix, "UPPER:", 6) == 0) return "application/x-upper";
    if (length >= 4 && memcmp(prefix, "BAD:", 4) == 0) return "not a media type";
    return NULL;
}

static void test_plugins(const char *plugin_path) {
    satchel_registry *registry = NULL;
    satchel_response_serializer serializer;
    static const char *const types[] = {"application/x-upper", NULL};
    static const char *const bad_types[] = {"not a media type", NULL};
    int calls = 0;
    satchel_value *value = NULL, *rows = NULL;
    const char *mixed = "--q\r\nContent-Type: application/x-upper\r\n\r\nabc\r\n--q--\r\n";
    uint8_t *body = NULL;
    size_t length = 0;

    OK(satchel_registry_create(&registry));
    memset(&serializer, 0, sizeof serializer);
    serializer.struct_size = sizeof serializer;
    serializer.abi_version = SATCHEL_ABI_VERSION;
    serializer.name = "upper";
    serializer.media_types = types;
    serializer.decode = upper_decode;
    serializer.userdata = &calls;
    serializer.destroy = upper_destroy;
    OK(satchel_registry_register_response_serializer(registry, &serializer));
    OK(satchel_registry_decode(&value, registry, "application/x-upper", SATCHEL_NTS, "hello", 5));
    CHECK(calls == 1 && json_is(value, "\"HELLO\""));
    satchel_value_free(value);
    OK(satchel_registry_decode(&value, registry, "multipart/mixed; boundary=q", SATCHEL_NTS, mixed, strlen(mixed)));
    {
        satchel_part part;
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;
        OK(satchel_value_part(&part, value, 0));
        CHECK(calls == 2 && json_is(part.value, "\"ABC\""));
    }
    satchel_value_free(value);
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/x-upper", SATCHEL_NTS, "fail", 4), SATCHEL_E_SYNTAX);
    CHECK(contains(satchel_last_error_message(), "upper: the body says fail"));

    serializer.media_types = bad_types;
    CHECK_STATUS(satchel_registry_register_response_serializer(registry, &serializer), SATCHEL_E_INVALID_MEDIA_TYPE);
    serializer.media_types = types;
    serializer.decode = NULL;
    CHECK_STATUS(satchel_registry_register_response_serializer(registry, &serializer), SATCHEL_E_INVALID_ARGUMENT);
    serializer.abi_version = 7;
    CHECK_STATUS(satchel_registry_register_response_serializer(registry, &serializer), SATCHEL_E_ABI_MISMATCH);

    /* Sniffing (version 2): a body without a Content-Type that the plugin recognises. */
    serializer.abi_version = SATCHEL_ABI_VERSION;
    serializer.decode = upper_decode;
    serializer.sniff = upper_sniff;
    OK(satchel_registry_register_response_serializer(registry, &serializer));
    OK(satchel_registry_decode(&value, registry, NULL, 0, "UPPER:abc", 9));
    CHECK(calls == 4 && json_is(value, "\"UPPER:ABC\""));
    satchel_value_free(value);
    OK(satchel_registry_decode(&value, registry, NULL, 0, "{\"a\":1}", 7)); /* the built-ins still sniff */
    CHECK(json_is(value, "{\"a\":1}"));
    satchel_value_free(value);
    value = NULL;
    CHECK_STATUS(satchel_registry_decode(&value, registry, NULL, 0, "BAD:abc", 7), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(value == NULL && calls == 4);
    {
        /* A version 1 struct ends before `sniff`: it registers, and nothing past it is read (the
        ** copy is exactly that long, so AddressSanitizer and valgrind would see an overread). */
        size_t version1 = offsetof(satchel_response_serializer, sniff);
        satchel_response_serializer *old = (satchel_response_serializer *)malloc(version1);
        memcpy(old, &serializer, version1);
        old->struct_size = (uint32_t)version1;
        old->abi_version = 1;
        OK(satchel_registry_register_response_serializer(registry, old));
        old->struct_size = (uint32_t)version1 - 8;
        CHECK_STATUS(satchel_registry_register_response_serializer(registry, old), SATCHEL_E_ABI_MISMATCH);
        CHECK(contains(satchel_last_error_message(), "smaller than version 1's"));
        free(old);
        {
            /* A struct_size that ends inside `sniff` counts it as NULL: a fresh registry with only
            ** such a serializer does not recognise "UPPER:". */
            satchel_registry *partial = NULL;
            satchel_response_serializer cut = serializer;
            OK(satchel_registry_create(&partial));
            cut.struct_size = (uint32_t)(version1 + 4);
            cut.userdata = &calls;
            cut.destroy = NULL;
            OK(satchel_registry_register_response_serializer(partial, &cut));
            value = NULL;
            CHECK_STATUS(satchel_registry_decode(&value, partial, NULL, 0, "UPPER:abc", 9), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
            CHECK(value == NULL && calls == 4);
            satchel_registry_free(partial);
        }
        OK(satchel_registry_decode(&value, registry, "application/x-upper", SATCHEL_NTS, "v1", 2));
        CHECK(calls == 5 && json_is(value, "\"V1\""));
        satchel_value_free(value);
    }

    CHECK_STATUS(satchel_registry_load_plugin(registry, "/nonexistent/plugin.so"), SATCHEL_E_PLUGIN);
    CHECK(contains(satchel_last_error_message(), "/nonexistent/plugin.so"));
    OK(satchel_registry_load_plugin(registry, plugin_path));
    OK(satchel_registry_decode(&rows, registry, "text/csv", SATCHEL_NTS, "a,b\r\n1,\"x,y\"\r\n", 14));
    CHECK(json_is(rows, "[{\"a\":\"1\",\"b\":\"x,y\"}]"));
    OK(satchel_registry_encode(&body, &length, NULL, registry, "text/csv", SATCHEL_NTS, rows));
    CHECK(length == 14 && memcmp(body, "a,b\r\n1,\"x,y\"\r\n", 14) == 0);
    satchel_free(body);
    satchel_value_free(rows);
    CHECK_STATUS(satchel_registry_decode(&rows, registry, "text/csv", SATCHEL_NTS, "a,b\n1,2,3\n", 10), SATCHEL_E_SYNTAX);
    CHECK(contains(satchel_last_error_message(), "more fields than the header"));
    CHECK_STATUS(satchel_registry_decode(&rows, registry, "text/csv", SATCHEL_NTS, "a,b\n1\n", 6), SATCHEL_E_SYNTAX);
    CHECK(contains(satchel_last_error_message(), "fewer fields than the header"));
    CHECK_STATUS(satchel_registry_decode(&rows, registry, "text/csv", SATCHEL_NTS, "a\n\"open", 7), SATCHEL_E_TRUNCATED);
    CHECK(contains(satchel_last_error_message(), "not closed") && contains(satchel_last_error_message(), "at byte 7"));
    CHECK_STATUS(satchel_registry_decode(&rows, registry, "text/csv", SATCHEL_NTS, "a\n\xff\n", 4), SATCHEL_E_ENCODING);
    CHECK(rows == NULL);

    satchel_registry_free(registry);
    CHECK(calls == -1000); /* destroy ran with the registry */
}

/* Two threads: each sees its own last error message. */
typedef struct thread_work { const char *json; satchel_status expected; const char *message_part; int ok; } thread_work;
static void *thread_main(void *argument) {
    thread_work *work = (thread_work *)argument;
    int round;
    work->ok = 1;
    for (round = 0; round < 200; round++) {
        satchel_value *value = NULL;
        satchel_status status = satchel_value_parse_json(&value, work->json, SATCHEL_NTS);
        if (status != work->expected || !contains(satchel_last_error_message(), work->message_part)) work->ok = 0;
        satchel_value_free(value);
    }
    return NULL;
}

static void test_threads(void) {
    pthread_t first, second;
    thread_work syntax = {"[1,,2]", SATCHEL_E_SYNTAX, "SATCHEL_E_SYNTAX", 0};
    thread_work truncated = {"[1,2", SATCHEL_E_TRUNCATED, "SATCHEL_E_TRUNCATED", 0};
    pthread_create(&first, NULL, thread_main, &syntax);
    pthread_create(&second, NULL, thread_main, &truncated);
    pthread_join(first, NULL);
    pthread_join(second, NULL);
    CHECK(syntax.ok && truncated.ok);
}

static int cancel_at_first_report(void *userdata, int64_t uploaded, int64_t upload_total, int64_t downloaded, int64_t download_total) {
    (void)uploaded; (void)upload_total; (void)downloaded; (void)download_total;
    ++*(int *)userdata;
    return 1;
}

typedef struct completion_record { satchel_status status; int status_code; int calls; char message[256]; } completion_record;
static void on_completion(void *userdata, satchel_status status, const char *message, satchel_response *response) {
    completion_record *record = (completion_record *)userdata;
    record->status = status;
    record->status_code = satchel_response_status(response);
    sprintf(record->message, "%.200s", message);
    record->calls++;
    satchel_response_free(response);
}

static void test_transport(const char *base, const char *tls_base, const char *ca_file, const char *pin, const char *wrong_pin) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_value *parameters = NULL, *string = NULL;
    const satchel_value *value = NULL, *member = NULL;
    const char *text = NULL, *name = NULL;
    const uint8_t *body = NULL;
    size_t length = 0, name_length = 0;
    int reports = 0;
    char url[512];

    OK(satchel_session_create(&session, base, SATCHEL_NTS, NULL));
    OK(satchel_session_set_header(session, "X-Satchel-Test", SATCHEL_NTS, "c", 1));
    CHECK_STATUS(satchel_session_set_header(session, "X-Bad", SATCHEL_NTS, "a\r\nInjected: 1", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_header(session, "Bad Name", SATCHEL_NTS, "x", 1), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_session_set_timeout(session, SATCHEL_TIMEOUT_REQUEST, 20000));
    CHECK_STATUS(satchel_session_set_timeout(session, (satchel_timeout)9, 1), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_session_set_retries(session, 0));
    OK(satchel_session_set_max_redirects(session, 3));

    /* GET with query parameters. */
    OK(satchel_request_create(&request, "GET", SATCHEL_NTS, "get", SATCHEL_NTS));
    OK(satchel_value_create_object(&parameters));
    OK(satchel_value_create_string(&string, "a b", SATCHEL_NTS));
    OK(satchel_value_object_set(parameters, "q", 1, string));
    OK(satchel_request_set_parameters(request, parameters, NULL, 0));
    OK(satchel_request_add_header(request, "X-Request", SATCHEL_NTS, "1", 1));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    CHECK(satchel_response_header_count(response) > 0);
    OK(satchel_response_header(&text, &length, response, "content-type", SATCHEL_NTS));
    CHECK(contains(text, "application/json"));
    CHECK_STATUS(satchel_response_header(&text, &length, response, "X-Absent", SATCHEL_NTS), SATCHEL_E_NOT_FOUND);
    OK(satchel_response_header_at(&name, &name_length, &text, &length, response, 0));
    CHECK(name_length > 0);
    OK(satchel_response_body(&body, &length, response));
    CHECK(length > 10 && body[0] == '{');
    value = satchel_response_value(response);
    OK(satchel_value_object_get(&member, value, "args", SATCHEL_NTS));
    CHECK(json_is(member, "{\"q\":\"a b\"}"));
    OK(satchel_value_object_get(&member, value, "headers", SATCHEL_NTS));
    OK(satchel_value_object_get(&member, member, "X-Satchel-Test", SATCHEL_NTS));
    CHECK(json_is(member, "\"c\""));
    satchel_response_free(response);
    satchel_request_free(request);

    /* POST JSON parameters. */
    OK(satchel_request_create(&request, "POST", 4, "/post", SATCHEL_NTS));
    OK(satchel_request_set_parameters(request, parameters, "application/json", SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    OK(satchel_value_object_get(&member, satchel_response_value(response), "json", SATCHEL_NTS));
    CHECK(json_is(member, "{\"q\":\"a b\"}"));
    satchel_response_free(response);
    CHECK_STATUS(satchel_request_set_parameters(request, parameters, "application/x-nothing", SATCHEL_NTS), SATCHEL_OK);
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(response == NULL);
    satchel_request_free(request);
    satchel_value_free(parameters);

    /* A body of its own, with a media type as Content-Type; a content type that is not one is refused. */
    OK(satchel_request_create(&request, "PUT", 3, "/anything", SATCHEL_NTS));
    CHECK_STATUS(satchel_request_set_body(request, "hi", 2, "not a media type", SATCHEL_NTS), SATCHEL_E_INVALID_MEDIA_TYPE);
    CHECK_STATUS(satchel_request_set_body_file(request, "/dev/null", "text/plain\r\nX-Injected: 1", SATCHEL_NTS), SATCHEL_E_INVALID_MEDIA_TYPE);
    OK(satchel_request_set_body(request, "hi", 2, "text/plain; charset=utf-8", SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    OK(satchel_value_object_get(&member, satchel_response_value(response), "data", SATCHEL_NTS));
    CHECK(json_is(member, "\"hi\""));
    OK(satchel_value_object_get(&member, satchel_response_value(response), "headers", SATCHEL_NTS));
    OK(satchel_value_object_get(&member, member, "Content-Type", SATCHEL_NTS));
    CHECK(json_is(member, "\"text/plain; charset=utf-8\""));
    satchel_response_free(response);
    satchel_request_free(request);

    /* A bad status: the response is still there. */
    OK(satchel_request_create(&request, "GET", 3, "/status/404", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(response != NULL && satchel_response_status(response) == 404);
    satchel_response_free(response);
    satchel_request_free(request);

    /* Progress that cancels: httpbin drips 10 bytes over 10 s, so the transfer is still
    ** running when the first report comes. */
    OK(satchel_request_create(&request, "GET", 3, "/drip?numbytes=10&duration=10&delay=0", SATCHEL_NTS));
    OK(satchel_request_set_progress(request, cancel_at_first_report, &reports));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANCELLED);
    CHECK(reports >= 1);
    satchel_response_free(response);
    satchel_request_free(request);

    /* Asynchronous, then waited for; then cancelled while the server delays. */
    {
        completion_record record;
        satchel_task *task = NULL;
        memset(&record, 0, sizeof record);
        OK(satchel_request_create(&request, "GET", 3, "/get", SATCHEL_NTS));
        OK(satchel_session_send_async(&task, session, request, on_completion, &record));
        satchel_request_free(request); /* copied by send_async */
        OK(satchel_task_wait(task));
        OK(satchel_task_wait(task));
        CHECK(record.calls == 1 && record.status == SATCHEL_OK && record.status_code == 200);
        satchel_task_free(task);

        memset(&record, 0, sizeof record);
        OK(satchel_request_create(&request, "GET", 3, "/delay/10", SATCHEL_NTS));
        OK(satchel_session_send_async(&task, session, request, on_completion, &record));
        OK(satchel_task_cancel(task));
        OK(satchel_task_wait(task));
        CHECK(record.calls == 1 && record.status == SATCHEL_E_CANCELLED && contains(record.message, "cancel"));
        satchel_task_free(task);
        satchel_request_free(request);
        CHECK_STATUS(satchel_session_send_async(&task, session, NULL, on_completion, &record), SATCHEL_E_INVALID_ARGUMENT);
    }
    satchel_session_free(session);

    /* Nothing listening. */
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    OK(satchel_request_create(&request, "GET", 3, "http://127.0.0.1:1/", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANNOT_CONNECT);
    CHECK(response == NULL);
    satchel_request_free(request);
    CHECK_STATUS(satchel_request_create(&request, "GE T", SATCHEL_NTS, "/", 1), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
    CHECK_STATUS(satchel_session_create(&session, "ftp://x/", SATCHEL_NTS, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(session == NULL);

    if (!tls_base) return;
    /* TLS: the test CA plus a public-key pin, then a wrong pin. */
    sprintf(url, "%s/get", tls_base);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_ca_file(session, ca_file));
    OK(satchel_session_add_pinned_public_key(session, pin, SATCHEL_NTS));
    CHECK_STATUS(satchel_session_add_pinned_public_key(session, "sha256//tooshort", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    satchel_response_free(response);
    satchel_session_free(session);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_ca_file(session, ca_file));
    OK(satchel_session_add_pinned_public_key(session, wrong_pin, SATCHEL_NTS));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_TLS);
    satchel_session_free(session);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_TLS); /* untrusted CA */
    OK(satchel_session_set_allow_invalid_certificates(session, 1));
    OK(satchel_session_set_validates_domain_name(session, 0));
    OK(satchel_session_send(&response, session, request));
    satchel_response_free(response);
    satchel_session_free(session);
    satchel_request_free(request);
}

static void sleep_ms(long milliseconds) {
    struct timespec wait;
    wait.tv_sec = milliseconds / 1000;
    wait.tv_nsec = (milliseconds % 1000) * 1000000L;
    nanosleep(&wait, NULL);
}

static long file_size(const char *path) {
    struct stat info;
    return stat(path, &info) == 0 ? (long)info.st_size : -1;
}

/* Whether the file holds httpbin's /range bytes: 'a' + i % 26. */
static int holds_range_bytes(const char *path, long expected) {
    FILE *file = fopen(path, "rb");
    long i = 0;
    int c;
    if (!file) return 0;
    while ((c = fgetc(file)) != EOF) {
        if (c != 'a' + (int)(i % 26)) { fclose(file); return 0; }
        i++;
    }
    fclose(file);
    return i == expected;
}

static int cancel_after_200_bytes(void *userdata, int64_t uploaded, int64_t upload_total, int64_t downloaded, int64_t download_total) {
    (void)userdata; (void)uploaded; (void)upload_total; (void)download_total;
    return downloaded >= 200;
}

static void test_downloads(const char *base) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    const uint8_t *body = NULL;
    size_t length = 0;
    int64_t size = -1, resumed = -1;
    char directory[] = "/tmp/satchel-abi-XXXXXX";
    char destination[64], partial[80], url[512];

    CHECK(mkdtemp(directory) != NULL);
    sprintf(destination, "%s/range.bin", directory);
    sprintf(partial, "%s.part", destination);
    sprintf(url, "%s/range/1000?duration=2&chunk_size=50", base);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));

    /* Interrupted (the progress callback cancels): the partial file stays, the file is not there. */
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    CHECK_STATUS(satchel_request_set_destination(request, destination, 4), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_request_set_destination(request, destination, 8), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_request_set_destination(request, destination, SATCHEL_DOWNLOAD_RESUME));
    OK(satchel_request_set_progress(request, cancel_after_200_bytes, NULL));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANCELLED);
    satchel_response_free(response);
    CHECK(file_size(destination) == -1);
    CHECK(file_size(partial) >= 200 && file_size(partial) < 1000);

    /* Resumed: a Range request for the rest, appended; the file appears whole. */
    {
        long on_disk = file_size(partial);
        OK(satchel_request_set_progress(request, NULL, NULL));
        OK(satchel_session_send(&response, session, request));
        CHECK(satchel_response_status(response) == 206);
        OK(satchel_response_download(&size, &resumed, response));
        CHECK(size == 1000 && resumed == on_disk);
        OK(satchel_response_body(&body, &length, response));
        CHECK(length == 0);
        CHECK(satchel_response_value(response) == NULL);
        satchel_response_free(response);
        CHECK(holds_range_bytes(destination, 1000));
        CHECK(file_size(partial) == -1);
    }
    satchel_request_free(request);

    /* Without RESUME, a partial file is discarded and the download starts over; NO_SYNC (no
    ** flush before the rename) saves the same file. */
    {
        FILE *stale = fopen(partial, "wb");
        if (stale) { fputs("stale", stale); fclose(stale); }
        sprintf(url, "%s/range/300", base);
        OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
        OK(satchel_request_set_destination(request, destination, SATCHEL_DOWNLOAD_NO_SYNC));
        OK(satchel_session_send(&response, session, request));
        OK(satchel_response_download(&size, &resumed, response));
        CHECK(size == 300 && resumed == 0);
        CHECK(holds_range_bytes(destination, 300));
        satchel_response_free(response);
        satchel_request_free(request);
    }

    /* An unacceptable status saves nothing; its body is the response's. */
    sprintf(url, "%s/status/404", base);
    unlink(destination);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_request_set_destination(request, destination, SATCHEL_DOWNLOAD_RESUME));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(response != NULL && satchel_response_status(response) == 404);
    CHECK_STATUS(satchel_response_download(&size, &resumed, response), SATCHEL_E_NOT_FOUND);
    CHECK(file_size(destination) == -1 && file_size(partial) == -1);
    satchel_response_free(response);
    /* NULL returns the body to memory. */
    OK(satchel_request_set_destination(request, NULL, 0));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK_STATUS(satchel_response_download(NULL, NULL, response), SATCHEL_E_NOT_FOUND);
    satchel_response_free(response);
    /* The request's acceptable statuses: 404 among them, then every status, then not 404. */
    {
        const uint16_t found_or_missing[] = {200, 299, 404, 404};
        const uint16_t only_201[] = {201, 201};
        const uint16_t backwards[] = {299, 200};
        const uint16_t too_high[] = {200, 600};
        OK(satchel_request_set_acceptable_statuses(request, found_or_missing, 2));
        OK(satchel_session_send(&response, session, request));
        CHECK(satchel_response_status(response) == 404);
        satchel_response_free(response);
        OK(satchel_request_set_acceptable_statuses(request, NULL, 0));
        OK(satchel_session_send(&response, session, request));
        satchel_response_free(response);
        OK(satchel_request_set_acceptable_statuses(request, only_201, 1));
        CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
        CHECK(response != NULL && satchel_response_status(response) == 404);
        satchel_response_free(response);
        CHECK_STATUS(satchel_request_set_acceptable_statuses(request, backwards, 1), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_request_set_acceptable_statuses(request, too_high, 1), SATCHEL_E_INVALID_ARGUMENT);
        CHECK(contains(satchel_last_error_message(), "100 to 599"));
        CHECK_STATUS(satchel_request_set_acceptable_statuses(request, NULL, 1), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_request_set_acceptable_statuses(request, only_201, (size_t)-1), SATCHEL_E_INVALID_ARGUMENT);
        CHECK_STATUS(satchel_request_set_acceptable_statuses(NULL, only_201, 1), SATCHEL_E_INVALID_ARGUMENT);
    }
    satchel_request_free(request);
    satchel_session_free(session);
    rmdir(directory);
}

typedef struct stream_record {
    pthread_mutex_t lock;
    size_t bytes;
    int calls;
    int verdict;        /* what to return */
    int pause_at_call;  /* return SATCHEL_DATA_PAUSE at this call (1-based), 0 never */
    int bad_byte;       /* a byte differed from httpbin's /range pattern */
} stream_record;

static int on_data(void *userdata, const uint8_t *data, size_t length) {
    stream_record *record = (stream_record *)userdata;
    size_t i;
    int calls;
    pthread_mutex_lock(&record->lock);
    for (i = 0; i < length; i++) {
        if (data[i] != 'a' + (int)((record->bytes + i) % 26)) record->bad_byte = 1;
    }
    record->bytes += length;
    calls = ++record->calls;
    pthread_mutex_unlock(&record->lock);
    if (record->pause_at_call == calls) return SATCHEL_DATA_PAUSE;
    return record->verdict;
}

static stream_record stream_snapshot(stream_record *record) {
    stream_record copy;
    pthread_mutex_lock(&record->lock);
    copy = *record;
    pthread_mutex_unlock(&record->lock);
    return copy;
}

static void reset_stream(stream_record *record, int verdict, int pause_at_call) {
    pthread_mutex_lock(&record->lock);
    record->bytes = 0;
    record->calls = 0;
    record->verdict = verdict;
    record->pause_at_call = pause_at_call;
    record->bad_byte = 0;
    pthread_mutex_unlock(&record->lock);
}

static void test_streams(const char *base) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_task *task = NULL;
    const uint8_t *body = NULL;
    size_t length = 0;
    stream_record record;
    completion_record done;
    char url[512];

    memset(&record, 0, sizeof record);
    pthread_mutex_init(&record.lock, NULL);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    sprintf(url, "%s/range/102400?chunk_size=4096", base);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));

    /* Every byte, in order, to the callback; the response keeps none. */
    reset_stream(&record, SATCHEL_DATA_CONTINUE, 0);
    OK(satchel_request_set_data_callback(request, on_data, &record));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    CHECK(record.bytes == 102400 && record.calls >= 2 && !record.bad_byte);
    OK(satchel_response_body(&body, &length, response));
    CHECK(length == 0 && satchel_response_value(response) == NULL);
    satchel_response_free(response);

    /* Any other return value cancels. */
    reset_stream(&record, 7, 0);
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANCELLED);
    CHECK(record.calls == 1);
    satchel_response_free(response);

    /* A pause with no task to resume it is a misuse. */
    reset_stream(&record, SATCHEL_DATA_CONTINUE, 1);
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_MISUSE);
    satchel_response_free(response);

    /* Paused through an asynchronous task: nothing arrives until it is resumed. */
    reset_stream(&record, SATCHEL_DATA_CONTINUE, 1);
    memset(&done, 0, sizeof done);
    OK(satchel_session_send_async(&task, session, request, on_completion, &done));
    {
        int waited = 0;
        while (stream_snapshot(&record).calls < 1 && waited++ < 1000) sleep_ms(10);
        sleep_ms(300);
        CHECK(stream_snapshot(&record).calls == 1);
        OK(satchel_task_resume(task));
    }
    OK(satchel_task_wait(task));
    CHECK(done.calls == 1 && done.status == SATCHEL_OK && done.status_code == 200);
    CHECK(record.bytes == 102400 && !record.bad_byte);
    satchel_task_free(task);

    /* Cancelled while paused. */
    reset_stream(&record, SATCHEL_DATA_CONTINUE, 1);
    memset(&done, 0, sizeof done);
    OK(satchel_session_send_async(&task, session, request, on_completion, &done));
    {
        int waited = 0;
        while (stream_snapshot(&record).calls < 1 && waited++ < 1000) sleep_ms(10);
    }
    OK(satchel_task_cancel(task));
    OK(satchel_task_wait(task));
    CHECK(done.calls == 1 && done.status == SATCHEL_E_CANCELLED);
    CHECK(record.calls == 1);
    satchel_task_free(task);

    /* An unacceptable status ends the send before any data. */
    sprintf(url, "%s/status/500", base);
    satchel_request_free(request);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    reset_stream(&record, SATCHEL_DATA_CONTINUE, 0);
    OK(satchel_request_set_data_callback(request, on_data, &record));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(response != NULL && satchel_response_status(response) == 500);
    CHECK(record.calls == 0);
    satchel_response_free(response);
    satchel_request_free(request);
    satchel_session_free(session);
    pthread_mutex_destroy(&record.lock);
}

typedef struct event_record {
    pthread_mutex_t lock;
    int starts, redirects, retries, metrics, completes;
    int redirect_status, complete_status, retry_number;
    satchel_status complete_error, retry_error;
    char location[256], http_version[16], method[16];
    double total_ms;
    int wrong_size;
} event_record;

static void on_event(void *userdata, const satchel_event *event) {
    event_record *record = (event_record *)userdata;
    pthread_mutex_lock(&record->lock);
    if (event->struct_size < sizeof(satchel_event) || event->abi_version != SATCHEL_ABI_VERSION) record->wrong_size = 1;
    if (event->method) sprintf(record->method, "%.15s", event->method);
    switch (event->kind) {
    case SATCHEL_EVENT_WARNING: break;
    case SATCHEL_EVENT_START: record->starts++; break;
    case SATCHEL_EVENT_REDIRECT:
        record->redirects++;
        record->redirect_status = event->status;
        sprintf(record->location, "%.200s", event->location);
        break;
    case SATCHEL_EVENT_RETRY:
        record->retries++;
        record->retry_number = (int)event->retry;
        record->retry_error = event->error;
        break;
    case SATCHEL_EVENT_METRICS:
        record->metrics++;
        record->total_ms = event->metrics->total_ms;
        sprintf(record->http_version, "%.15s", event->metrics->http_version);
        break;
    case SATCHEL_EVENT_COMPLETE:
        record->completes++;
        record->complete_status = event->status;
        record->complete_error = event->error;
        if (event->error != SATCHEL_OK && (event->message == NULL || event->message[0] == 0)) record->wrong_size = 1;
        break;
    }
    pthread_mutex_unlock(&record->lock);
}

static void test_events_and_metrics(const char *base) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_metrics metrics;
    event_record record;
    char url[512];

    memset(&record, 0, sizeof record);
    pthread_mutex_init(&record.lock, NULL);
    OK(satchel_session_create(&session, base, SATCHEL_NTS, NULL));
    OK(satchel_session_set_event_callback(session, on_event, &record));
    OK(satchel_request_create(&request, "GET", 3, "/redirect/1", SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    pthread_mutex_lock(&record.lock);
    CHECK(record.starts == 2 && record.redirects == 1 && record.completes == 1 && !record.wrong_size);
    CHECK(record.redirect_status == 302 && contains(record.location, "/get"));
    CHECK(record.metrics >= 1 && record.total_ms > 0 && strcmp(record.http_version, "1.1") == 0);
    CHECK(record.complete_status == 200 && record.complete_error == SATCHEL_OK && strcmp(record.method, "GET") == 0);
    pthread_mutex_unlock(&record.lock);

    memset(&metrics, 0, sizeof metrics);
    CHECK_STATUS(satchel_response_metrics(&metrics, response), SATCHEL_E_ABI_MISMATCH);
    metrics.struct_size = sizeof metrics;
    metrics.abi_version = SATCHEL_ABI_VERSION;
    OK(satchel_response_metrics(&metrics, response));
    CHECK(metrics.redirect_count == 1 && metrics.retry_count == 0);
    CHECK(metrics.bytes_received > 0 && metrics.total_ms > 0 && metrics.elapsed_ms >= metrics.total_ms);
    CHECK(metrics.first_byte_ms <= metrics.total_ms && strcmp(metrics.http_version, "1.1") == 0);
    satchel_response_free(response);
    satchel_request_free(request);

    /* A retry after a failure to connect, then the failure. */
    OK(satchel_session_set_retries(session, 1));
    sprintf(url, "http://127.0.0.1:1/");
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANNOT_CONNECT);
    pthread_mutex_lock(&record.lock);
    CHECK(record.retries == 1 && record.retry_number == 1 && record.retry_error == SATCHEL_E_CANNOT_CONNECT);
    CHECK(record.completes == 2 && record.complete_status == 0 && record.complete_error == SATCHEL_E_CANNOT_CONNECT);
    pthread_mutex_unlock(&record.lock);
    satchel_request_free(request);

    /* Removed: later requests report nothing. */
    OK(satchel_session_set_event_callback(session, NULL, NULL));
    OK(satchel_request_create(&request, "GET", 3, "/get", SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    satchel_response_free(response);
    CHECK(record.completes == 2);
    satchel_request_free(request);
    satchel_session_free(session);
    pthread_mutex_destroy(&record.lock);
}

typedef struct reachability_record {
    pthread_mutex_t lock;
    int calls;
    satchel_reachability_info last;
} reachability_record;

static void on_reachability(void *userdata, const satchel_reachability_info *info) {
    reachability_record *record = (reachability_record *)userdata;
    pthread_mutex_lock(&record->lock);
    record->calls++;
    record->last = *info;
    pthread_mutex_unlock(&record->lock);
}

/* Waits (up to 10 s) until the callback has reported `status`. */
static int await_reachability(reachability_record *record, satchel_reachability_status status) {
    int waited;
    for (waited = 0; waited < 1000; waited++) {
        int seen;
        pthread_mutex_lock(&record->lock);
        seen = record->calls > 0 && record->last.status == status;
        pthread_mutex_unlock(&record->lock);
        if (seen) return 1;
        sleep_ms(10);
    }
    return 0;
}

static void init_info(satchel_reachability_info *info) {
    memset(info, 0, sizeof *info);
    info->struct_size = sizeof *info;
    info->abi_version = SATCHEL_ABI_VERSION;
}

static void test_reachability(void) {
    satchel_reachability_info info;
    satchel_reachability *monitor = NULL;
    reachability_record record;

    init_info(&info);
    OK(satchel_reachability_check(&info, "127.0.0.1", SATCHEL_NTS));
    CHECK(info.status == SATCHEL_REACHABILITY_REACHABLE && info.interface_kind == SATCHEL_INTERFACE_LOOPBACK);
    CHECK(strcmp(info.interface_name, "lo") == 0 && info.interface_index > 0);
    CHECK_STATUS(satchel_reachability_check(&info, "a b", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reachability_check(&info, "http://x/", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    info.struct_size = 4;
    CHECK_STATUS(satchel_reachability_check(&info, "127.0.0.1", SATCHEL_NTS), SATCHEL_E_ABI_MISMATCH);
    CHECK_STATUS(satchel_reachability_create(&monitor, "", 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(monitor == NULL);

    memset(&record, 0, sizeof record);
    pthread_mutex_init(&record.lock, NULL);
    OK(satchel_reachability_create(&monitor, "127.0.0.1", SATCHEL_NTS));
    init_info(&info);
    OK(satchel_reachability_current(&info, monitor));
    CHECK(info.status == SATCHEL_REACHABILITY_UNKNOWN);
    OK(satchel_reachability_start(monitor, on_reachability, &record));
    CHECK_STATUS(satchel_reachability_start(monitor, on_reachability, &record), SATCHEL_E_MISUSE);
    CHECK(await_reachability(&record, SATCHEL_REACHABILITY_REACHABLE));
    CHECK(record.last.interface_kind == SATCHEL_INTERFACE_LOOPBACK && record.last.struct_size == sizeof(satchel_reachability_info));
    OK(satchel_reachability_current(&info, monitor));
    CHECK(info.status == SATCHEL_REACHABILITY_REACHABLE);
    satchel_reachability_stop(monitor);
    OK(satchel_reachability_current(&info, monitor));
    CHECK(info.status == SATCHEL_REACHABILITY_UNKNOWN);
    {
        int calls = record.calls;
        sleep_ms(200);
        CHECK(record.calls == calls); /* nothing after stop returned */
    }
    satchel_reachability_free(monitor);
    satchel_reachability_free(NULL);
    pthread_mutex_destroy(&record.lock);
}

/* Credentials answered to httpbin's challenges, per request and per host. */
static void test_credentials(const char *base) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    char url[512];

    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    sprintf(url, "%s/digest-auth/auth/ann/s3cret/MD5", base);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(response != NULL && satchel_response_status(response) == 401);
    satchel_response_free(response);
    OK(satchel_request_set_credential(request, "ann", SATCHEL_NTS, "s3cret", 6, SATCHEL_AUTH_DIGEST));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    satchel_response_free(response);
    OK(satchel_request_set_credential(request, "ann", 3, "wrong", SATCHEL_NTS, SATCHEL_AUTH_ANY));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(strstr(satchel_last_error_message(), "wrong") == NULL);
    satchel_response_free(response);
    /* Removed from the request, the session's for the host answers. */
    OK(satchel_request_set_credential(request, NULL, 0, NULL, 0, SATCHEL_AUTH_BASIC));
    OK(satchel_session_set_credential(session, "127.0.0.1", SATCHEL_NTS, "ann", SATCHEL_NTS, "s3cret", SATCHEL_NTS, SATCHEL_AUTH_DIGEST));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    satchel_response_free(response);
    satchel_request_free(request);
    sprintf(url, "%s/basic-auth/ann/s3cret", base);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_request_set_credential(request, "ann", SATCHEL_NTS, "s3cret", SATCHEL_NTS, SATCHEL_AUTH_BASIC));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    satchel_response_free(response);
    CHECK_STATUS(satchel_request_set_credential(request, "ann", 3, "x", 1, (satchel_auth)99), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_request_set_credential(NULL, "ann", 3, "x", 1, SATCHEL_AUTH_BASIC), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_credential(session, "", 0, "ann", 3, "x", 1, SATCHEL_AUTH_BASIC), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_credential(NULL, "h", 1, "ann", 3, "x", 1, SATCHEL_AUTH_BASIC), SATCHEL_E_INVALID_ARGUMENT);
    satchel_request_free(request);
    satchel_session_free(session);
}

/* What the token refresh callbacks count and are told. */
typedef struct token_source {
    pthread_mutex_t lock;
    const char *fast;        /* the fast test server, whose /token issues tokens */
    const char *key;
    int refreshes;
    int fail_with;           /* non-zero: the callback fails with it */
    volatile int hang;       /* the callback waits while this is set */
    volatile int hanging;    /* set while it waits */
} token_source;

/* A refresh callback that asks the fast server's /token for KEY's next token, with a session
** of its own, and returns it malloc'd. */
static int refresh_token(void *userdata, char **out_token) {
    token_source *source = (token_source *)userdata;
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    const satchel_value *token = NULL;
    const char *text = NULL;
    size_t length = 0;
    char url[512];
    int status = 1;
    pthread_mutex_lock(&source->lock);
    source->refreshes++;
    pthread_mutex_unlock(&source->lock);
    if (source->hang) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        source->hanging = 1;
        while (source->hang) nanosleep(&pause, NULL);
        source->hanging = 0;
    }
    if (source->fail_with) return source->fail_with;
    sprintf(url, "%s/token?key=%s", source->fast, source->key);
    if (satchel_session_create(&session, NULL, 0, NULL) == SATCHEL_OK
        && satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS) == SATCHEL_OK
        && satchel_session_send(&response, session, request) == SATCHEL_OK
        && satchel_value_object_get(&token, satchel_response_value(response), "token", SATCHEL_NTS) == SATCHEL_OK
        && satchel_value_get_string(&text, &length, token) == SATCHEL_OK) {
        *out_token = (char *)malloc(length + 1);
        memcpy(*out_token, text, length);
        (*out_token)[length] = 0;
        status = 0;
    }
    satchel_response_free(response);
    satchel_request_free(request);
    satchel_session_free(session);
    return status;
}

typedef struct protected_call {
    satchel_session *session;
    const char *url;
    int status;
} protected_call;

static void *call_protected(void *argument) {
    protected_call *call = (protected_call *)argument;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    if (satchel_request_create(&request, "GET", 3, call->url, SATCHEL_NTS) == SATCHEL_OK
        && satchel_session_send(&response, call->session, request) == SATCHEL_OK)
        call->status = satchel_response_status(response);

    satchel_response_free(response);
    satchel_request_free(request);
    return NULL;
}

/* Bearer tokens: fetched by the refresh callback before the first request, refreshed once for
** eight requests refused at the same time, a failing callback, a hanging one and the request
** timeout, bad tokens. */
static void test_bearer_tokens(const char *fast) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    token_source source;
    protected_call calls[8];
    pthread_t threads[8];
    char url[512], key[64];
    int i;

    memset(&source, 0, sizeof source);
    pthread_mutex_init(&source.lock, NULL);
    source.fast = fast;
    sprintf(key, "c-bearer-%ld", (long)getpid());  /* the compilers' programs run at once */
    source.key = key;
    sprintf(url, "%s/protected?key=%s", fast, key);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_token_refresh(session, refresh_token, &source));
    /* No token yet: one refresh before the first requests, shared by all eight. */
    for (i = 0; i < 8; i++) {
        calls[i].session = session;
        calls[i].url = url;
        calls[i].status = 0;
        pthread_create(&threads[i], NULL, call_protected, &calls[i]);
    }
    for (i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    for (i = 0; i < 8; i++) CHECK(calls[i].status == 200);
    CHECK(source.refreshes == 1);
    /* A token the server refuses: eight 401s, one refresh, eight 200s. */
    OK(satchel_session_set_bearer_token(session, "stale", SATCHEL_NTS));
    for (i = 0; i < 8; i++) {
        calls[i].status = 0;
        pthread_create(&threads[i], NULL, call_protected, &calls[i]);
    }
    for (i = 0; i < 8; i++) pthread_join(threads[i], NULL);
    for (i = 0; i < 8; i++) CHECK(calls[i].status == 200);
    CHECK(source.refreshes == 2);

    /* A callback that fails: the request fails saying so, without the token. */
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_session_set_bearer_token(session, "refused-token", SATCHEL_NTS));
    source.fail_with = 7;
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "returned 7"));
    CHECK(!contains(satchel_last_error_message(), "refused-token"));
    satchel_response_free(response);
    response = NULL;
    /* A callback that hangs: the request timeout ends the wait; then the callback is let go. */
    source.fail_with = 0;
    source.hang = 1;
    OK(satchel_session_set_bearer_token(session, "another-stale", SATCHEL_NTS));
    OK(satchel_session_set_timeout(session, SATCHEL_TIMEOUT_REQUEST, 500));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_TIMED_OUT);
    CHECK(source.hanging == 1);
    satchel_response_free(response);
    response = NULL;
    source.hang = 0;
    while (source.hanging) {
        struct timespec pause = {0, 10 * 1000 * 1000};
        nanosleep(&pause, NULL);
    }
    /* Removed: requests go without a token. */
    OK(satchel_session_set_token_refresh(session, NULL, NULL));
    OK(satchel_session_set_bearer_token(session, NULL, 0));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(response != NULL && satchel_response_status(response) == 401);
    satchel_response_free(response);
    CHECK_STATUS(satchel_session_set_bearer_token(session, "has space", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_bearer_token(session, "line\nend", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_bearer_token(NULL, "t", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_token_refresh(NULL, refresh_token, NULL), SATCHEL_E_INVALID_ARGUMENT);
    satchel_request_free(request);
    satchel_session_free(session);
    pthread_mutex_destroy(&source.lock);
}

static int warnings_seen = 0;
static void count_warnings(void *userdata, const satchel_event *event) {
    (void)userdata;
    if (event->kind == SATCHEL_EVENT_WARNING && event->method == NULL && contains(event->message, "not cookies"))
        warnings_seen++;
}

/* Whether the string `member` of `object` is `expected`. */
static int member_is(const satchel_value *object, const char *member, const char *expected) {
    const satchel_value *field = NULL;
    const char *text = NULL;
    size_t length = 0;
    return satchel_value_object_get(&field, object, member, SATCHEL_NTS) == SATCHEL_OK
        && satchel_value_get_string(&text, &length, field) == SATCHEL_OK
        && strlen(expected) == length && memcmp(text, expected, length) == 0;
}

/* The number of cookies in the session (those `url` would carry, unless NULL), and whether
** the one named `name` has the string `member` equal to `expected`. */
static size_t cookie_count(satchel_session *session, const char *url, const char *name, const char *member,
                           const char *expected, int *found) {
    satchel_value *cookies = NULL;
    size_t count = 0, i;
    *found = 0;
    OK(satchel_session_cookies(&cookies, session, url, url ? SATCHEL_NTS : 0));
    OK(satchel_value_count(&count, cookies));
    for (i = 0; i < count; i++) {
        const satchel_value *cookie = NULL;
        OK(satchel_value_array_get(&cookie, cookies, i));
        if (member_is(cookie, "name", name) && member_is(cookie, member, expected)) *found = 1;
    }
    satchel_value_free(cookies);
    return count;
}

/* Cookies: set by httpbin, listed, set and cleared from C, kept in a jar another session reads,
** a jar with bad lines warned about, malformed cookies refused. */
static void test_cookies(const char *httpbin) {
    satchel_session *session = NULL, *next = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_value *cookie = NULL;
    struct stat info;
    char url[512], jar[64] = "/tmp/satchel-jar-XXXXXX";
    int found = 0, descriptor;

    descriptor = mkstemp(jar);
    CHECK(descriptor >= 0);
    CHECK(write(descriptor, "not a cookie\n", 13) == 13);
    close(descriptor);
    OK(satchel_session_create(&session, httpbin, SATCHEL_NTS, NULL));
    OK(satchel_session_set_event_callback(session, count_warnings, NULL));
    OK(satchel_session_set_cookie_jar(session, jar));
    OK(satchel_request_create(&request, "GET", 3, "/cookies/set?flavour=oat", SATCHEL_NTS));
    OK(satchel_session_send(&response, session, request));
    satchel_response_free(response);
    CHECK(warnings_seen == 1);
    CHECK(cookie_count(session, NULL, "flavour", "name", "flavour", &found) == 1 && found);
    sprintf(url, "%s/cookies", httpbin);
    CHECK(cookie_count(session, url, "flavour", "name", "flavour", &found) == 1 && found);
    CHECK(stat(jar, &info) == 0 && (info.st_mode & 0777) == 0600);

    OK(satchel_value_parse_json(&cookie, "{\"name\": \"set\", \"value\": \"in C\", \"domain\": \"127.0.0.1\", \"path\": \"/\", \"secure\": false, \"same_site\": \"Lax\"}", SATCHEL_NTS));
    OK(satchel_session_set_cookie(session, cookie));
    satchel_value_free(cookie);
    CHECK(cookie_count(session, NULL, "set", "same_site", "Lax", &found) == 2 && found);
    CHECK(cookie_count(session, NULL, "set", "value", "in C", &found) == 2 && found);
    /* A setter rebuilds the session: the cookies stay. */
    OK(satchel_session_set_retries(session, 0));
    CHECK(cookie_count(session, NULL, "set", "name", "set", &found) == 2 && found);
    /* Another session reads the jar. */
    OK(satchel_session_create(&next, httpbin, SATCHEL_NTS, NULL));
    OK(satchel_session_set_cookie_jar(next, jar));
    CHECK(cookie_count(next, NULL, "set", "name", "set", &found) == 2 && found);
    OK(satchel_session_clear_cookies(next, "127.0.0.1", SATCHEL_NTS));
    CHECK(cookie_count(next, NULL, "set", "name", "set", &found) == 0);
    OK(satchel_session_set_cookie_jar(next, NULL));
    satchel_session_free(next);
    /* The first session still has its own in memory; clearing all empties it. */
    CHECK(cookie_count(session, NULL, "flavour", "name", "flavour", &found) == 2 && found);
    OK(satchel_session_clear_cookies(session, NULL, 0));
    CHECK(cookie_count(session, NULL, "flavour", "name", "flavour", &found) == 0);

    OK(satchel_value_parse_json(&cookie, "{\"value\": \"no name\", \"domain\": \"127.0.0.1\"}", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_set_cookie(session, cookie), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "\"name\""));
    satchel_value_free(cookie);
    OK(satchel_value_parse_json(&cookie, "{\"name\": \"a\", \"value\": \"1\", \"domain\": \"127.0.0.1\", \"secure\": 1}", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_set_cookie(session, cookie), SATCHEL_E_INVALID_ARGUMENT);
    satchel_value_free(cookie);
    OK(satchel_value_parse_json(&cookie, "{\"name\": \"a\", \"value\": \"1\", \"domain\": \"127.0.0.1\", \"same_site\": \"Sometimes\"}", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_set_cookie(session, cookie), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "same_site"));
    satchel_value_free(cookie);
    OK(satchel_value_parse_json(&cookie, "[1]", SATCHEL_NTS));
    CHECK_STATUS(satchel_session_set_cookie(session, cookie), SATCHEL_E_INVALID_ARGUMENT);
    satchel_value_free(cookie);
    CHECK_STATUS(satchel_session_set_cookie(session, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_cookies(NULL, session, NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_cookies(&cookie, session, "not a url", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(cookie == NULL);
    CHECK_STATUS(satchel_session_clear_cookies(NULL, NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_cookie_jar(NULL, jar), SATCHEL_E_INVALID_ARGUMENT);
    satchel_request_free(request);
    satchel_session_free(session);
    unlink(jar);
}

/* A GET of `url` through `session`: its status, 0 when the send failed with no response. */
static int status_of(satchel_session *session, const char *url, satchel_status *error) {
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    int status = 0;
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    *error = satchel_session_send(&response, session, request);
    if (response) status = satchel_response_status(response);
    satchel_response_free(response);
    satchel_request_free(request);
    return status;
}

/* Proxies (pproxy, requiring ann:proxy-secret): a refusing proxy as the response, its
** credential, SOCKS5, a CONNECT tunnel to the TLS origin, the bypass list, none, bad URLs. */
static void test_proxies(const char *fast, const char *tls_base, const char *ca_file, const char *http_proxy, const char *socks_proxy) {
    satchel_session *session = NULL;
    satchel_status error;
    char url[512], tls_url[512];

    sprintf(url, "%s/echo-headers", fast);
    sprintf(tls_url, "%s/get", tls_base);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    OK(satchel_session_set_ca_file(session, ca_file));
    /* The credential first: the setters apply in any order. */
    OK(satchel_session_set_proxy_credential(session, "ann", SATCHEL_NTS, "proxy-secret", SATCHEL_NTS, SATCHEL_AUTH_BASIC));
    OK(satchel_session_set_proxy(session, http_proxy, SATCHEL_NTS));
    CHECK(status_of(session, url, &error) == 200 && error == SATCHEL_OK);
    CHECK(status_of(session, tls_url, &error) == 200 && error == SATCHEL_OK);
    OK(satchel_session_set_proxy_credential(session, NULL, 0, NULL, 0, SATCHEL_AUTH_BASIC));
    CHECK(status_of(session, url, &error) == 407 && error == SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(status_of(session, tls_url, &error) == 407 && error == SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(contains(satchel_last_error_message(), "the proxy refused the tunnel with status 407"));
    OK(satchel_session_set_noproxy(session, "example.com, 127.0.0.1", SATCHEL_NTS));
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_noproxy(session, NULL, 0));
    OK(satchel_session_set_proxy(session, socks_proxy, SATCHEL_NTS));
    OK(satchel_session_set_proxy_credential(session, "ann", SATCHEL_NTS, "wrong", SATCHEL_NTS, SATCHEL_AUTH_BASIC));
    CHECK(status_of(session, url, &error) == 0 && error != SATCHEL_OK);
    CHECK(!contains(satchel_last_error_message(), "wrong"));
    OK(satchel_session_set_proxy_credential(session, "ann", SATCHEL_NTS, "proxy-secret", SATCHEL_NTS, SATCHEL_AUTH_BASIC));
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_proxy(session, "", 0));  /* none */
    OK(satchel_session_set_proxy_credential(session, NULL, 0, NULL, 0, SATCHEL_AUTH_BASIC));
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_proxy(session, NULL, 0));  /* the environment's: none here */
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_proxy_ca_file(session, ca_file));
    OK(satchel_session_set_proxy_ca_file(session, NULL));
    CHECK_STATUS(satchel_session_set_proxy(session, "ftp://proxy:21", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_proxy(session, "http://user:pw@proxy:1", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(!contains(satchel_last_error_message(), "pw@"));
    CHECK_STATUS(satchel_session_set_proxy(NULL, "http://p:1", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_proxy_credential(session, "a", 1, "b", 1, (satchel_auth)42), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
}

/* Client certificates against the mutual-TLS server (CA A): files, a P12 bundle in memory, per
** host, refused without one, a wrong passphrase, bad arguments. */
static void test_client_certificates(const char *mutual, const char *ca_file, const char *directory, const char *passphrase) {
    satchel_session *session = NULL;
    satchel_status error;
    char url[512], cert[512], key[512], encrypted[512], bundle_path[512], host[64];
    unsigned char *bundle = NULL;
    size_t bundle_size = 0;
    const char *port = strrchr(mutual, ':');

    sprintf(url, "%s/client-certificate", mutual);
    sprintf(cert, "%s/client.pem", directory);
    sprintf(key, "%s/client-key.pem", directory);
    sprintf(encrypted, "%s/client-key-encrypted.pem", directory);
    sprintf(bundle_path, "%s/client.p12", directory);
    sprintf(host, "127.0.0.1%s", port ? port : "");
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    OK(satchel_session_set_ca_file(session, ca_file));
    CHECK(status_of(session, url, &error) == 0 && error == SATCHEL_E_TLS);
    CHECK(contains(satchel_last_error_message(), "client certificate"));
    /* A wrong passphrase first (a session made anew by a setter keeps its connections, and
    ** libcurl reuses one made with the same certificate whatever the key). */
    OK(satchel_session_set_client_certificate(session, NULL, 0, cert, encrypted, "wrong", SATCHEL_CERT_PEM));
    CHECK(status_of(session, url, &error) == 0 && error == SATCHEL_E_TLS);
    CHECK(!contains(satchel_last_error_message(), "wrong"));
    OK(satchel_session_set_client_certificate(session, NULL, 0, cert, encrypted, passphrase, SATCHEL_CERT_PEM));
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_client_certificate(session, NULL, 0, cert, key, NULL, SATCHEL_CERT_PEM));
    CHECK(status_of(session, url, &error) == 200);
    /* Removed as the default; a P12 from memory for this host and port only. */
    OK(satchel_session_set_client_certificate(session, NULL, 0, NULL, NULL, NULL, SATCHEL_CERT_PEM));
    bundle = read_file(bundle_path, &bundle_size);
    CHECK(bundle != NULL);
    OK(satchel_session_set_client_certificate_blob(session, host, SATCHEL_NTS, bundle, bundle_size, NULL, 0, passphrase, SATCHEL_CERT_P12));
    CHECK(status_of(session, url, &error) == 200);
    OK(satchel_session_set_client_certificate_blob(session, host, SATCHEL_NTS, NULL, 0, NULL, 0, NULL, SATCHEL_CERT_P12));
    CHECK(status_of(session, url, &error) == 0 && error == SATCHEL_E_TLS);
    OK(satchel_session_set_client_certificate_blob(session, "example.com", SATCHEL_NTS, bundle, bundle_size, NULL, 0, passphrase, SATCHEL_CERT_P12));
    CHECK(status_of(session, url, &error) == 0 && error == SATCHEL_E_TLS);
    free(bundle);
    CHECK_STATUS(satchel_session_set_client_certificate(session, NULL, 0, cert, key, NULL, (satchel_cert_type)9), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_client_certificate(session, "", 0, cert, key, NULL, SATCHEL_CERT_PEM), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_client_certificate_blob(session, NULL, 0, NULL, 5, NULL, 0, NULL, SATCHEL_CERT_PEM), SATCHEL_OK);
    CHECK_STATUS(satchel_session_set_client_certificate(NULL, NULL, 0, cert, key, NULL, SATCHEL_CERT_PEM), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
}

/* The HTTP version of a GET of `url` through `session` ("" when it failed). */
static void version_of(satchel_session *session, const char *url, char *out, size_t size) {
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_metrics metrics;
    out[0] = 0;
    memset(&metrics, 0, sizeof metrics);
    metrics.struct_size = sizeof metrics;
    metrics.abi_version = SATCHEL_ABI_VERSION;
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    if (satchel_session_send(&response, session, request) == SATCHEL_OK
        && satchel_response_metrics(&metrics, response) == SATCHEL_OK && metrics.http_version)
        snprintf(out, size, "%s", metrics.http_version);
    satchel_response_free(response);
    satchel_request_free(request);
}

/* HTTP versions against nginx: HTTP/2 over TLS by default, HTTP/1.1 when asked, h2c. */
static void test_http_versions(const char *tls_base, const char *h2c_base, const char *ca_file) {
    satchel_session *session = NULL;
    char url[512], version[16];

    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_ca_file(session, ca_file));
    sprintf(url, "%s/echo-headers", tls_base);
    version_of(session, url, version, sizeof version);
    CHECK(strcmp(version, "2") == 0);
    OK(satchel_session_set_http_version(session, SATCHEL_HTTP_1_1));
    version_of(session, url, version, sizeof version);
    CHECK(strcmp(version, "1.1") == 0);
    OK(satchel_session_set_http_version(session, SATCHEL_HTTP_2_PRIOR_KNOWLEDGE));
    sprintf(url, "%s/echo-headers", h2c_base);
    version_of(session, url, version, sizeof version);
    CHECK(strcmp(version, "2") == 0);
    OK(satchel_session_set_http_version(session, SATCHEL_HTTP_2_WHEN_OFFERED));
    CHECK_STATUS(satchel_session_set_http_version(session, (satchel_http_version)7), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_http_version(NULL, SATCHEL_HTTP_1_1), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
}

/* Requests through nginx's unix socket, a missing socket, and back to TCP. */
static void test_unix_socket(const char *path) {
    satchel_session *session = NULL;
    satchel_status error;
    char missing[600];

    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    OK(satchel_session_set_unix_socket(session, path));
    CHECK(status_of(session, "http://localhost/echo-headers", &error) == 200);
    sprintf(missing, "%s.missing", path);
    OK(satchel_session_set_unix_socket(session, missing));
    CHECK(status_of(session, "http://localhost/echo-headers", &error) == 0 && error == SATCHEL_E_CANNOT_CONNECT);
    CHECK(contains(satchel_last_error_message(), missing));
    OK(satchel_session_set_unix_socket(session, NULL));
    CHECK(status_of(session, "http://127.0.0.1:1/", &error) == 0 && error == SATCHEL_E_CANNOT_CONNECT);
    CHECK(!contains(satchel_last_error_message(), "unix socket"));
    CHECK_STATUS(satchel_session_set_unix_socket(NULL, path), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
}

/* Host overrides, connection settings, rate limits and Expect: 100-continue against the fast
** server. */
static void test_connection_settings(const char *fast) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    const satchel_value *headers = NULL, *expect = NULL;
    satchel_status error;
    const char *port = strrchr(fast, ':') + 1;
    char override_text[128], url[512];
    unsigned char *body = NULL;

    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_retries(session, 0));
    sprintf(override_text, "satchel.test:%s:127.0.0.1", port);
    OK(satchel_session_add_host_override(session, override_text, SATCHEL_NTS, 0));
    sprintf(override_text, "api.satchel.test:80:127.0.0.1:%s", port);
    OK(satchel_session_add_host_override(session, override_text, SATCHEL_NTS, 1));
    sprintf(url, "http://satchel.test:%s/echo-headers", port);
    CHECK(status_of(session, url, &error) == 200);
    CHECK(status_of(session, "http://api.satchel.test/echo-headers", &error) == 200);
    OK(satchel_session_add_host_override(session, NULL, 0, 0));
    CHECK(status_of(session, "http://api.satchel.test/echo-headers", &error) == 0 && error == SATCHEL_E_CANNOT_CONNECT);
    CHECK_STATUS(satchel_session_add_host_override(session, "nohost", SATCHEL_NTS, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_add_host_override(session, "a:80:b", SATCHEL_NTS, 1), SATCHEL_E_INVALID_ARGUMENT);

    OK(satchel_session_set_connection(session, SATCHEL_CONNECTIONS_PER_HOST, 2));
    OK(satchel_session_set_connection(session, SATCHEL_CONNECTIONS_TOTAL, 8));
    OK(satchel_session_set_connection(session, SATCHEL_CONNECTION_CACHE, 4));
    OK(satchel_session_set_connection(session, SATCHEL_CONNECTION_IDLE_SECONDS, 30));
    OK(satchel_session_set_rate_limit(session, 0, 4u << 20));
    sprintf(url, "%s/large/300000", fast);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_request_set_rate_limit(request, 0, 1u << 20));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(response != NULL && satchel_response_status(response) == 200);
    satchel_response_free(response);
    response = NULL;
    satchel_request_free(request);

    OK(satchel_session_set_connection(session, SATCHEL_EXPECT_CONTINUE, 1));
    sprintf(url, "%s/echo-headers", fast);
    OK(satchel_request_create(&request, "POST", 4, url, SATCHEL_NTS));
    body = (unsigned char *)calloc(2u << 20, 1);
    OK(satchel_request_set_body(request, body, 2u << 20, "application/octet-stream", SATCHEL_NTS));
    free(body);
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_value_object_get(&headers, satchel_response_value(response), "headers", SATCHEL_NTS) == SATCHEL_OK);
    CHECK(satchel_value_object_get(&expect, headers, "expect", SATCHEL_NTS) == SATCHEL_OK && member_is(headers, "expect", "100-continue"));
    satchel_response_free(response);
    satchel_request_free(request);

    CHECK_STATUS(satchel_session_set_connection(session, (satchel_connection_setting)77, 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_connection(session, SATCHEL_CONNECTION_IDLE_SECONDS, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_connection(session, SATCHEL_CONNECTIONS_TOTAL, (uint64_t)1 << 40), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_session_set_rate_limit(NULL, 1, 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_request_set_rate_limit(NULL, 1, 1), SATCHEL_E_INVALID_ARGUMENT);
    satchel_session_free(session);
}

/* Whether the last send of `url` through `session` went over a connection kept alive. */
static int reused(satchel_session *session, const char *url) {
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_metrics metrics;
    int result = -1;
    memset(&metrics, 0, sizeof metrics);
    metrics.struct_size = sizeof metrics;
    metrics.abi_version = SATCHEL_ABI_VERSION;
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    if (satchel_session_send(&response, session, request) == SATCHEL_OK && satchel_response_metrics(&metrics, response) == SATCHEL_OK)
        result = metrics.reused_connection;
    satchel_response_free(response);
    satchel_request_free(request);
    return result;
}

/* A setter between two requests keeps the connection: the session made anew shares the engine. */
static void test_setters_keep_connections(const char *fast) {
    satchel_session *session = NULL;
    char url[512];
    sprintf(url, "%s/echo-headers", fast);
    OK(satchel_session_create(&session, NULL, 0, NULL));
    CHECK(reused(session, url) == 0);
    CHECK(reused(session, url) == 1);
    OK(satchel_session_set_header(session, "X-After", SATCHEL_NTS, "a setter", SATCHEL_NTS));
    OK(satchel_session_set_retries(session, 1));
    CHECK(reused(session, url) == 1);
    OK(satchel_session_set_connection(session, SATCHEL_CONNECTIONS_PER_HOST, 4));
    CHECK(reused(session, url) == 1);
    satchel_session_free(session);
}

/* The cache outcome of one GET of `url` through `session` with `policy`; the send's status in
** `error`, the not-stored reason (copied) in `reason` when given. */
static satchel_cache_outcome cached_get(satchel_session *session, const char *url, satchel_cache_policy policy, satchel_status *error, char *reason, size_t reason_size) {
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    satchel_cache_outcome outcome = (satchel_cache_outcome)-1;
    const char *why = NULL;
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_request_set_cache_policy(request, policy));
    *error = satchel_session_send(&response, session, request);
    if (response && satchel_response_cache(&outcome, &why, response) == SATCHEL_OK && reason)
        snprintf(reason, reason_size, "%s", why ? why : "");
    satchel_response_free(response);
    satchel_request_free(request);
    return outcome;
}

/* The HTTP cache: stored then served from a directory, to a second session over it too; a
** no-store response and why; only-cache with nothing stored; clearing; bad arguments. */
static void test_cache(const char *fast) {
    satchel_session *session = NULL, *other = NULL;
    satchel_cache *cache = NULL, *later = NULL, *bad = NULL;
    satchel_status error;
    char directory[] = "/tmp/satchel-abi-cache-XXXXXX", url[512], reason[128], command[600];
    int key = rand();

    CHECK(mkdtemp(directory) != NULL);
    OK(satchel_cache_create(&cache, directory, 0));
    OK(satchel_session_create(&session, NULL, 0, NULL));
    OK(satchel_session_set_cache(session, cache));
    satchel_cache_free(cache);  /* the session keeps its own reference */
    sprintf(url, "%s/cache-origin?key=abi-%d&cc=max-age=86400", fast, key);
    CHECK(cached_get(session, url, SATCHEL_CACHE_POLICY_PROTOCOL, &error, NULL, 0) == SATCHEL_CACHE_STORED && error == SATCHEL_OK);
    CHECK(cached_get(session, url, SATCHEL_CACHE_POLICY_PROTOCOL, &error, NULL, 0) == SATCHEL_CACHE_HIT && error == SATCHEL_OK);
    CHECK(cached_get(session, url, SATCHEL_CACHE_POLICY_RELOAD, &error, NULL, 0) == SATCHEL_CACHE_STORED);

    OK(satchel_cache_create(&later, directory, 1 << 20));
    OK(satchel_session_create(&other, NULL, 0, NULL));
    OK(satchel_session_set_cache(other, later));
    CHECK(cached_get(other, url, SATCHEL_CACHE_POLICY_ONLY_CACHE, &error, NULL, 0) == SATCHEL_CACHE_HIT && error == SATCHEL_OK);
    OK(satchel_cache_clear(later));
    CHECK(cached_get(other, url, SATCHEL_CACHE_POLICY_ONLY_CACHE, &error, NULL, 0) == SATCHEL_CACHE_MISS && error == SATCHEL_E_UNACCEPTABLE_STATUS);
    CHECK(strstr(satchel_last_error_message(), "only-cache") != NULL);
    OK(satchel_session_set_cache(other, NULL));
    CHECK(cached_get(other, url, SATCHEL_CACHE_POLICY_PROTOCOL, &error, NULL, 0) == SATCHEL_CACHE_NOT_USED && error == SATCHEL_OK);
    satchel_cache_free(later);
    satchel_session_free(other);

    sprintf(url, "%s/cache-origin?key=abi-%d&cc=no-store", fast, key);
    CHECK(cached_get(session, url, SATCHEL_CACHE_POLICY_PROTOCOL, &error, reason, sizeof reason) == SATCHEL_CACHE_NOT_STORED);
    CHECK(strcmp(reason, "no-store") == 0);

    CHECK_STATUS(satchel_request_set_cache_policy(NULL, SATCHEL_CACHE_POLICY_RELOAD), SATCHEL_E_INVALID_ARGUMENT);
    {
        satchel_request *request = NULL;
        OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
        CHECK_STATUS(satchel_request_set_cache_policy(request, (satchel_cache_policy)9), SATCHEL_E_INVALID_ARGUMENT);
        satchel_request_free(request);
    }
    CHECK_STATUS(satchel_cache_create(&bad, directory, -1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(bad == NULL);
    CHECK_STATUS(satchel_cache_create(&bad, "/dev/null/cache", 0), SATCHEL_E_IO);
    CHECK_STATUS(satchel_cache_create(NULL, NULL, 0), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_cache_clear(NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_response_cache(NULL, NULL, NULL), SATCHEL_E_INVALID_ARGUMENT);
    satchel_cache_free(NULL);
    OK(satchel_cache_create(&bad, NULL, 0));  /* in memory */
    satchel_cache_free(bad);
    satchel_session_free(session);
    snprintf(command, sizeof command, "rm -rf %s", directory);
    CHECK(system(command) == 0);
}

/* The next ready record as compact JSON in `out` (at most `size` bytes), 0 when none is ready. */
static int next_record_json(satchel_reader *reader, char *out, size_t size) {
    satchel_value *record = NULL;
    char *json = NULL;
    size_t length = 0;
    if (satchel_reader_next(&record, reader) != SATCHEL_OK) return 0;
    OK(satchel_value_to_json(&json, &length, record, 0));
    snprintf(out, size, "%s", json ? json : "");
    satchel_free(json);
    satchel_value_free(record);
    return 1;
}

/* Readers: records as soon as their last byte is fed, whole-body values at the end, errors
** that keep the records before them, limits, misuse. */
/* Readers of one document's elements at a path: JSON fed a byte at a time, each element ready
** at its last byte, the envelope afterwards; XML entries; the errors. */
static void test_element_readers(satchel_registry *registry) {
    satchel_reader *reader = NULL;
    satchel_value *value = NULL, *namespaces = NULL, *uri = NULL;
    char json[256];
    char *text = NULL;
    size_t length = 0;
    const char *page = "{\"data\":{\"items\":[{\"i\":0},{\"i\":1}],\"total\":2},\"next\":\"c2\"}";
    const char *feed = "<feed xmlns=\"http://www.w3.org/2005/Atom\"><entry><i>0</i></entry><entry><i>1</i></entry></feed>";
    size_t i, first_at = 0;

    OK(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, "/data/items", SATCHEL_NTS, NULL));
    CHECK(satchel_reader_yields_records(reader) == 1);
    for (i = 0; i < strlen(page); i++) {
        OK(satchel_reader_feed(reader, page + i, 1));
        if (!first_at && next_record_json(reader, json, sizeof json)) {
            first_at = i;
            CHECK(strcmp(json, "{\"i\":0}") == 0);
        }
    }
    CHECK(first_at == 24);  /* the '}' that ends the first element */
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"i\":1}") == 0);
    CHECK_STATUS(satchel_reader_rest(&value, reader), SATCHEL_E_NOT_FOUND);
    OK(satchel_reader_finish(reader));
    OK(satchel_reader_rest(&value, reader));
    OK(satchel_value_to_json(&text, &length, value, 0));
    CHECK(strcmp(text, "{\"data\":{\"items\":[],\"total\":2},\"next\":\"c2\"}") == 0);
    satchel_free(text);
    satchel_value_free(value);
    satchel_reader_free(reader);

    /* XML with a prefix from a namespaces object. */
    OK(satchel_value_create_object(&namespaces));
    OK(satchel_value_create_string(&uri, "http://www.w3.org/2005/Atom", SATCHEL_NTS));
    OK(satchel_value_object_set(namespaces, "a", 1, uri));  /* uri is taken */
    OK(satchel_reader_create_each(&reader, registry, "application/atom+xml", SATCHEL_NTS, "/a:feed/a:entry", SATCHEL_NTS, namespaces));
    OK(satchel_reader_feed(reader, feed, strlen(feed)));
    CHECK(next_record_json(reader, json, sizeof json) && strstr(json, "\"name\":\"entry\"") != NULL && strstr(json, "[\"0\"]") != NULL);
    CHECK(next_record_json(reader, json, sizeof json) && strstr(json, "[\"1\"]") != NULL);
    OK(satchel_reader_finish(reader));
    CHECK_STATUS(satchel_reader_rest(&value, reader), SATCHEL_E_NOT_FOUND);
    satchel_reader_free(reader);

    /* Errors: the elements before a malformed one, a path that matches nothing, a value that is
    ** not an array, bad paths and namespaces, a format that is neither. */
    OK(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, "", 0, NULL));
    CHECK_STATUS(satchel_reader_feed(reader, "[1,2,{\"a\":}]", 12), SATCHEL_E_SYNTAX);
    CHECK(strstr(satchel_last_error_message(), "/2") != NULL);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "1") == 0);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "2") == 0);
    satchel_reader_free(reader);
    OK(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, "/items", SATCHEL_NTS, NULL));
    OK(satchel_reader_feed(reader, "{\"data\":[]}", 11));
    CHECK_STATUS(satchel_reader_finish(reader), SATCHEL_E_NOT_FOUND);
    satchel_reader_free(reader);
    OK(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, "/data", SATCHEL_NTS, NULL));
    CHECK_STATUS(satchel_reader_feed(reader, "{\"data\":{}}", 11), SATCHEL_E_TYPE_MISMATCH);
    satchel_reader_free(reader);
    reader = NULL;
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, "items", SATCHEL_NTS, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(reader == NULL);
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, "application/xml", SATCHEL_NTS, "/x:feed", SATCHEL_NTS, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, "text/plain", SATCHEL_NTS, "", 0, NULL), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, NULL, 0, "", 0, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, "application/json", SATCHEL_NTS, NULL, 0, NULL), SATCHEL_E_INVALID_ARGUMENT);
    OK(satchel_value_create_string(&uri, "not an object", SATCHEL_NTS));
    CHECK_STATUS(satchel_reader_create_each(&reader, registry, "application/xml", SATCHEL_NTS, "/feed", SATCHEL_NTS, uri), SATCHEL_E_TYPE_MISMATCH);
    satchel_value_free(uri);
    CHECK_STATUS(satchel_reader_rest(&value, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_rest(NULL, NULL), SATCHEL_E_INVALID_ARGUMENT);
    satchel_value_free(namespaces);
}

static void test_readers(void) {
    satchel_registry *registry = NULL;
    satchel_reader *reader = NULL;
    satchel_value *value = NULL;
    char json[256];
    uint64_t limit = 0;
    const char *events = "data: a\r\n\r\n: note\nid: 7\nevent: x\ndata: b\n\n";
    const char *parts = "--b\r\nContent-Type: application/json\r\n\r\n{\"n\":1}\r\n--b\r\n\r\nplain\r\n--b--\r\n";
    size_t i, ready_at = 0;

    OK(satchel_registry_create(&registry));
    OK(satchel_registry_get_limit(&limit, registry, SATCHEL_LIMIT_RECORDS));
    CHECK(limit == (uint64_t)INT64_MAX);
    OK(satchel_registry_get_limit(&limit, registry, SATCHEL_LIMIT_RECORD_BYTES));
    CHECK(limit == 16u * 1024 * 1024);

    /* An event stream fed byte by byte: the first event is ready at the CR that ends its blank
    ** line (a CR alone ends a line; the LF after it is the same line end). */
    OK(satchel_reader_create(&reader, registry, "text/event-stream", SATCHEL_NTS));
    CHECK(satchel_reader_yields_records(reader) == 1);
    for (i = 0; i < strlen(events); i++) {
        OK(satchel_reader_feed(reader, events + i, 1));
        if (!ready_at && next_record_json(reader, json, sizeof json)) {
            ready_at = i;
            CHECK(strcmp(json, "{\"event\":\"message\",\"data\":\"a\",\"id\":\"\"}") == 0);
        }
    }
    CHECK(ready_at == 9);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"event\":\"x\",\"data\":\"b\",\"id\":\"7\"}") == 0);
    CHECK_STATUS(satchel_reader_next(&value, reader), SATCHEL_E_NOT_FOUND);
    CHECK(value == NULL);
    OK(satchel_reader_finish(reader));
    CHECK_STATUS(satchel_reader_feed(reader, "x", 1), SATCHEL_E_MISUSE);
    satchel_reader_free(reader);

    /* JSON Lines: a last line without its newline is a record at the end; a bad line is an
    ** error naming it, after the records before it. */
    OK(satchel_reader_create(&reader, registry, "application/x-ndjson", SATCHEL_NTS));
    OK(satchel_reader_feed(reader, "{\"a\":1}\n[2]\n3", 13));
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"a\":1}") == 0);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "[2]") == 0);
    CHECK(!next_record_json(reader, json, sizeof json));
    OK(satchel_reader_finish(reader));
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "3") == 0);
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, "application/jsonl", SATCHEL_NTS));
    CHECK_STATUS(satchel_reader_feed(reader, "true\n{oops}\nfalse\n", 18), SATCHEL_E_SYNTAX);
    CHECK(strstr(satchel_last_error_message(), "line 2") != NULL);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "true") == 0);
    CHECK(!next_record_json(reader, json, sizeof json));
    /* Taking the records, up to "none ready", keeps the feed's message. */
    CHECK(strstr(satchel_last_error_message(), "line 2") != NULL);
    CHECK_STATUS(satchel_reader_feed(reader, "1\n", 2), SATCHEL_E_SYNTAX);
    CHECK_STATUS(satchel_reader_finish(reader), SATCHEL_E_SYNTAX);
    satchel_reader_free(reader);

    /* A JSON text sequence and a multipart body: texts and parts as records. */
    OK(satchel_reader_create(&reader, registry, "application/json-seq", SATCHEL_NTS));
    OK(satchel_reader_feed(reader, "\x1e{\"s\":1}\n\x1e[]\n", 13));
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"s\":1}") == 0);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "[]") == 0);
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, "multipart/mixed; boundary=b", SATCHEL_NTS));
    CHECK(satchel_reader_yields_records(reader) == 1);
    OK(satchel_reader_feed(reader, parts, strlen(parts)));
    OK(satchel_reader_finish(reader));
    CHECK(next_record_json(reader, json, sizeof json) && strstr(json, "\"value\":{\"n\":1}") != NULL);
    CHECK(next_record_json(reader, json, sizeof json) && strstr(json, "\"value\":\"plain\"") != NULL);
    CHECK(!next_record_json(reader, json, sizeof json));
    satchel_reader_free(reader);

    /* A whole-body format: nothing before the end, then its one value; without a Content-Type
    ** the bytes pick the serializer. */
    OK(satchel_reader_create(&reader, registry, "application/json", SATCHEL_NTS));
    CHECK(satchel_reader_yields_records(reader) == 0);
    OK(satchel_reader_feed(reader, "{\"x\":", 5));
    OK(satchel_reader_feed(reader, "[1,2]}", 6));
    CHECK(!next_record_json(reader, json, sizeof json));
    OK(satchel_reader_finish(reader));
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"x\":[1,2]}") == 0);
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, "application/json", SATCHEL_NTS));
    OK(satchel_reader_feed(reader, "[1,", 3));
    CHECK_STATUS(satchel_reader_finish(reader), SATCHEL_E_TRUNCATED);
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    OK(satchel_reader_feed(reader, "{\"k\":true}", 10));
    OK(satchel_reader_finish(reader));
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "{\"k\":true}") == 0);
    satchel_reader_free(reader);

    test_element_readers(registry);

    /* Limits, unknown types, bad arguments. */
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_RECORD_BYTES, 8));
    OK(satchel_reader_create(&reader, registry, "application/x-ndjson", SATCHEL_NTS));
    CHECK_STATUS(satchel_reader_feed(reader, "[1]\n\"far too long\"\n", 20), SATCHEL_E_LIMIT);
    CHECK(next_record_json(reader, json, sizeof json) && strcmp(json, "[1]") == 0);
    satchel_reader_free(reader);
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_RECORDS, 1));
    OK(satchel_reader_create(&reader, registry, "application/x-ndjson", SATCHEL_NTS));
    CHECK_STATUS(satchel_reader_feed(reader, "1\n2\n", 4), SATCHEL_E_LIMIT);
    satchel_reader_free(reader);
    reader = (satchel_reader *)&limit;
    CHECK_STATUS(satchel_reader_create(&reader, registry, "application/x-unknown", SATCHEL_NTS), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(reader == NULL);
    CHECK_STATUS(satchel_reader_create(&reader, registry, "not a type", SATCHEL_NTS), SATCHEL_E_INVALID_MEDIA_TYPE);
    CHECK_STATUS(satchel_reader_create(NULL, registry, "application/json", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_create(&reader, NULL, "application/json", SATCHEL_NTS), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_feed(NULL, "x", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_finish(NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK_STATUS(satchel_reader_next(NULL, NULL), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(satchel_reader_yields_records(NULL) == 0);
    satchel_reader_free(NULL);
    satchel_registry_free(registry);
}

static int same_json(const satchel_value *a, const satchel_value *b) {
    char *left = json_of(a), *right = json_of(b);
    int same = left && right && strcmp(left, right) == 0;
    if (!same) fprintf(stderr, "  JSON %s\n  and  %s differ\n", left ? left : "(null)", right ? right : "(null)");
    satchel_free(left);
    satchel_free(right);
    return same;
}

/* The C inputs of decoding: a NULL content type is no Content-Type (the bytes pick the serializer,
** as for a response without one); only `length` bytes are read, wherever they lie; a bad pointer
** or length is a status and a message before any byte is read, never a crash. */
static void test_decode_inputs(const char *png_path) {
    static const char json[] = "{\"a\":[1,2.5,\"x\"],\"b\":null}";
    satchel_registry *registry = NULL;
    satchel_reader *reader = NULL;
    satchel_value *value = NULL, *declared = NULL, *parsed = NULL;
    unsigned char *png, *odd;
    size_t png_length = 0;
    char *buffer;
    char record[256];

    OK(satchel_registry_create(&registry));

    /* JSON without a content type: sniffed, the value as with its type and as satchel_value_parse_json. */
    OK(satchel_registry_decode(&value, registry, NULL, 0, json, strlen(json)));
    CHECK(json_is(value, "{\"a\":[1,2.5,\"x\"],\"b\":null}"));
    OK(satchel_registry_decode(&declared, registry, "application/json", SATCHEL_NTS, json, strlen(json)));
    OK(satchel_value_parse_json(&parsed, json, SATCHEL_NTS));
    CHECK(same_json(value, declared) && same_json(value, parsed));
    satchel_value_free(declared);
    satchel_value_free(parsed);
    satchel_value_free(value);
    /* The length, not a NUL, ends the body: bytes past it are not read; the body is borrowed for
    ** the call only. */
    buffer = (char *)malloc(sizeof json + 8);
    memcpy(buffer, json, sizeof json - 1);
    memcpy(buffer + sizeof json - 1, "garbage!", 8);
    OK(satchel_registry_decode(&value, registry, NULL, 0, buffer, sizeof json - 1));
    memset(buffer, ' ', sizeof json + 8);
    free(buffer);
    CHECK(json_is(value, "{\"a\":[1,2.5,\"x\"],\"b\":null}"));
    satchel_value_free(value);

    /* A PNG without a content type, from a buffer at an odd address: the same image and pixels. */
    png = read_file(png_path, &png_length);
    CHECK(png != NULL);
    odd = (unsigned char *)malloc(png_length + 1);
    memcpy(odd + 1, png, png_length);
    OK(satchel_registry_decode(&value, registry, NULL, 0, odd + 1, png_length));
    OK(satchel_registry_decode(&declared, registry, "image/png", SATCHEL_NTS, png, png_length));
    CHECK(satchel_value_type(value) == SATCHEL_TYPE_IMAGE && same_json(value, declared));
    {
        const uint8_t *pixels = NULL;
        size_t pixels_length = 0;
        OK(satchel_value_image_pixels(&pixels, &pixels_length, value));
        CHECK(pixels_length == 24 && pixels[0] == 10 && pixels[1] == 20 && pixels[2] == 30 && pixels[3] == 255);
        CHECK(pixels[20] == 10 && pixels[23] == 255);
    }
    satchel_value_free(declared);
    satchel_value_free(value);
    free(odd);
    free(png);

    /* An empty body without a content type is no value, as a response without a Content-Type
    ** (it was "no registered serializer accepts Content-Type application/octet-stream"). */
    value = (satchel_value *)&png_length;
    OK(satchel_registry_decode(&value, registry, NULL, 0, NULL, 0));
    CHECK(value == NULL);
    OK(satchel_registry_decode(&value, registry, NULL, 0, "", 0));
    CHECK(value == NULL);
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    OK(satchel_reader_finish(reader));
    CHECK(!next_record_json(reader, record, sizeof record));
    satchel_reader_free(reader);
    /* Bytes no serializer recognises: the error says there was no Content-Type. */
    CHECK_STATUS(satchel_registry_decode(&value, registry, NULL, 0, "hello", 5), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(value == NULL && contains(satchel_last_error_message(), "no Content-Type"));
    CHECK(!contains(satchel_last_error_message(), "octet-stream"));
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    OK(satchel_reader_feed(reader, "hel", 3));
    OK(satchel_reader_feed(reader, "lo", 2));
    CHECK_STATUS(satchel_reader_finish(reader), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(contains(satchel_last_error_message(), "no Content-Type"));
    satchel_reader_free(reader);
    /* application/octet-stream given is still sniffed. */
    OK(satchel_registry_decode(&value, registry, "application/octet-stream", SATCHEL_NTS, "[true]", 6));
    CHECK(json_is(value, "[true]"));
    satchel_value_free(value);
    /* NULL with a length: the length is not read. */
    OK(satchel_registry_decode(&value, registry, NULL, 12345, "[1]", 3));
    CHECK(json_is(value, "[1]"));
    satchel_value_free(value);

    /* Bad bodies: NULL with a length, a length no buffer has, a length past the body limit. */
    value = NULL;
    CHECK_STATUS(satchel_registry_decode(&value, registry, NULL, 0, NULL, 4), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(value == NULL && contains(satchel_last_error_message(), "body is NULL with a length of 4"));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", SATCHEL_NTS, "1", (size_t)-1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(value == NULL && contains(satchel_last_error_message(), "body: the length 18446744073709551615 is too large"));
    CHECK_STATUS(satchel_registry_decode(&value, registry, NULL, 0, "1", (size_t)PTRDIFF_MAX + 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "is too large"));
    /* Refused before a byte is read (valgrind and AddressSanitizer would see a read past "1"). */
    CHECK_STATUS(satchel_registry_decode(&value, registry, NULL, 0, "1", (size_t)PTRDIFF_MAX), SATCHEL_E_LIMIT);
    CHECK(value == NULL && contains(satchel_last_error_message(), "maxBodyBytes"));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "image/png", SATCHEL_NTS, "1", (size_t)200 << 20), SATCHEL_E_LIMIT);
    CHECK(contains(satchel_last_error_message(), "a body of 209715200 bytes exceeds Limits.maxBodyBytes"));
    CHECK_STATUS(satchel_registry_decode(&value, registry, "application/json", (size_t)-3, "1", 1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "content_type: the length"));

    /* The same for a reader's chunks, also when a length and what was fed add up past any size. */
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    CHECK_STATUS(satchel_reader_feed(reader, NULL, 4), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "data is NULL with a length of 4"));
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    CHECK_STATUS(satchel_reader_feed(reader, "[1", (size_t)-1), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "is too large"));
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, NULL, 0));
    OK(satchel_reader_feed(reader, "[1", 2));
    CHECK_STATUS(satchel_reader_feed(reader, ",2]", (size_t)PTRDIFF_MAX), SATCHEL_E_LIMIT);
    CHECK(contains(satchel_last_error_message(), "maxBodyBytes"));
    CHECK_STATUS(satchel_reader_finish(reader), SATCHEL_E_LIMIT);
    satchel_reader_free(reader);
    OK(satchel_reader_create(&reader, registry, "application/json", SATCHEL_NTS));
    OK(satchel_reader_feed(reader, "[1", 2));
    CHECK_STATUS(satchel_reader_feed(reader, ",2]", (size_t)PTRDIFF_MAX), SATCHEL_E_LIMIT);
    CHECK(contains(satchel_last_error_message(), "maxBodyBytes"));
    satchel_reader_free(reader);
    /* With the body limit at its largest the sum is still refused, as no body that long exists. */
    OK(satchel_registry_set_limit(registry, SATCHEL_LIMIT_BODY_BYTES, (uint64_t)PTRDIFF_MAX));
    OK(satchel_reader_create(&reader, registry, "application/json", SATCHEL_NTS));
    OK(satchel_reader_feed(reader, "[1", 2));
    CHECK_STATUS(satchel_reader_feed(reader, ",2]", (size_t)PTRDIFF_MAX), SATCHEL_E_INVALID_ARGUMENT);
    CHECK(contains(satchel_last_error_message(), "more than a body can hold"));
    satchel_reader_free(reader);
    satchel_registry_free(registry);
}

typedef struct records_record {
    int calls;
    int cancel_at;  /* return a cancelling verdict at this call (1-based), 0 never */
    long sum;       /* of the records' "i" members */
} records_record;

static int on_record(void *userdata, const satchel_value *record) {
    records_record *seen = (records_record *)userdata;
    const satchel_value *member = NULL;
    int64_t i = -1;
    if (satchel_value_object_get(&member, record, "i", 1) == SATCHEL_OK) satchel_value_get_int64(&i, member);
    seen->sum += (long)i;
    seen->calls++;
    return seen->calls == seen->cancel_at ? 9 : SATCHEL_DATA_CONTINUE;
}

/* A session request whose records go to a callback as they arrive (the fast test server's
** /records endpoints). */
static void test_record_callbacks(const char *fast, const char *httpbin) {
    satchel_session *session = NULL;
    satchel_request *request = NULL;
    satchel_response *response = NULL;
    const uint8_t *body = NULL;
    size_t length = 0;
    records_record seen;
    char url[512];

    OK(satchel_session_create(&session, NULL, 0, NULL));
    sprintf(url, "%s/records/ndjson?count=4", fast);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    memset(&seen, 0, sizeof seen);
    OK(satchel_request_set_record_callback(request, on_record, &seen));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    CHECK(seen.calls == 4 && seen.sum == 0 + 1 + 2 + 3);
    OK(satchel_response_body(&body, &length, response));
    CHECK(length == 0 && satchel_response_value(response) == NULL);
    satchel_response_free(response);
    satchel_request_free(request);

    /* A verdict other than continue or pause cancels. */
    sprintf(url, "%s/records/multipart?count=5", fast);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    memset(&seen, 0, sizeof seen);
    seen.cancel_at = 2;
    OK(satchel_request_set_record_callback(request, on_record, &seen));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_CANCELLED);
    CHECK(seen.calls == 2);
    satchel_response_free(response);
    satchel_request_free(request);

    /* A body that is not a record stream: refused, with its response. */
    sprintf(url, "%s/json", httpbin);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    memset(&seen, 0, sizeof seen);
    OK(satchel_request_set_record_callback(request, on_record, &seen));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(response != NULL && satchel_response_status(response) == 200 && seen.calls == 0);
    satchel_response_free(response);
    OK(satchel_request_set_record_callback(request, NULL, NULL));
    CHECK_STATUS(satchel_request_set_record_callback(NULL, on_record, &seen), SATCHEL_E_INVALID_ARGUMENT);
    satchel_request_free(request);

    /* The elements of one large JSON document as the records; then the same request refused
    ** without the path (a JSON document is no record stream), and a record stream refused with one. */
    sprintf(url, "%s/records/json-page?count=4", fast);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    memset(&seen, 0, sizeof seen);
    OK(satchel_request_set_record_callback(request, on_record, &seen));
    OK(satchel_request_set_record_path(request, "/data/items", SATCHEL_NTS, NULL));
    OK(satchel_session_send(&response, session, request));
    CHECK(satchel_response_status(response) == 200);
    CHECK(seen.calls == 4 && seen.sum == 0 + 1 + 2 + 3);
    satchel_response_free(response);
    OK(satchel_request_set_record_path(request, NULL, 0, NULL));
    memset(&seen, 0, sizeof seen);
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    CHECK(seen.calls == 0);
    satchel_response_free(response);
    satchel_request_free(request);
    sprintf(url, "%s/records/ndjson?count=2", fast);
    OK(satchel_request_create(&request, "GET", 3, url, SATCHEL_NTS));
    OK(satchel_request_set_record_callback(request, on_record, &seen));
    OK(satchel_request_set_record_path(request, "", 0, NULL));
    CHECK_STATUS(satchel_session_send(&response, session, request), SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE);
    satchel_response_free(response);
    CHECK_STATUS(satchel_request_set_record_path(NULL, "", 0, NULL), SATCHEL_E_INVALID_ARGUMENT);
    satchel_request_free(request);
    satchel_session_free(session);
}

/* In a new network namespace, where the loopback link starts down: a monitor of 127.0.0.1
** reports it unreachable, then reachable once the link comes up. */
static int test_reachability_change(void) {
    satchel_reachability_info info;
    satchel_reachability *monitor = NULL;
    reachability_record record;

    init_info(&info);
    OK(satchel_reachability_check(&info, "127.0.0.1", SATCHEL_NTS));
    CHECK(info.status == SATCHEL_REACHABILITY_NOT_REACHABLE);
    memset(&record, 0, sizeof record);
    pthread_mutex_init(&record.lock, NULL);
    OK(satchel_reachability_create(&monitor, "127.0.0.1", SATCHEL_NTS));
    OK(satchel_reachability_start(monitor, on_reachability, &record));
    CHECK(await_reachability(&record, SATCHEL_REACHABILITY_NOT_REACHABLE));
    CHECK(system("ip link set lo up") == 0);
    CHECK(await_reachability(&record, SATCHEL_REACHABILITY_REACHABLE));
    CHECK(strcmp(record.last.interface_name, "lo") == 0 && record.calls == 2);
    satchel_reachability_free(monitor);
    pthread_mutex_destroy(&record.lock);
    printf("abi_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
    satchel_registry *registry = NULL;
    if (argc == 2 && strcmp(argv[1], "--reachability-change") == 0) return test_reachability_change();
    if (argc < 3) {
        fprintf(stderr, "usage: abi_test PNG_FILE PLUGIN_SO [HTTP_BASE [TLS_BASE CA_FILE PIN WRONG_PIN [FAST_BASE [HTTP_PROXY SOCKS_PROXY [MUTUAL_TLS_BASE CERT_DIR PASSPHRASE [H2_TLS_BASE H2C_BASE [UNIX_SOCKET]]]]]]]\n");
        return 64;
    }
    test_versions_and_statuses();
    test_null_arguments();
    test_json_values();
    OK(satchel_registry_create(&registry));
    test_builders(registry);
    test_visit(registry);
    test_registry_visit(registry);
    test_registry_decoding(registry, argv[1]);
    test_readers();
    test_decode_inputs(argv[1]);
    test_multipart(registry, argv[1]);
    test_multipart_concurrent_use();
    satchel_registry_free(registry);
    test_plugins(argv[2]);
    test_threads();
    test_reachability();
    if (argc >= 4) {
        test_transport(argv[3], argc >= 8 ? argv[4] : NULL, argc >= 8 ? argv[5] : NULL, argc >= 8 ? argv[6] : NULL, argc >= 8 ? argv[7] : NULL);
        test_downloads(argv[3]);
        test_streams(argv[3]);
        test_events_and_metrics(argv[3]);
        test_credentials(argv[3]);
    }
    if (argc >= 9) {
        test_record_callbacks(argv[8], argv[3]);
        test_bearer_tokens(argv[8]);
        test_cookies(argv[3]);
    }
    if (argc >= 11) test_proxies(argv[8], argv[4], argv[5], argv[9], argv[10]);
    if (argc >= 9) test_connection_settings(argv[8]);
    if (argc >= 9) test_setters_keep_connections(argv[8]);
    if (argc >= 9) test_cache(argv[8]);
    if (argc >= 14) test_client_certificates(argv[11], argv[5], argv[12], argv[13]);
    if (argc >= 16) test_http_versions(argv[14], argv[15], argv[5]);
    if (argc >= 17) test_unix_socket(argv[16]);
    printf("abi_test: %d checks, %d failed\n", checks, failures);
    return failures == 0 ? 0 : 1;
}
