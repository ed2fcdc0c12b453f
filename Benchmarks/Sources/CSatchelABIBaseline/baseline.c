/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of Satchel's C ABI benchmark (see include/satchel_abi_baseline.h). */
#include "satchel_abi_baseline.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "satchel.h"

struct satchel_bench_abi {
    void *library;
    satchel_registry *registry;
    satchel_status (*registry_create)(satchel_registry **);
    void (*registry_free)(satchel_registry *);
    satchel_status (*registry_decode)(satchel_value **, const satchel_registry *, const char *, size_t, const void *, size_t);
    void (*value_free)(satchel_value *);
    satchel_type (*value_type)(const satchel_value *);
};

satchel_bench_abi *satchel_bench_abi_open(const char *library_path, char *error, size_t error_size) {
    satchel_bench_abi *abi = calloc(1, sizeof *abi);
    if (abi == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    abi->library = dlopen(library_path, RTLD_NOW | RTLD_LOCAL);
    if (abi->library == NULL) {
        snprintf(error, error_size, "dlopen: %s", dlerror());
        free(abi);
        return NULL;
    }
    *(void **)&abi->registry_create = dlsym(abi->library, "satchel_registry_create");
    *(void **)&abi->registry_free = dlsym(abi->library, "satchel_registry_free");
    *(void **)&abi->registry_decode = dlsym(abi->library, "satchel_registry_decode");
    *(void **)&abi->value_free = dlsym(abi->library, "satchel_value_free");
    *(void **)&abi->value_type = dlsym(abi->library, "satchel_value_type");
    if (!abi->registry_create || !abi->registry_free || !abi->registry_decode || !abi->value_free || !abi->value_type) {
        snprintf(error, error_size, "%s lacks a satchel_ function the benchmark calls", library_path);
        satchel_bench_abi_close(abi);
        return NULL;
    }
    satchel_status status = abi->registry_create(&abi->registry);
    if (status != SATCHEL_OK) {
        snprintf(error, error_size, "satchel_registry_create failed with status %d", (int)status);
        satchel_bench_abi_close(abi);
        return NULL;
    }
    return abi;
}

int satchel_bench_abi_decode(const satchel_bench_abi *abi, const char *content_type, const void *body, size_t length) {
    satchel_value *value = NULL;
    satchel_status status = abi->registry_decode(&value, abi->registry, content_type, strlen(content_type), body, length);
    if (status != SATCHEL_OK) return -(int)status;
    int type = value == NULL ? 0 : (int)abi->value_type(value);
    abi->value_free(value);
    return type;
}

void satchel_bench_abi_close(satchel_bench_abi *abi) {
    if (abi == NULL) return;
    if (abi->registry != NULL) abi->registry_free(abi->registry);
    /* The library stays loaded: Swift images cannot be unloaded safely. */
    free(abi);
}
