/* SPDX-License-Identifier: Apache-2.0 */
#include "CPlistBaseline.h"
#include <plist/plist.h>
#include <stdlib.h>
#include <string.h>

static int child_count(plist_t tree) {
    if (!tree) return 0;
    switch (plist_get_node_type(tree)) {
    case PLIST_DICT: return (int)plist_dict_get_size(tree);
    case PLIST_ARRAY: return (int)plist_array_get_size(tree);
    default: return 1;
    }
}

void *plist_baseline_parse(const char *bytes, uint32_t length, int binary) {
    plist_t tree = NULL;
    if (binary) plist_from_bin(bytes, length, &tree);
    else plist_from_xml(bytes, length, &tree);
    return tree;
}

int plist_baseline_read(const char *bytes, uint32_t length, int binary) {
    plist_t tree = plist_baseline_parse(bytes, length, binary);
    int count = child_count(tree);
    if (tree) plist_free(tree);
    return count;
}

uint32_t plist_baseline_write_into(void *tree, int binary, char *buffer, uint32_t capacity) {
    char *output = NULL;
    uint32_t length = 0;
    if (!tree) return 0;
    if (binary) plist_to_bin((plist_t)tree, &output, &length);
    else plist_to_xml((plist_t)tree, &output, &length);
    if (!output) return 0;
    if (buffer) memcpy(buffer, output, length < capacity ? length : capacity);
    if (binary) plist_to_bin_free(output);
    else plist_to_xml_free(output);
    return length;
}

uint32_t plist_baseline_write(void *tree, int binary) {
    return plist_baseline_write_into(tree, binary, NULL, 0);
}

void plist_baseline_free(void *tree) {
    if (tree) plist_free((plist_t)tree);
}
