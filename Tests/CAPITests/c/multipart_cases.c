/* SPDX-License-Identifier: Apache-2.0 */
/* Reads multipart bodies through libsatchel's registry and prints what it read, for
** Tests/CAPITests/MultipartSenderCaseCTests.swift (the cases of
** Tests/Fixtures/multipart/sender-cases.json).
**
** Usage: multipart_cases FLAGS CONTENT_TYPE BODY_FILE [FLAGS CONTENT_TYPE BODY_FILE ...]
** For each body, after a line "case N":
**   part NAME FILENAME BODY   one line per part, each field in hex ("-" when absent), the body
**                             as the exact bytes of its raw value
**   error STATUS MESSAGE      when the body fails (STATUS as a number)
** Exits 0 when every call behaved (a body that fails is not a failure of the program). */
#include <satchel.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void print_hex(const char *bytes, size_t length) {
    if (bytes == NULL) {
        fputs(" -", stdout);
        return;
    }
    fputc(' ', stdout);
    if (length == 0) fputc('=', stdout);
    for (size_t i = 0; i < length; i++) printf("%02x", (unsigned char)bytes[i]);
}

static unsigned char *read_file(const char *path, size_t *out_length) {
    FILE *file = fopen(path, "rb");
    if (file == NULL) return NULL;
    size_t capacity = 4096, length = 0;
    unsigned char *buffer = malloc(capacity);
    size_t count;
    while (buffer != NULL && (count = fread(buffer + length, 1, capacity - length, file)) > 0) {
        length += count;
        if (length == capacity) {
            unsigned char *grown = realloc(buffer, capacity *= 2);
            if (grown == NULL) free(buffer);
            buffer = grown;
        }
    }
    fclose(file);
    *out_length = length;
    return buffer;
}

static int print_parts(const satchel_value *value) {
    size_t count = 0;
    if (satchel_value_type(value) != SATCHEL_TYPE_MULTIPART || satchel_value_count(&count, value) != SATCHEL_OK) {
        printf("not a multipart value\n");
        return 1;
    }
    for (size_t index = 0; index < count; index++) {
        satchel_part part;
        memset(&part, 0, sizeof part);
        part.struct_size = sizeof part;
        part.abi_version = SATCHEL_ABI_VERSION;
        if (satchel_value_part(&part, value, index) != SATCHEL_OK) return 1;
        const char *body = NULL;
        size_t length = 0;
        const uint8_t *bytes = NULL;
        if (satchel_value_get_string(&body, &length, part.value) != SATCHEL_OK) {
            if (satchel_value_get_bytes(&bytes, &length, part.value) != SATCHEL_OK) return 1;
            body = (const char *)bytes;
        }
        if (part.size != length) return 1;
        fputs("part", stdout);
        print_hex(part.name, part.name_length);
        print_hex(part.filename, part.filename_length);
        print_hex(body, length);
        fputc('\n', stdout);
    }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 4 || (argc - 1) % 3 != 0) {
        fprintf(stderr, "usage: %s FLAGS CONTENT_TYPE BODY_FILE ...\n", argv[0]);
        return 2;
    }
    satchel_registry *registry = NULL;
    if (satchel_registry_create(&registry) != SATCHEL_OK) return 1;
    int failed = 0;
    /* An unknown flag is refused and changes nothing. */
    if (satchel_registry_set_multipart_flags(registry, 1u << 7) != SATCHEL_E_INVALID_ARGUMENT) failed = 1;
    if (satchel_registry_set_multipart_flags(NULL, 0) != SATCHEL_E_INVALID_ARGUMENT) failed = 1;
    for (int i = 1; i + 2 < argc && !failed; i += 3) {
        printf("case %d\n", (i - 1) / 3);
        uint32_t flags = (uint32_t)strtoul(argv[i], NULL, 10);
        if (satchel_registry_set_multipart_flags(registry, flags | SATCHEL_MULTIPART_RAW_PARTS) != SATCHEL_OK) {
            failed = 1;
            break;
        }
        size_t length = 0;
        unsigned char *body = read_file(argv[i + 2], &length);
        if (body == NULL) {
            failed = 1;
            break;
        }
        satchel_value *value = NULL;
        satchel_status status =
            satchel_registry_decode(&value, registry, argv[i + 1], SATCHEL_NTS, body, length);
        if (status == SATCHEL_OK) {
            failed |= value == NULL || print_parts(value);
        } else {
            failed |= value != NULL;
            printf("error %d %s\n", (int)status, satchel_last_error_message());
        }
        satchel_value_free(value);
        free(body);
    }
    satchel_registry_free(registry);
    printf("%s\n", failed ? "FAILED" : "done");
    return failed;
}
