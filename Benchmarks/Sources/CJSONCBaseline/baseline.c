/* SPDX-License-Identifier: Apache-2.0 */
/* The raw json-c baseline: what json-c alone costs, to put Satchel's JSON reader in context. */
#include "CJSONCBaseline.h"

#include <json-c/json.h>
#include <limits.h>

int satchel_bench_jsonc_parse(const char *bytes, size_t length) {
    if (bytes == NULL || length > (size_t)INT_MAX) {
        return -1;
    }
    struct json_tokener *tokener = json_tokener_new_ex(512);
    if (tokener == NULL) {
        return -1;
    }
    json_tokener_set_flags(tokener, JSON_TOKENER_STRICT);
    struct json_object *root = json_tokener_parse_ex(tokener, bytes, (int)length);
    enum json_tokener_error status = json_tokener_get_error(tokener);
    int result = 0;
    if (status == json_tokener_continue) {
        result = 1;
    } else if (status != json_tokener_success) {
        result = -1;
    } else {
        /* Only whitespace may follow the document. */
        for (size_t index = json_tokener_get_parse_end(tokener); index < length; index++) {
            char byte = bytes[index];
            if (byte != ' ' && byte != '\t' && byte != '\n' && byte != '\r') {
                result = -1;
                break;
            }
        }
    }
    json_object_put(root);
    json_tokener_free(tokener);
    return result;
}
