/* SPDX-License-Identifier: Apache-2.0 */
/*
** csv_plugin.c -- a Satchel plugin in C: text/csv <-> an array of objects.
**
** Decoding: the first line holds the column names; every other line becomes an object with
** those keys and the line's fields as strings (RFC 4180: fields may be quoted, "" is a quote
** inside quotes, lines end with CRLF or LF). Encoding: an array of objects with string,
** integer or number members becomes a header line plus one line per object.
**
** Built as a shared object that does not link libsatchel: everything comes through the host
** table handed to satchel_plugin_init.
**   cc -shared -fPIC -I include Examples/c/csv_plugin.c -o csv_plugin.so
*/
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satchel.h"

/* One parsed field: bytes in a growable buffer. */
typedef struct field_buffer {
    char *bytes;
    size_t length;
    size_t capacity;
} field_buffer;

static int field_append(const satchel_host *host, field_buffer *field, char byte) {
    if (field->length + 1 > field->capacity) {
        size_t capacity = field->capacity ? field->capacity * 2 : 64;
        char *bigger = (char *)host->allocate(capacity);
        if (!bigger) return -1;
        if (field->length) memcpy(bigger, field->bytes, field->length);
        host->free(field->bytes);
        field->bytes = bigger;
        field->capacity = capacity;
    }
    field->bytes[field->length++] = byte;
    return 0;
}

/* Fails the decode with a message that says where. */
static satchel_status fail(const satchel_host *host, satchel_status status, const char *what, size_t offset) {
    char message[160];
    sprintf(message, "text/csv: %s (at byte %lu)", what, (unsigned long)offset);
    host->set_error_message(message);
    return status;
}

/* Decodes CSV into an array of objects keyed by the header line. */
static satchel_status csv_decode(void *userdata, const satchel_host *host, const char *content_type,
                                 size_t content_type_length, const uint8_t *body, size_t length,
                                 satchel_value **out_value) {
    satchel_value *rows = NULL, *header = NULL, *row = NULL;
    field_buffer field = {NULL, 0, 0};
    size_t offset = 0, column = 0, columns = 0;
    int in_quotes = 0, line = 0, at_field_start = 1;
    satchel_status status;
    (void)userdata; (void)content_type; (void)content_type_length;

    if (length == 0) return SATCHEL_OK; /* no value */
    if ((status = host->value_create_array(&rows)) != SATCHEL_OK) return status;
    if ((status = host->value_create_array(&header)) != SATCHEL_OK) goto done;

    while (offset <= length) {
        int end_of_input = offset == length;
        char byte = end_of_input ? '\n' : (char)body[offset];
        if (in_quotes && !end_of_input) {
            if (byte == '"') {
                if (offset + 1 < length && body[offset + 1] == '"') { offset++; if (field_append(host, &field, '"')) goto no_memory; }
                else in_quotes = 0;
            } else if (field_append(host, &field, byte)) goto no_memory;
            offset++;
            continue;
        }
        if (in_quotes && end_of_input) { status = fail(host, SATCHEL_E_TRUNCATED, "a quoted field is not closed", offset); goto done; }
        if (byte == '"' && at_field_start) { in_quotes = 1; at_field_start = 0; offset++; continue; }
        if (byte == '\r' && offset + 1 < length && body[offset + 1] == '\n') { offset++; continue; }
        if (byte == ',' || byte == '\n') {
            satchel_value *text = NULL;
            if ((status = host->value_create_string(&text, field.bytes ? field.bytes : "", field.length)) != SATCHEL_OK) goto done;
            field.length = 0;
            if (line == 0) {
                if ((status = host->value_array_append(header, text)) != SATCHEL_OK) { host->value_free(text); goto done; }
            } else {
                const satchel_value *name = NULL;
                const char *key = NULL;
                size_t key_length = 0;
                if (column >= columns) { host->value_free(text); status = fail(host, SATCHEL_E_SYNTAX, "a row has more fields than the header", offset); goto done; }
                if (!row && (status = host->value_create_object(&row)) != SATCHEL_OK) { host->value_free(text); goto done; }
                host->value_array_get(&name, header, column);
                host->value_get_string(&key, &key_length, name);
                if ((status = host->value_object_set(row, key, key_length, text)) != SATCHEL_OK) { host->value_free(text); goto done; }
            }
            column++;
            at_field_start = 1;
            if (byte == '\n') {
                if (line == 0) columns = column;
                else if (column != columns) { status = fail(host, SATCHEL_E_SYNTAX, "a row has fewer fields than the header", offset); goto done; }
                else { if ((status = host->value_array_append(rows, row)) != SATCHEL_OK) goto done; row = NULL; }
                line++;
                column = 0;
                /* A final line break ends the input. */
                if (offset + 1 == length) break;
            }
            offset++;
            continue;
        }
        if (field_append(host, &field, byte)) goto no_memory;
        at_field_start = 0;
        offset++;
    }
    *out_value = rows;
    rows = NULL;
    status = SATCHEL_OK;
    goto done;
no_memory:
    status = fail(host, SATCHEL_E_NO_MEMORY, "out of memory", offset);
done:
    host->free(field.bytes);
    host->value_free(row);
    host->value_free(header);
    host->value_free(rows);
    return status;
}

