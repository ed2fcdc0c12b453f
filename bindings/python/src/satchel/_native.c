/* SPDX-License-Identifier: Apache-2.0 */
/*
** satchel._native: Satchel's values as Python objects in one call, against CPython's limited
** API (abi3, CPython 3.9 and later).
**
** The module links nothing. The package's ctypes loader hands it the addresses of the four
** libsatchel functions it calls (`init`), so that the extension and ctypes use the very same
** library, whichever one SATCHEL_LIBRARY named. `decode` lets go of the GIL while libsatchel
** parses, then builds dicts, lists, str, int (exact beyond 64 bits), float, bytes, datetime and
** None from one satchel_value_visit walk: no ctypes call per value, no JSON text in between.
** `visit` (for JSON) builds them as satchel_registry_visit reads the text, with no value in
** between: the GIL stays held, since each callback makes a Python object.
** Payloads (images, XML, parts, HTTP messages) go back to the Python `fallback` the package
** passes, which reads them through ctypes while the walk holds them.
*/
#define Py_LIMITED_API 0x03090000
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include "satchel.h"

typedef satchel_status (*decode_fn)(satchel_value **, satchel_registry *, const char *, size_t, const void *, size_t);
typedef satchel_status (*visit_fn)(const satchel_value *, const satchel_visitor *, void *);
typedef void (*free_fn)(satchel_value *);
typedef satchel_status (*registry_visit_fn)(const satchel_registry *, const char *, size_t, const void *, size_t,
                                            const satchel_visitor *, void *);

typedef satchel_status (*reader_next_fn)(satchel_value **, satchel_reader *);
typedef satchel_type (*type_fn)(const satchel_value *);
typedef satchel_status (*count_fn)(size_t *, const satchel_value *);
typedef satchel_status (*part_fn)(satchel_part *, const satchel_value *, size_t);
typedef satchel_status (*part_header_fn)(const char **, size_t *, const char **, size_t *, const satchel_value *, size_t,
                                         size_t);

static decode_fn registry_decode;
static registry_visit_fn registry_visit;
static reader_next_fn reader_next;
/* Multipart values are read here too (init_parts): a part costs no ctypes call. */
static type_fn value_type;
static count_fn value_count;
static part_fn value_part;
static part_header_fn part_header_at;
static PyObject *part_class; /* satchel.values.Part, a frozen dataclass */
static PyObject *part_field_names[6]; /* its fields, in order (init_parts) */
static PyObject *empty_tuple;
static visit_fn value_visit;
static free_fn value_free;

/* One open container: a list filled by index, or a dict with the key of its next member. */
typedef struct frame {
    PyObject *container;
    Py_ssize_t next;
    PyObject *key;
} frame;

typedef struct builder {
    frame *frames;
    Py_ssize_t depth, capacity;
    PyObject *root;
    PyObject *fallback;
    PyObject *utc;       /* datetime.timezone.utc, looked up on the first date */
    PyObject *datetime;  /* datetime.datetime */
} builder;

/* Puts `object` (a new reference, or NULL after a Python error) in its place; -1 stops the walk. */
static int place(builder *b, PyObject *object) {
    frame *top;
    if (object == NULL) return -1;
    if (b->depth == 0) {
        b->root = object;
        return 0;
    }
    top = &b->frames[b->depth - 1];
    if (PyList_Check(top->container)) {
        return PyList_SetItem(top->container, top->next++, object); /* steals `object` */
    } else {
        int failed = top->key == NULL || PyDict_SetItem(top->container, top->key, object) != 0;
        Py_DECREF(object);
        Py_CLEAR(top->key);
        return failed ? -1 : 0;
    }
}

static int open_container(builder *b, PyObject *container) {
    if (container == NULL) return -1;
    if (b->depth == b->capacity) {
        Py_ssize_t capacity = b->capacity ? b->capacity * 2 : 32;
        frame *frames = (frame *)PyMem_Realloc(b->frames, (size_t)capacity * sizeof(frame));
        if (frames == NULL) {
            Py_DECREF(container);
            PyErr_NoMemory();
            return -1;
        }
        b->frames = frames;
        b->capacity = capacity;
    }
    b->frames[b->depth].container = container;
    b->frames[b->depth].next = 0;
    b->frames[b->depth].key = NULL;
    b->depth++;
    return 0;
}

static int close_container(builder *b) {
    frame top = b->frames[--b->depth];
    Py_XDECREF(top.key);
    return place(b, top.container);
}

