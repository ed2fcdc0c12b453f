/* SPDX-License-Identifier: Apache-2.0 */
/* The C table encoder: what percent-encoding a flat table of pairs costs in plain C. */
#include "CFormBaseline.h"

#include <stdint.h>
#include <stdlib.h>

/* 1 for the bytes written as themselves: A-Z a-z 0-9 - . _ ~ / ? */
static const uint8_t kept[256] = {
    ['-'] = 1, ['.'] = 1, ['_'] = 1, ['~'] = 1, ['/'] = 1, ['?'] = 1,
    ['0'] = 1, ['1'] = 1, ['2'] = 1, ['3'] = 1, ['4'] = 1, ['5'] = 1, ['6'] = 1, ['7'] = 1, ['8'] = 1, ['9'] = 1,
    ['A'] = 1, ['B'] = 1, ['C'] = 1, ['D'] = 1, ['E'] = 1, ['F'] = 1, ['G'] = 1, ['H'] = 1, ['I'] = 1,
    ['J'] = 1, ['K'] = 1, ['L'] = 1, ['M'] = 1, ['N'] = 1, ['O'] = 1, ['P'] = 1, ['Q'] = 1, ['R'] = 1,
    ['S'] = 1, ['T'] = 1, ['U'] = 1, ['V'] = 1, ['W'] = 1, ['X'] = 1, ['Y'] = 1, ['Z'] = 1,
    ['a'] = 1, ['b'] = 1, ['c'] = 1, ['d'] = 1, ['e'] = 1, ['f'] = 1, ['g'] = 1, ['h'] = 1, ['i'] = 1,
    ['j'] = 1, ['k'] = 1, ['l'] = 1, ['m'] = 1, ['n'] = 1, ['o'] = 1, ['p'] = 1, ['q'] = 1, ['r'] = 1,
    ['s'] = 1, ['t'] = 1, ['u'] = 1, ['v'] = 1, ['w'] = 1, ['x'] = 1, ['y'] = 1, ['z'] = 1,
};

static char *escape(char *out, const char *text, size_t length) {
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < length; i++) {
        uint8_t byte = (uint8_t)text[i];
        if (kept[byte]) {
            *out++ = (char)byte;
        } else {
            *out++ = '%';
            *out++ = hex[byte >> 4];
            *out++ = hex[byte & 0xF];
        }
    }
    return out;
}

size_t satchel_bench_form_encode(const satchel_bench_form_pair *pairs, size_t count, char **out) {
    size_t capacity = 1;
    for (size_t i = 0; i < count; i++) {
        capacity += 3 * (pairs[i].key_length + pairs[i].value_length) + 2;
    }
    char *buffer = malloc(capacity);
    if (buffer == NULL) return (size_t)-1;
    char *end = buffer;
    for (size_t i = 0; i < count; i++) {
        if (i > 0) *end++ = '&';
        end = escape(end, pairs[i].key, pairs[i].key_length);
        if (pairs[i].value != NULL) {
            *end++ = '=';
            end = escape(end, pairs[i].value, pairs[i].value_length);
        }
    }
    size_t length = (size_t)(end - buffer);
    if (out != NULL) {
        *out = buffer;
    } else {
        free(buffer);
    }
    return length;
}
