/* SPDX-License-Identifier: Apache-2.0 */
/*
** decode.c -- decode payloads with libsatchel and print them.
**
**   decode CONTENT-TYPE FILE [CONTENT-TYPE FILE]...
**
** Each FILE is decoded through the registry by its CONTENT-TYPE ("-" sniffs the format from
** the bytes) and printed as canonical JSON; images get a summary line, multipart bodies one
** section per part with the part's headers and decoded value. With SATCHEL_PLUGIN set to the
** path of a plugin (csv_plugin.so), the plugin is loaded first.
** Exit status: 0, or 1 after the first failure (with libsatchel's message on stderr).
**
**   cc Examples/c/decode.c $(pkg-config --cflags --libs satchel) -o decode
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satchel.h"

/* Reads a whole file into a malloc'ed buffer. */
static unsigned char *read_file(const char *path, size_t *length) {
    FILE *file = fopen(path, "rb");
    unsigned char *bytes = NULL;
    size_t capacity = 0;
    *length = 0;
    if (!file) return NULL;
    for (;;) {
        size_t count;
        if (*length == capacity) {
            unsigned char *bigger;
            capacity = capacity ? capacity * 2 : 65536;
            bigger = (unsigned char *)realloc(bytes, capacity);
            if (!bigger) { free(bytes); fclose(file); return NULL; }
            bytes = bigger;
        }
        count = fread(bytes + *length, 1, capacity - *length, file);
        if (count == 0) break;
        *length += count;
    }
    fclose(file);
    return bytes;
}

static int report(satchel_status status, const char *what) {
    fprintf(stderr, "decode: %s: %s (%s)\n", what, satchel_last_error_message(), satchel_status_string(status));
    return 1;
}

static int print_json(const satchel_value *value, const char *indent) {
    char *json;
    size_t length;
    satchel_status status = satchel_value_to_json(&json, &length, value, 0);
    if (status != SATCHEL_OK) return report(status, "to JSON");
    printf("%s%s\n", indent, json);
    satchel_free(json);
    return 0;
}

static int print_value(const satchel_value *value) {
    size_t count, index, header;
    switch (satchel_value_type(value)) {
    case SATCHEL_TYPE_IMAGE: {
        satchel_image_info info;
        memset(&info, 0, sizeof info);
        info.struct_size = sizeof info;
        info.abi_version = SATCHEL_ABI_VERSION;
        if (satchel_value_image_info(&info, value) != SATCHEL_OK) return report(SATCHEL_E_TYPE_MISMATCH, "image");
        printf("image: %s %ux%u, %u channels of %u bits, stored as %s, orientation %u\n", info.format,
               info.width, info.height, info.channels, info.bit_depth, info.color_type, info.orientation);
        return 0;
    }
    case SATCHEL_TYPE_MULTIPART:
        satchel_value_count(&count, value);
        printf("multipart: %lu parts\n", (unsigned long)count);
        for (index = 0; index < count; index++) {
            satchel_part part;
            memset(&part, 0, sizeof part);
            part.struct_size = sizeof part;
            part.abi_version = SATCHEL_ABI_VERSION;
            if (satchel_value_part(&part, value, index) != SATCHEL_OK) return report(SATCHEL_E_NOT_FOUND, "part");
            printf("part %lu: %lu bytes\n", (unsigned long)index, (unsigned long)part.size);
            for (header = 0; header < satchel_value_part_header_count(value, index); header++) {
                const char *name, *text;
                size_t name_length, text_length;
                satchel_value_part_header_at(&name, &name_length, &text, &text_length, value, index, header);
                printf("  %.*s: %.*s\n", (int)name_length, name, (int)text_length, text);
            }
            if (satchel_value_type(part.value) == SATCHEL_TYPE_HTTP) {
                satchel_http_info http;
                memset(&http, 0, sizeof http);
                http.struct_size = sizeof http;
                http.abi_version = SATCHEL_ABI_VERSION;
                satchel_value_http_info(&http, part.value);
                printf("  embedded HTTP response %d\n", http.status);
                if (print_json(http.value, "  ")) return 1;
            } else if (print_json(part.value, "  ")) {
                return 1;
            }
        }
        return 0;
    default:
        return print_json(value, "");
    }
}

int main(int argc, char **argv) {
    satchel_registry *registry;
    satchel_status status;
    const char *plugin = getenv("SATCHEL_PLUGIN");
    int index;
    if (argc < 3 || argc % 2 == 0) {
        fprintf(stderr, "usage: decode CONTENT-TYPE FILE [CONTENT-TYPE FILE]...\n");
        return 64;
    }
    if ((status = satchel_registry_create(&registry)) != SATCHEL_OK) return report(status, "registry");
    if (plugin && (status = satchel_registry_load_plugin(registry, plugin)) != SATCHEL_OK) {
        satchel_registry_free(registry);
        return report(status, plugin);
    }
    for (index = 1; index + 1 < argc; index += 2) {
        const char *type = strcmp(argv[index], "-") == 0 ? NULL : argv[index];
        size_t length;
        unsigned char *body = read_file(argv[index + 1], &length);
        satchel_value *value = NULL;
        int failed;
        if (!body) { fprintf(stderr, "decode: cannot read %s\n", argv[index + 1]); satchel_registry_free(registry); return 1; }
        status = satchel_registry_decode(&value, registry, type, SATCHEL_NTS, body, length);
        free(body);
        if (status != SATCHEL_OK) { satchel_registry_free(registry); return report(status, argv[index + 1]); }
        printf("== %s (%s)\n", argv[index + 1], type ? type : "sniffed");
        failed = value ? print_value(value) : (printf("(no value)\n"), 0);
        satchel_value_free(value);
        if (failed) { satchel_registry_free(registry); return 1; }
    }
    satchel_registry_free(registry);
    return 0;
}