static int on_null(void *u) { Py_INCREF(Py_None); return place((builder *)u, Py_None); }
static int on_bool(void *u, int value) { PyObject *o = value ? Py_True : Py_False; Py_INCREF(o); return place((builder *)u, o); }
static int on_int64(void *u, int64_t value) { return place((builder *)u, PyLong_FromLongLong(value)); }
static int on_uint64(void *u, uint64_t value) { return place((builder *)u, PyLong_FromUnsignedLongLong(value)); }
static int on_real(void *u, double value) { return place((builder *)u, PyFloat_FromDouble(value)); }
static int on_string(void *u, const char *text, size_t length) {
    return place((builder *)u, PyUnicode_DecodeUTF8(text, (Py_ssize_t)length, "strict"));
}
static int on_bytes(void *u, const uint8_t *bytes, size_t length) {
    return place((builder *)u, PyBytes_FromStringAndSize((const char *)bytes, (Py_ssize_t)length));
}
static int on_date(void *u, double seconds) {
    builder *b = (builder *)u;
    if (b->datetime == NULL) {
        PyObject *module = PyImport_ImportModule("datetime"), *timezone;
        if (module == NULL) return -1;
        b->datetime = PyObject_GetAttrString(module, "datetime");
        timezone = PyObject_GetAttrString(module, "timezone");
        Py_DECREF(module);
        b->utc = timezone ? PyObject_GetAttrString(timezone, "utc") : NULL;
        Py_XDECREF(timezone);
        if (b->datetime == NULL || b->utc == NULL) return -1;
    }
    return place(b, PyObject_CallMethod(b->datetime, "fromtimestamp", "dO", seconds, b->utc));
}
static int on_begin_array(void *u, size_t count) { return open_container((builder *)u, PyList_New((Py_ssize_t)count)); }
static int on_begin_object(void *u, size_t count) { (void)count; return open_container((builder *)u, PyDict_New()); }
static int on_end(void *u) { return close_container((builder *)u); }
/* Member names repeat (every record of a list has the same ones): the str of a short name is
** kept in a direct-mapped cache keyed by its bytes, so a repeated name costs a hash of its bytes
** and a compare instead of a new str and its hash. The cache holds a reference to each str it
** keeps; it is only touched with the GIL held. */
#define KEY_CACHE_SLOTS 512
#define KEY_CACHE_LENGTH 32
typedef struct key_slot {
    PyObject *key;
    uint32_t hash;
    uint32_t length;
    char text[KEY_CACHE_LENGTH];
} key_slot;
static key_slot key_cache[KEY_CACHE_SLOTS];

/* The str of a member name (a new reference), or NULL with a Python error set. */
static PyObject *member_name(const char *text, size_t length) {
    uint32_t hash = 2166136261u; /* FNV-1a */
    key_slot *slot;
    PyObject *key;
    size_t i;
    if (length > KEY_CACHE_LENGTH) return PyUnicode_DecodeUTF8(text, (Py_ssize_t)length, "strict");
    for (i = 0; i < length; i++) hash = (hash ^ (uint8_t)text[i]) * 16777619u;
    slot = &key_cache[hash % KEY_CACHE_SLOTS];
    if (slot->key != NULL && slot->hash == hash && slot->length == length && memcmp(slot->text, text, length) == 0) {
        Py_INCREF(slot->key);
        return slot->key;
    }
    key = PyUnicode_DecodeUTF8(text, (Py_ssize_t)length, "strict");
    if (key == NULL) return NULL;
    Py_XDECREF(slot->key);
    Py_INCREF(key);
    slot->key = key;
    slot->hash = hash;
    slot->length = (uint32_t)length;
    if (length > 0) memcpy(slot->text, text, length);
    return key;
}

static int on_key(void *u, const char *key, size_t length) {
    builder *b = (builder *)u;
    frame *top = &b->frames[b->depth - 1];
    top->key = member_name(key, length);
    return top->key == NULL ? -1 : 0;
}
static PyObject *build(const satchel_value *value, PyObject *fallback, satchel_status *status);

/* UTF-8 text as a str, or None for NULL (as the package's _ffi.text). */
static PyObject *text_or_none(const char *text, size_t length) {
    if (text == NULL) Py_RETURN_NONE;
    return PyUnicode_DecodeUTF8(text, (Py_ssize_t)length, "strict");
}