/* Appends bytes to a host-allocated output buffer. */
static int output_append(const satchel_host *host, field_buffer *output, const char *bytes, size_t length) {
    size_t index;
    for (index = 0; index < length; index++) if (field_append(host, output, bytes[index])) return -1;
    return 0;
}

/* Writes one field, quoted when it holds a comma, a quote or a line break. */
static int output_field(const satchel_host *host, field_buffer *output, const char *text, size_t length) {
    size_t index;
    int quote = 0;
    for (index = 0; index < length; index++) if (text[index] == ',' || text[index] == '"' || text[index] == '\n' || text[index] == '\r') quote = 1;
    if (!quote) return output_append(host, output, text, length);
    if (field_append(host, output, '"')) return -1;
    for (index = 0; index < length; index++) {
        if (text[index] == '"' && field_append(host, output, '"')) return -1;
        if (field_append(host, output, text[index])) return -1;
    }
    return field_append(host, output, '"');
}

/* Encodes an array of objects as CSV: the first object's keys are the columns. */
static satchel_status csv_encode(void *userdata, const satchel_host *host, const satchel_value *parameters,
                                 uint8_t **out_body, size_t *out_length) {
    field_buffer output = {NULL, 0, 0};
    size_t rows = 0, columns = 0, row_index, column;
    const satchel_value *first = NULL;
    (void)userdata;
    if (host->value_type(parameters) != SATCHEL_TYPE_ARRAY) { host->set_error_message("text/csv: the parameters must be an array of objects"); return SATCHEL_E_UNENCODABLE; }
    host->value_count(&rows, parameters);
    if (rows == 0) { *out_body = NULL; *out_length = 0; return SATCHEL_OK; }
    host->value_array_get(&first, parameters, 0);
    if (host->value_count(&columns, first) != SATCHEL_OK || host->value_type(first) != SATCHEL_TYPE_OBJECT) { host->set_error_message("text/csv: every row must be an object"); return SATCHEL_E_UNENCODABLE; }
    for (column = 0; column < columns; column++) {
        const char *key; size_t key_length; const satchel_value *member;
        host->value_object_entry(&key, &key_length, &member, first, column);
        if ((column && field_append(host, &output, ',')) || output_field(host, &output, key, key_length)) goto no_memory;
    }
    if (output_append(host, &output, "\r\n", 2)) goto no_memory;
    for (row_index = 0; row_index < rows; row_index++) {
        const satchel_value *row;
        host->value_array_get(&row, parameters, row_index);
        for (column = 0; column < columns; column++) {
            const char *key, *text; size_t key_length, text_length; const satchel_value *member;
            char number[64];
            if (host->value_object_entry(&key, &key_length, &member, row, column) != SATCHEL_OK) { host->free(output.bytes); host->set_error_message("text/csv: a row has fewer members than the first"); return SATCHEL_E_UNENCODABLE; }
            if (host->value_get_string(&text, &text_length, member) != SATCHEL_OK) {
                int64_t integer; double real;
                if (host->value_get_int64(&integer, member) == SATCHEL_OK) sprintf(number, "%lld", (long long)integer);
                else if (host->value_get_double(&real, member) == SATCHEL_OK) sprintf(number, "%.17g", real);
                else { host->free(output.bytes); host->set_error_message("text/csv: members must be strings or numbers"); return SATCHEL_E_UNENCODABLE; }
                text = number; text_length = strlen(number);
            }
            if ((column && field_append(host, &output, ',')) || output_field(host, &output, text, text_length)) goto no_memory;
        }
        if (output_append(host, &output, "\r\n", 2)) goto no_memory;
    }
    *out_body = (uint8_t *)output.bytes;
    *out_length = output.length;
    return SATCHEL_OK;
no_memory:
    host->free(output.bytes);
    return SATCHEL_E_NO_MEMORY;
}

static const char *const csv_types[] = {"text/csv", NULL};

/* The entry point satchel_registry_load_plugin looks up. */
#ifdef __cplusplus
extern "C"
#endif
__attribute__((visibility("default"))) satchel_status satchel_plugin_init(const satchel_host *host, satchel_registry *registry) {
    satchel_response_serializer decoder;
    satchel_request_serializer encoder;
    satchel_status status;
    if (host->abi_version < 1) return SATCHEL_E_ABI_MISMATCH;
    memset(&decoder, 0, sizeof decoder);
    decoder.struct_size = sizeof decoder;
    decoder.abi_version = SATCHEL_ABI_VERSION;
    decoder.name = "csv";
    decoder.media_types = csv_types;
    decoder.decode = csv_decode;
    if ((status = host->register_response_serializer(registry, &decoder)) != SATCHEL_OK) return status;
    memset(&encoder, 0, sizeof encoder);
    encoder.struct_size = sizeof encoder;
    encoder.abi_version = SATCHEL_ABI_VERSION;
    encoder.name = "csv";
    encoder.media_type = "text/csv";
    encoder.encode = csv_encode;
    return host->register_request_serializer(registry, &encoder);
}