/* One part as a satchel.values.Part (a new reference), or NULL with a Python error set. */
static PyObject *read_part(const satchel_value *multipart, size_t index, PyObject *fallback) {
    satchel_part info;
    satchel_status status;
    PyObject *headers = NULL, *value = NULL, *part = NULL;
    size_t header;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    info.abi_version = SATCHEL_ABI_VERSION;
    status = value_part(&info, multipart, index);
    if (status != SATCHEL_OK) return PyErr_Format(PyExc_RuntimeError, "satchel_value_part failed with status %d", (int)status);
    headers = PyList_New((Py_ssize_t)info.header_count);
    if (headers == NULL) goto done;
    for (header = 0; header < info.header_count; header++) {
        const char *name = NULL, *text = NULL;
        size_t name_length = 0, text_length = 0;
        PyObject *pair;
        status = part_header_at(&name, &name_length, &text, &text_length, multipart, index, header);
        if (status != SATCHEL_OK) {
            PyErr_Format(PyExc_RuntimeError, "satchel_value_part_header_at failed with status %d", (int)status);
            goto done;
        }
        pair = Py_BuildValue("(s#s#)", name ? name : "", (Py_ssize_t)name_length, text ? text : "", (Py_ssize_t)text_length);
        if (pair == NULL) goto done;
        PyList_SetItem(headers, (Py_ssize_t)header, pair); /* steals `pair` */
    }
    if (info.value == NULL) {
        Py_INCREF(Py_None);
        value = Py_None;
    } else {
        value = build(info.value, fallback, &status);
        if (value == NULL) {
            if (!PyErr_Occurred()) PyErr_Format(PyExc_RuntimeError, "satchel_value_visit failed with status %d", (int)status);
            goto done;
        }
    }
    {
        /* The frozen dataclass's fields, set as its generated __init__ sets them (object's
        ** __setattr__), without the call into Python for each part. */
        PyObject *fields[6];
        int field, failed = 0;
        fields[0] = text_or_none(info.name, info.name_length);
        fields[1] = text_or_none(info.filename, info.filename_length);
        fields[2] = text_or_none(info.content_type, info.content_type_length);
        fields[3] = headers;
        Py_INCREF(headers);
        fields[4] = PyLong_FromUnsignedLongLong(info.size);
        fields[5] = value;
        Py_INCREF(value);
        part = PyType_GenericNew((PyTypeObject *)part_class, empty_tuple, NULL);
        for (field = 0; field < 6; field++) {
            failed = failed || part == NULL || fields[field] == NULL ||
                     PyObject_GenericSetAttr(part, part_field_names[field], fields[field]) != 0;
            Py_XDECREF(fields[field]);
        }
        if (failed) Py_CLEAR(part);
    }
done:
    Py_XDECREF(headers);
    Py_XDECREF(value);
    return part;
}

/* A multipart value's parts as a list of Part (a new reference), or NULL with a Python error. */
static PyObject *read_parts(const satchel_value *multipart, PyObject *fallback) {
    size_t count = 0, index;
    PyObject *parts;
    satchel_status status = value_count(&count, multipart);
    if (status != SATCHEL_OK) return PyErr_Format(PyExc_RuntimeError, "satchel_value_count failed with status %d", (int)status);
    parts = PyList_New((Py_ssize_t)count);
    if (parts == NULL) return NULL;
    for (index = 0; index < count; index++) {
        PyObject *part = read_part(multipart, index, fallback);
        if (part == NULL) {
            Py_DECREF(parts);
            return NULL;
        }
        PyList_SetItem(parts, (Py_ssize_t)index, part); /* steals `part` */
    }
    return parts;
}

static int on_other(void *u, const satchel_value *payload) {
    builder *b = (builder *)u;
    if (part_class != NULL && value_type(payload) == SATCHEL_TYPE_MULTIPART) return place(b, read_parts(payload, b->fallback));
    return place(b, PyObject_CallFunction(b->fallback, "K", (unsigned long long)(uintptr_t)payload));
}

static void builder_free(builder *b) {
    while (b->depth > 0) {
        frame top = b->frames[--b->depth];
        Py_XDECREF(top.key);
        Py_DECREF(top.container);
    }
    PyMem_Free(b->frames);
    Py_XDECREF(b->root);
    Py_XDECREF(b->utc);
    Py_XDECREF(b->datetime);
}

/* The visitor whose callbacks build Python objects into a builder. */
static void fill_visitor(satchel_visitor *visitor) {
    memset(visitor, 0, sizeof *visitor);
    visitor->struct_size = sizeof *visitor;
    visitor->abi_version = SATCHEL_ABI_VERSION;
    visitor->null_value = on_null;
    visitor->boolean = on_bool;
    visitor->int64 = on_int64;
    visitor->uint64 = on_uint64;
    visitor->real = on_real;
    visitor->string = on_string;
    visitor->bytes = on_bytes;
    visitor->date = on_date;
    visitor->begin_array = on_begin_array;
    visitor->end_array = on_end;
    visitor->begin_object = on_begin_object;
    visitor->key = on_key;
    visitor->end_object = on_end;
    visitor->other = on_other;
}

/* The builder's root after a walk that ended with `status` (a new reference; Py_None for no
** value), or NULL: with a Python error set, or with none when libsatchel's status is the error. */
static PyObject *finish(builder *b, satchel_status status) {
    PyObject *root = NULL;
    if (status == SATCHEL_OK && !PyErr_Occurred()) {
        root = b->root != NULL ? b->root : Py_None;
        if (b->root == NULL) Py_INCREF(Py_None);
        b->root = NULL;
    }
    builder_free(b);
    return root;
}

/* The Python value of `value`, or NULL with a Python error set; `status` gets libsatchel's. */
static PyObject *build(const satchel_value *value, PyObject *fallback, satchel_status *status) {
    builder b;
    satchel_visitor visitor;
    memset(&b, 0, sizeof b);
    b.fallback = fallback;
    fill_visitor(&visitor);
    *status = value_visit(value, &visitor, &b);
    return finish(&b, *status);
}

/* init(decode, visit, free, registry_visit, reader_next): libsatchel's function addresses, from ctypes. */
static PyObject *native_init(PyObject *self, PyObject *args) {
    unsigned long long decode, visit, release, walk, next;
    (void)self;
    if (!PyArg_ParseTuple(args, "KKKKK", &decode, &visit, &release, &walk, &next)) return NULL;
    if (decode == 0 || visit == 0 || release == 0 || walk == 0 || next == 0) {
        PyErr_SetString(PyExc_ValueError, "satchel._native.init: a NULL function address");
        return NULL;
    }
    registry_decode = (decode_fn)(uintptr_t)decode;
    value_visit = (visit_fn)(uintptr_t)visit;
    value_free = (free_fn)(uintptr_t)release;
    registry_visit = (registry_visit_fn)(uintptr_t)walk;
    reader_next = (reader_next_fn)(uintptr_t)next;
    Py_RETURN_NONE;
}

/* init_parts(type, count, part, part_header_at, Part): what reading multipart values here needs. */
static PyObject *native_init_parts(PyObject *self, PyObject *args) {
    static const char *names[6] = {"name", "filename", "content_type", "headers", "size", "value"};
    unsigned long long type, count, part, header;
    PyObject *cls;
    int field;
    (void)self;
    if (!PyArg_ParseTuple(args, "KKKKO", &type, &count, &part, &header, &cls)) return NULL;
    if (type == 0 || count == 0 || part == 0 || header == 0 || !PyType_Check(cls)) {
        PyErr_SetString(PyExc_ValueError, "satchel._native.init_parts: a NULL function address or a class that is not a type");
        return NULL;
    }
    if (empty_tuple == NULL && (empty_tuple = PyTuple_New(0)) == NULL) return NULL;
    for (field = 0; field < 6; field++) {
        if (part_field_names[field] == NULL && (part_field_names[field] = PyUnicode_InternFromString(names[field])) == NULL) {
            return NULL;
        }
    }
    value_type = (type_fn)(uintptr_t)type;
    value_count = (count_fn)(uintptr_t)count;
    value_part = (part_fn)(uintptr_t)part;
    part_header_at = (part_header_fn)(uintptr_t)header;
    Py_INCREF(cls);
    Py_XDECREF(part_class);
    part_class = cls;
    Py_RETURN_NONE;
}

/* records(reader, fallback) -> (status, list): every record the reader has ready, as Python
** objects, oldest first, in one call (satchel_reader_next and a walk per record); the status is
** libsatchel's first error (SATCHEL_OK when the reader ran out), with the records before it. */
static PyObject *native_records(PyObject *self, PyObject *args) {
    unsigned long long reader;
    PyObject *fallback, *list, *record;
    satchel_value *value;
    satchel_status status;
    (void)self;
    if (reader_next == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "satchel._native.records before init");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "KO", &reader, &fallback)) return NULL;
    list = PyList_New(0);
    if (list == NULL) return NULL;
    for (;;) {
        value = NULL;
        status = reader_next(&value, (satchel_reader *)(uintptr_t)reader);
        if (status == SATCHEL_E_NOT_FOUND) {
            status = SATCHEL_OK;
            break;
        }
        if (status != SATCHEL_OK) break;
        if (value == NULL) {
            Py_INCREF(Py_None);
            record = Py_None;
        } else {
            record = build(value, fallback, &status);
            value_free(value);
        }
        if (record == NULL) {
            if (PyErr_Occurred()) {
                Py_DECREF(list);
                return NULL;
            }
            break;
        }
        if (PyList_Append(list, record) != 0) {
            Py_DECREF(record);
            Py_DECREF(list);
            return NULL;
        }
        Py_DECREF(record);
    }
    return Py_BuildValue("(iN)", (int)status, list);
}

/* What decode and visit return: (SATCHEL_OK, the value), or (libsatchel's status, None) when
** `result` is NULL with no Python error set; NULL when one is set. Takes `result`. */
static PyObject *outcome(PyObject *result, satchel_status status) {
    if (result == NULL) return PyErr_Occurred() ? NULL : Py_BuildValue("(iO)", (int)status, Py_None);
    return Py_BuildValue("(iN)", (int)SATCHEL_OK, result);
}

/* decode and visit's arguments: (registry, body, content_type, fallback). `args` holds the
** body and the Content-Type, so they stay alive while decode lets go of the GIL. */
typedef struct body_arguments {
    unsigned long long registry;
    const char *data, *content_type;
    Py_ssize_t length, content_type_length;
    PyObject *fallback;
} body_arguments;

static int parse_body_arguments(PyObject *args, int ready, const char *name, body_arguments *a) {
    memset(a, 0, sizeof *a);
    if (!ready) {
        PyErr_Format(PyExc_RuntimeError, "satchel._native.%s before init", name);
        return 0;
    }
    return PyArg_ParseTuple(args, "Ky#z#O", &a->registry, &a->data, &a->length, &a->content_type,
                            &a->content_type_length, &a->fallback);
}

/* decode(registry, body, content_type, fallback) -> (status, value): libsatchel's status (the
** caller reads the message and raises) and the value (None for no value or on an error). */
static PyObject *native_decode(PyObject *self, PyObject *args) {
    body_arguments a;
    satchel_value *value = NULL;
    satchel_status status;
    PyObject *result;
    (void)self;
    if (!parse_body_arguments(args, registry_decode != NULL, "decode", &a)) return NULL;
    Py_BEGIN_ALLOW_THREADS
    status = registry_decode(&value, (satchel_registry *)(uintptr_t)a.registry, a.content_type,
                             (size_t)a.content_type_length, a.data, (size_t)a.length);
    Py_END_ALLOW_THREADS
    if (status != SATCHEL_OK || value == NULL) return Py_BuildValue("(iO)", (int)status, Py_None);
    result = build(value, a.fallback, &status);
    value_free(value);
    return outcome(result, status);
}

/* visit(registry, body, content_type, fallback) -> (status, value), as decode, built while
** satchel_registry_visit reads the body (JSON: no value in between; the GIL stays held). */
static PyObject *native_visit(PyObject *self, PyObject *args) {
    body_arguments a;
    builder b;
    satchel_visitor visitor;
    satchel_status status;
    (void)self;
    if (!parse_body_arguments(args, registry_visit != NULL, "visit", &a)) return NULL;
    memset(&b, 0, sizeof b);
    b.fallback = a.fallback;
    fill_visitor(&visitor);
    status = registry_visit((const satchel_registry *)(uintptr_t)a.registry, a.content_type,
                            (size_t)a.content_type_length, a.data, (size_t)a.length, &visitor, &b);
    return outcome(finish(&b, status), status);
}

/* python(value) -> object: a value handle (an int address) as Python objects. */
static PyObject *native_python(PyObject *self, PyObject *args) {
    unsigned long long handle;
    PyObject *fallback, *result;
    satchel_status status;
    (void)self;
    if (value_visit == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "satchel._native.python before init");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "KO", &handle, &fallback)) return NULL;
    result = build((const satchel_value *)(uintptr_t)handle, fallback, &status);
    if (result == NULL && !PyErr_Occurred()) {
        PyErr_Format(PyExc_RuntimeError, "satchel_value_visit failed with status %d", (int)status);
    }
    return result;
}

static PyMethodDef methods[] = {
    {"init", native_init, METH_VARARGS, "init(decode, visit, free, registry_visit): libsatchel's function addresses."},
    {"visit", native_visit, METH_VARARGS,
     "visit(registry, body, content_type, fallback) -> (status, value), built as the body is read."},
    {"decode", native_decode, METH_VARARGS,
     "decode(registry, body, content_type, fallback) -> (status, value), parsing without the GIL."},
    {"python", native_python, METH_VARARGS, "python(value, fallback) -> the value as Python objects."},
    {"records", native_records, METH_VARARGS, "records(reader, fallback) -> (status, the records ready)."},
    {"init_parts", native_init_parts, METH_VARARGS,
     "init_parts(type, count, part, part_header_at, Part): read multipart values natively."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "satchel._native", "Satchel's values as Python objects in one call.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native(void) { return PyModule_Create(&module); }
