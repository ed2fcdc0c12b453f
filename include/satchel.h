/* SPDX-License-Identifier: Apache-2.0 */
/** @file
** satchel.h -- the C interface to Satchel, a plugin-based serialization framework.
**
** Satchel decodes HTTP payloads (JSON, URL-encoded forms, property lists, XML, PNG and JPEG
** images, multipart bodies, batch responses of embedded HTTP messages) into one value model,
** encodes parameters into request bodies, builds multipart bodies in constant memory, and
** carries requests over HTTP through libcurl. This header is everything a C program needs;
** link with `-lsatchel` (or `pkg-config --cflags --libs satchel`).
**
** CONVENTIONS
**
**   Names     Functions and types start with `satchel_`, macros and enumerators with
**             `SATCHEL_`. Objects are opaque handles made by `satchel_OBJECT_create` and
**             released by `satchel_OBJECT_free`; every `_free(NULL)` does nothing.
**
**   Status    Every call that can fail returns a `satchel_status`: SATCHEL_OK (0) or an
**             error. On an error, `satchel_last_error_message()` says what and where (for
**             example "SATCHEL_E_SYNTAX: unexpected '}' (at byte 17)"); out-parameters are left as
**             NULL / 0 unless the function says otherwise. Status values are only ever
**             appended, so treat an unknown one as a failure.
**
**   Arguments Out-parameters come first. NULL handles, NULL out-parameters, NULL data with a
**             non-zero length, and values of the wrong type return SATCHEL_E_INVALID_ARGUMENT
**             or SATCHEL_E_TYPE_MISMATCH; no call aborts the process on bad input.
**
**   Strings   UTF-8, passed as (pointer, length). A length of SATCHEL_NTS means the string is
**             NUL-terminated. Strings the library returns are also NUL-terminated, and their
**             length excludes the NUL, so they can be used either way (a JSON string may hold
**             U+0000: use the length for those).
**
**   Ownership Each pointer parameter is one of:
**               borrowed -- the library reads it during the call only;
**               copied   -- the library keeps its own copy;
**               taken    -- the library takes ownership on success (on failure the caller
**                          still owns it);
**             and each pointer the library returns is one of:
**               owned by the caller -- release it with the function named (`satchel_free` for
**                          plain buffers, `satchel_value_free` for values, ...);
**               owned by the library -- valid until the object it came from is freed (or
**                          until the call the function names); never free it.
**
**   Structs   Every struct a caller fills starts with `uint32_t struct_size` (set it to
**             `sizeof` the struct) and `uint32_t abi_version` (set it to SATCHEL_ABI_VERSION),
**             so that fields can be appended later without breaking compiled programs.
**
**   Threads   The library is thread-safe: registries and sessions may be used from several
**             threads at once; a value may be read from several threads at once. A value
**             under construction (the `satchel_value_*_append/_set` calls), a multipart builder
**             and a request are used by one thread at a time (a builder or a reader entered by
**             a second thread returns SATCHEL_E_MISUSE). The last error message is kept per
**             thread.
**
**   Valgrind  Programs using the library pass `valgrind --leak-check=full`: Satchel reads no
**             uninitialised memory and leaks nothing. The Swift runtime inside the library
**             keeps type metadata caches and parked worker threads until the process exits,
**             which Memcheck calls "possibly lost"; libsatchel-dev installs suppressions for
**             exactly those: `--suppressions=$(pkg-config --variable=valgrind_suppressions
**             satchel)` (share/satchel/valgrind/libsatchel.supp). They name runtime
**             functions, so valgrind needs the library's symbols: lib/.debug/ beside it, or
**             the libsatchel0-dbgsym Debian package.
*/
#ifndef SATCHEL_H
#define SATCHEL_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** SATCHEL_API marks every exported declaration. Define it before including this header to
** override it (as CURL_EXTERN and SQLITE_API allow): for example empty, or with an attribute
** of your own when you build Satchel's C library into a larger one. */
#ifndef SATCHEL_API
#  if defined(__GNUC__) && __GNUC__ >= 4
#    define SATCHEL_API __attribute__((visibility("default")))
#  else
#    define SATCHEL_API
#  endif
#endif

/* ---------------------------------------------------------------------------------------- */
/* Versions                                                                                 */
/* ---------------------------------------------------------------------------------------- */

/** @{ */
/** The version this header belongs to. `SATCHEL_VERSION_NUMBER` is
** major * 1000000 + minor * 1000 + patch, as in sqlite3.h. */
#define SATCHEL_VERSION "0.2.0"
#define SATCHEL_VERSION_MAJOR 0
#define SATCHEL_VERSION_MINOR 2
#define SATCHEL_VERSION_PATCH 0
#define SATCHEL_VERSION_NUMBER 2000
/** @} */

/** The version of the structs and the plugin interface; put it in every `abi_version` field.
** Members are only ever appended: version 2 appended `sniff` to satchel_response_serializer.
** The library reads a struct up to its `struct_size`, so a struct of an earlier version keeps
** working; a member past it counts as NULL. */
#define SATCHEL_ABI_VERSION 2

/** Marks a string argument as NUL-terminated instead of giving its length. */
#define SATCHEL_NTS ((size_t)-1)

/** The library's version string, such as "0.1.0" (owned by the library, static). Compare it
** with SATCHEL_VERSION to detect a header and library that do not match. */
SATCHEL_API const char *satchel_version(void);

/** The library's SATCHEL_VERSION_NUMBER. */
SATCHEL_API int satchel_version_number(void);

/* ---------------------------------------------------------------------------------------- */
/* Status codes and errors                                                                  */
/* ---------------------------------------------------------------------------------------- */

/** What a call returns. Values 1 to 21 are the codes of Swift's `SatchelError`. */
typedef enum satchel_status {
    SATCHEL_OK = 0,
    SATCHEL_E_INVALID_ARGUMENT = 1,            /**< a NULL pointer, a zero size, a bad option */
    SATCHEL_E_SYNTAX = 2,                      /**< the input breaks the format's grammar */
    SATCHEL_E_TRUNCATED = 3,                   /**< the input ended before the value did */
    SATCHEL_E_LIMIT = 4,                       /**< a limit was hit; the message names it */
    SATCHEL_E_ENCODING = 5,                    /**< invalid UTF-8 or another bad text encoding */
    SATCHEL_E_NUMBER_RANGE = 6,                /**< a number does not fit without loss */
    SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE = 7,   /**< no serializer takes the media type */
    SATCHEL_E_UNACCEPTABLE_STATUS = 8,         /**< the response's HTTP status is not acceptable */
    SATCHEL_E_TYPE_MISMATCH = 9,               /**< a value of another type than asked for */
    SATCHEL_E_NOT_FOUND = 10,                  /**< no such key, index or header */
    SATCHEL_E_UNENCODABLE = 11,                /**< the value cannot be written in that format */
    SATCHEL_E_INVALID_MEDIA_TYPE = 12,         /**< a media type could not be parsed */
    SATCHEL_E_IO = 13,                         /**< reading or writing a file failed */
    SATCHEL_E_INTERNAL = 14,                   /**< a failure input should never cause */
    SATCHEL_E_UNSUPPORTED_FORMAT = 15,         /**< a recognised format Satchel cannot decode */
    SATCHEL_E_CANCELLED = 16,                  /**< the transfer was cancelled */
    SATCHEL_E_TIMED_OUT = 17,                  /**< a connect, request or idle timeout expired */
    SATCHEL_E_CANNOT_CONNECT = 18,             /**< the host could not be resolved or reached */
    SATCHEL_E_TLS = 19,                        /**< the TLS handshake or a pin check failed */
    SATCHEL_E_TOO_MANY_REDIRECTS = 20,         /**< more redirects than allowed */
    SATCHEL_E_NETWORK = 21,                    /**< the connection failed mid-transfer */
    SATCHEL_E_NO_MEMORY = 22,                  /**< an allocation failed */
    SATCHEL_E_MISUSE = 23,                     /**< a call out of order (see the function) */
    SATCHEL_E_ABI_MISMATCH = 24,               /**< a struct_size or abi_version not understood */
    SATCHEL_E_PLUGIN = 25                      /**< a plugin failed to load or initialise */
} satchel_status;

/** A short English description of `status`, such as "syntax error" (owned by the library,
** static). Never NULL: an unknown status gives "unknown status". */
SATCHEL_API const char *satchel_status_string(satchel_status status);

/** The message of the last failing call on this thread, led by its status's name, and where it
** happened, such as "SATCHEL_E_SYNTAX: expected ',' or '}' (at byte 17)": one line, with no line
** break and no trailing white space. Owned by the library and valid until the next failing call
** on the same thread. "" when no call has failed yet. */
SATCHEL_API const char *satchel_last_error_message(void);

/** Releases a buffer the library returned as owned by the caller (bodies, JSON texts, content
** types). NULL does nothing. */
SATCHEL_API void satchel_free(void *buffer);

/* ---------------------------------------------------------------------------------------- */
/* Values                                                                                   */
/* ---------------------------------------------------------------------------------------- */

/** A decoded value: the one model every serializer produces and every request serializer
** reads. Values are immutable once built, except through the builders below. */
typedef struct satchel_value satchel_value;

/** The type of a value. */
typedef enum satchel_type {
    SATCHEL_TYPE_INVALID = 0,   /**< the handle was NULL */
    SATCHEL_TYPE_NULL = 1,
    SATCHEL_TYPE_BOOL = 2,
    SATCHEL_TYPE_INTEGER = 3,   /**< fits int64_t or uint64_t, kept exact */
    SATCHEL_TYPE_DOUBLE = 4,
    SATCHEL_TYPE_STRING = 5,
    SATCHEL_TYPE_BYTES = 6,     /**< binary data (plist `<data>`, an undecoded part body) */
    SATCHEL_TYPE_DATE = 7,      /**< a point in time (plist `<date>`) */
    SATCHEL_TYPE_ARRAY = 8,
    SATCHEL_TYPE_OBJECT = 9,    /**< members keep their order; keys are unique */
    SATCHEL_TYPE_XML = 10,      /**< an XML document: see satchel_value_xml_query */
    SATCHEL_TYPE_IMAGE = 11,    /**< decoded pixels: see satchel_value_image_info */
    SATCHEL_TYPE_MULTIPART = 12,/* multipart parts: see satchel_value_part */
    SATCHEL_TYPE_HTTP = 13,     /**< an embedded HTTP response: see satchel_value_http_info */
    SATCHEL_TYPE_ERROR = 14,    /**< a part that failed to decode: see satchel_value_error */
    SATCHEL_TYPE_OTHER = 15     /**< another payload (a plist UID, a spilled file): use
                                   satchel_value_to_json */
} satchel_type;

/** Parses JSON text (RFC 8259; integers beyond 64 bits are errors, a repeated key keeps its
** last value).
**   out_value  receives the value, owned by the caller (satchel_value_free).
**   json       borrowed; `length` bytes or SATCHEL_NTS.
** Errors: SATCHEL_E_SYNTAX, _TRUNCATED, _ENCODING, _NUMBER_RANGE, _LIMIT (depth 512). */
SATCHEL_API satchel_status satchel_value_parse_json(satchel_value **out_value, const char *json, size_t length);

/** Releases a value owned by the caller, with everything in it. NULL does nothing. Never pass
** a value the library owns (one from satchel_value_array_get, satchel_response_value, ...). */
SATCHEL_API void satchel_value_free(satchel_value *value);

/** Returns a deep copy of `value` (any value, owned or borrowed), owned by the caller. */
SATCHEL_API satchel_status satchel_value_copy(satchel_value **out_copy, const satchel_value *value);

/** The type of `value`; SATCHEL_TYPE_INVALID for NULL. */
SATCHEL_API satchel_type satchel_value_type(const satchel_value *value);

/** @{ */
/** Flags for satchel_value_to_json. */
#define SATCHEL_JSON_PRETTY 1u        /**< indent by two spaces, one member per line */
#define SATCHEL_JSON_SORTED_KEYS 2u   /**< sort object members by key */
/** @} */

/** Writes `value` as canonical JSON (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md, "Canonical JSON": bytes as
** {"$data": base64}, dates as {"$date": ISO-8601}, images, XML, parts and HTTP messages as their
** "$" objects).
**   out_json    receives a NUL-terminated buffer owned by the caller (satchel_free).
**   out_length  may be NULL; receives the length without the NUL.
**   flags       SATCHEL_JSON_* or 0. */
SATCHEL_API satchel_status satchel_value_to_json(char **out_json, size_t *out_length, const satchel_value *value, unsigned flags);

/** @{ */
/** Scalar getters. Each returns SATCHEL_E_TYPE_MISMATCH when the value has another type.
** satchel_value_get_int64 returns SATCHEL_E_NUMBER_RANGE for an integer above INT64_MAX,
** satchel_value_get_uint64 for a negative one; satchel_value_get_double also takes integers
** (rounded to the nearest double). A boolean is 0 or 1. A date is seconds since 1970-01-01
** UTC. Strings and bytes are owned by the value (valid until it is freed). */
SATCHEL_API satchel_status satchel_value_get_bool(int *out_bool, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_int64(int64_t *out_integer, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_uint64(uint64_t *out_integer, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_double(double *out_double, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_string(const char **out_string, size_t *out_length, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_bytes(const uint8_t **out_bytes, size_t *out_length, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_get_date(double *out_seconds, const satchel_value *value);
/** @} */

/** The number of elements of an array, members of an object, or parts of a multipart value.
** SATCHEL_E_TYPE_MISMATCH for other types. */
SATCHEL_API satchel_status satchel_value_count(size_t *out_count, const satchel_value *value);

/** The element at `index` of an array, owned by the array. SATCHEL_E_NOT_FOUND past the end. */
SATCHEL_API satchel_status satchel_value_array_get(const satchel_value **out_element, const satchel_value *array, size_t index);

/** The value of the first member named `key` (borrowed, `key_length` bytes or SATCHEL_NTS),
** owned by the object. SATCHEL_E_NOT_FOUND when there is none. */
SATCHEL_API satchel_status satchel_value_object_get(const satchel_value **out_member, const satchel_value *object, const char *key, size_t key_length);

/** The member at `index` (in order): its key (owned by the object; `out_key_length` may be
** NULL) and its value (owned by the object). SATCHEL_E_NOT_FOUND past the end. */
SATCHEL_API satchel_status satchel_value_object_entry(const char **out_key, size_t *out_key_length, const satchel_value **out_member, const satchel_value *object, size_t index);

/* ---- Walking a value -------------------------------------------------------------------- */

/** Callbacks for satchel_value_visit, one per kind of node; a NULL callback skips that kind
** (the members of a container are still visited). Each returns 0 to go on; anything else stops
** the walk, which then returns SATCHEL_E_CANCELLED. Strings (UTF-8, not NUL-terminated),
** bytes and keys are valid during the call only. Containers report their count first, then
** their elements (an object: each key, then its value), then their end. Payloads (images, XML
** documents, multipart parts, HTTP messages, part errors, UIDs, spilled files) go to `other` as
** values borrowed for the call: read them with the payload functions, or satchel_value_copy. */
typedef struct satchel_visitor {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    int (*null_value)(void *userdata);                              /**< a null */
    int (*boolean)(void *userdata, int value);                      /**< 0 or 1 */
    int (*int64)(void *userdata, int64_t value);                    /**< an integer that fits int64_t */
    int (*uint64)(void *userdata, uint64_t value);                  /**< an integer above INT64_MAX */
    int (*real)(void *userdata, double value);                      /**< a floating-point number */
    int (*string)(void *userdata, const char *text, size_t length); /**< UTF-8 text */
    int (*bytes)(void *userdata, const uint8_t *bytes, size_t length); /**< binary data */
    int (*date)(void *userdata, double seconds);                    /**< since 1970-01-01 UTC */
    int (*begin_array)(void *userdata, size_t count);               /**< an array of `count` elements starts */
    int (*end_array)(void *userdata);                               /**< the array ends */
    int (*begin_object)(void *userdata, size_t count);              /**< an object of `count` members starts */
    int (*key)(void *userdata, const char *key, size_t length);     /**< the next member's key */
    int (*end_object)(void *userdata);                              /**< the object ends */
    int (*other)(void *userdata, const satchel_value *payload);     /**< a payload, borrowed for the call */
} satchel_visitor;

/** Walks `value` depth first in one call, calling `visitor`'s callbacks with `userdata`: the
** way to turn a whole value into your own data structure without a call (and a handle) per
** node. The walk keeps its own stack, so any depth is safe on a small thread stack.
** Errors: SATCHEL_E_INVALID_ARGUMENT (NULL value or visitor), SATCHEL_E_ABI_MISMATCH (the
** visitor's struct_size or abi_version), SATCHEL_E_CANCELLED (a callback returned non-zero). */
SATCHEL_API satchel_status satchel_value_visit(const satchel_value *value, const satchel_visitor *visitor, void *userdata);

/* ---- Builders: values for parameters --------------------------------------------------- */

/** @{ */
/** Each creates a value owned by the caller. Strings and bytes are copied; a string must be
** valid UTF-8 (SATCHEL_E_ENCODING otherwise); a double must be finite for JSON output
** (a NaN is accepted here and rejected by the JSON encoder). */
SATCHEL_API satchel_status satchel_value_create_null(satchel_value **out_value);
SATCHEL_API satchel_status satchel_value_create_bool(satchel_value **out_value, int boolean);
SATCHEL_API satchel_status satchel_value_create_int64(satchel_value **out_value, int64_t integer);
SATCHEL_API satchel_status satchel_value_create_uint64(satchel_value **out_value, uint64_t integer);
SATCHEL_API satchel_status satchel_value_create_double(satchel_value **out_value, double number);
SATCHEL_API satchel_status satchel_value_create_string(satchel_value **out_value, const char *string, size_t length);
SATCHEL_API satchel_status satchel_value_create_bytes(satchel_value **out_value, const uint8_t *bytes, size_t length);
SATCHEL_API satchel_status satchel_value_create_date(satchel_value **out_value, double seconds);
SATCHEL_API satchel_status satchel_value_create_array(satchel_value **out_value);
SATCHEL_API satchel_status satchel_value_create_object(satchel_value **out_value);
/** @} */

/** Appends `element` (taken) to `array`, a value the caller owns and has not yet read
** elements from. SATCHEL_E_TYPE_MISMATCH if `array` is not an array; SATCHEL_E_MISUSE if it is
** owned by another value. */
SATCHEL_API satchel_status satchel_value_array_append(satchel_value *array, satchel_value *element);

/** Sets the member `key` (copied) to `member` (taken) in `object`, a value the caller owns.
** A new key goes last; a key already present keeps its place and gets the new value. */
SATCHEL_API satchel_status satchel_value_object_set(satchel_value *object, const char *key, size_t key_length, satchel_value *member);

/* ---- Typed payloads -------------------------------------------------------------------- */

/** What a decoded image is. Fill struct_size and abi_version, then call
** satchel_value_image_info; strings are owned by the value. */
typedef struct satchel_image_info {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    const char *format;       /**< "png" or "jpeg" */
    uint32_t width;           /**< of the pixel buffer */
    uint32_t height; /**< of the pixel buffer */
    uint32_t channels;        /**< samples per pixel in the buffer: 4 (RGBA, 8 bits), as the registry
                                   decodes every image, whatever color_type the file stores */
    uint32_t bit_depth;       /**< bits per sample in the buffer: 8 or 16 (host byte order) */
    size_t row_stride;        /**< bytes from one row to the next */
    const char *color_type;   /**< as the file stores it: "gray", "rgb", "rgba", "palette", "yCbCr",
                                   ...; an "rgb" PNG still gives 4 channels (alpha 255) */
    uint32_t orientation;     /**< EXIF orientation 1 to 8 (1 = up) */
    int interlaced;           /**< PNG Adam7 */
    int progressive;          /**< progressive JPEG */
    int has_icc_profile; /**< an ICC colour profile is embedded */
} satchel_image_info;

/** @{ */
/** A part body too large to keep in memory (over 1 MiB, unless the registry reads multipart with
** SATCHEL_MULTIPART_IN_MEMORY) is a file value: SATCHEL_TYPE_OTHER, canonical JSON
** {"$file": {"path", "size"}}. The file is removed when the last value holding it is freed.
** satchel_value_file gives its path (owned by the value) and size in bytes;
** satchel_value_file_read reads up to `capacity` bytes from byte `offset` into `buffer`,
** `*out_count` 0 at or past the end. SATCHEL_E_TYPE_MISMATCH for other values, SATCHEL_E_IO when
** the file cannot be read. */
SATCHEL_API satchel_status satchel_value_file(const char **out_path, size_t *out_path_length, uint64_t *out_size, const satchel_value *value);
SATCHEL_API satchel_status satchel_value_file_read(size_t *out_count, const satchel_value *value, uint64_t offset, uint8_t *buffer, size_t capacity);
/** @} */

/** Fills `info` about an image value. SATCHEL_E_TYPE_MISMATCH for other types,
** SATCHEL_E_ABI_MISMATCH for a struct_size smaller than version 1's. */
SATCHEL_API satchel_status satchel_value_image_info(satchel_image_info *info, const satchel_value *image);

/** The pixels of an image value: `height * row_stride` bytes, rows top to bottom, owned by
** the value. */
SATCHEL_API satchel_status satchel_value_image_pixels(const uint8_t **out_pixels, size_t *out_length, const satchel_value *image);

/** Evaluates an XPath 1.0 expression against an XML document value.
**   out_nodes   receives an array (owned by the caller) of the selected nodes in canonical
**               form: elements as objects {name, namespace, attributes, children}, text and
**               attribute values as strings. The expression must select a node set
**               (SATCHEL_E_TYPE_MISMATCH for a number, string or boolean result).
**   xpath       borrowed, `xpath_length` bytes or SATCHEL_NTS.
**   namespaces  borrowed; NULL, or prefix/URI pairs of NUL-terminated strings ending with
**               NULL, such as {"a", "http://www.w3.org/2005/Atom", NULL}.
** Errors: SATCHEL_E_TYPE_MISMATCH (not XML), SATCHEL_E_SYNTAX (a bad expression). */
SATCHEL_API satchel_status satchel_value_xml_query(satchel_value **out_nodes, const satchel_value *xml, const char *xpath, size_t xpath_length, const char *const *namespaces);

/** A part of a multipart value. Fill struct_size and abi_version, then call
** satchel_value_part; every pointer is owned by the multipart value. Absent strings are
** NULL with length 0. */
typedef struct satchel_part {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    const char *name;              /**< Content-Disposition name */
    size_t name_length; /**< bytes of `name` */
    const char *filename;          /**< Content-Disposition filename (filename* decoded) */
    size_t filename_length; /**< bytes of `filename` */
    const char *content_type;      /**< the part's Content-Type */
    size_t content_type_length; /**< bytes of `content_type` */
    uint64_t size;                 /**< the part body's length in bytes */
    size_t header_count;           /**< see satchel_value_part_header_at */
    const satchel_value *value;    /**< the decoded body (SATCHEL_TYPE_ERROR if it failed) */
} satchel_part;

/** Fills `part` with the part at `index` of a multipart value (SATCHEL_E_NOT_FOUND past the
** end). */
SATCHEL_API satchel_status satchel_value_part(satchel_part *part, const satchel_value *multipart, size_t index);

/** @{ */
/** Header fields by index have one shape for responses, parts and embedded messages:
** satchel_OBJECT_header_count, then satchel_OBJECT_header_at with the out-parameters
** (name, its length, value, its length) first and the index last.
**
** The number of header fields of the part at `part_index` (0 when there is no such part), and
** the field at `header_index`: its name (as it arrived) and value, owned by the multipart
** value. SATCHEL_E_NOT_FOUND past the end. satchel_value_part_header is its 0.1.0 name. */
SATCHEL_API size_t satchel_value_part_header_count(const satchel_value *multipart, size_t part_index);
SATCHEL_API satchel_status satchel_value_part_header_at(const char **out_name, size_t *out_name_length, const char **out_value, size_t *out_value_length, const satchel_value *multipart, size_t part_index, size_t header_index);
SATCHEL_API satchel_status satchel_value_part_header(const char **out_name, size_t *out_name_length, const char **out_value, size_t *out_value_length, const satchel_value *multipart, size_t part_index, size_t header_index);
/** @} */

/** An embedded HTTP response (a part of a batch response). Fill struct_size and abi_version,
** then call satchel_value_http_info; pointers are owned by the value. */
typedef struct satchel_http_info {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    int status;                    /**< 200, 404, ... */
    size_t header_count;           /**< see satchel_value_http_header_at */
    const satchel_value *value;    /**< the decoded body (SATCHEL_TYPE_NULL when it carried none) */
} satchel_http_info;

/** Fills `info` for an embedded HTTP response (SATCHEL_TYPE_HTTP). Errors: SATCHEL_E_TYPE_MISMATCH
** for another type, SATCHEL_E_ABI_MISMATCH for a struct_size or abi_version not understood. */
SATCHEL_API satchel_status satchel_value_http_info(satchel_http_info *info, const satchel_value *message);

/** @{ */
/** The number of header fields of an embedded message (0 for another value), and the field at
** `index`, owned by the value; SATCHEL_E_NOT_FOUND past the end. satchel_value_http_header is
** its 0.1.0 name. */
SATCHEL_API size_t satchel_value_http_header_count(const satchel_value *message);
SATCHEL_API satchel_status satchel_value_http_header_at(const char **out_name, size_t *out_name_length, const char **out_value, size_t *out_value_length, const satchel_value *message, size_t index);
SATCHEL_API satchel_status satchel_value_http_header(const char **out_name, size_t *out_name_length, const char **out_value, size_t *out_value_length, const satchel_value *message, size_t index);
/** @} */

/** The error of a part that failed to decode: its satchel_status and message (owned by the
** value). */
SATCHEL_API satchel_status satchel_value_error(satchel_status *out_status, const char **out_message, const satchel_value *error);

/* ---------------------------------------------------------------------------------------- */
/* Registry: decoding and encoding                                                          */
/* ---------------------------------------------------------------------------------------- */

/** A set of request and response serializers keyed by media type, with limits. */
typedef struct satchel_registry satchel_registry;

/** Creates a registry holding every built-in serializer: JSON, form, multipart, XML, property
** list (XML and binary), image (PNG, JPEG), text, problem details, application/http and the
** compound one that dispatches by Content-Type and sniffs bodies without one. Owned by the
** caller (satchel_registry_free). */
SATCHEL_API satchel_status satchel_registry_create(satchel_registry **out_registry);

/** Releases the caller's reference; sessions that use the registry keep it alive. Plugin
** serializers' destroy callbacks run when the last reference goes. NULL does nothing. */
SATCHEL_API void satchel_registry_free(satchel_registry *registry);

/** The bounds decoding respects. */
typedef enum satchel_limit {
    SATCHEL_LIMIT_BODY_BYTES = 1,        /**< default 100 MiB */
    SATCHEL_LIMIT_DEPTH = 2,             /**< nesting, default 512 */
    SATCHEL_LIMIT_STRING_BYTES = 3,      /**< one string, default 32 MiB */
    SATCHEL_LIMIT_PAIRS = 4,             /**< form pairs / object members, default 10 000 */
    SATCHEL_LIMIT_PARTS = 5,             /**< multipart parts, default 1 000 */
    SATCHEL_LIMIT_PART_HEADER_BYTES = 6, /**< one part's header block, default 16 KiB */
    SATCHEL_LIMIT_IMAGE_PIXELS = 7,      /**< width * height, default 100 megapixels */
    SATCHEL_LIMIT_ENTITY_EXPANSIONS = 8, /**< XML entity expansions, default 10 000 */
    SATCHEL_LIMIT_RECORD_BYTES = 9,      /**< one record of a stream (an event, a line), default 16 MiB */
    SATCHEL_LIMIT_RECORDS = 10           /**< records of one stream, default INT64_MAX (none) */
} satchel_limit;

/** @{ */
/** Sets or reads one limit. Setting applies to later calls only; a value of 0 or above
** INT64_MAX is SATCHEL_E_INVALID_ARGUMENT. */
SATCHEL_API satchel_status satchel_registry_set_limit(satchel_registry *registry, satchel_limit limit, uint64_t value);
SATCHEL_API satchel_status satchel_registry_get_limit(uint64_t *out_value, const satchel_registry *registry, satchel_limit limit);
/** @} */

/** How the registry's multipart serializer reads bodies: flags, or-ed together.
**   SATCHEL_MULTIPART_DEFAULT    what real senders write is read: CRLF and bare LF both end a
**                                line (also mixed); duplicate Content-Disposition headers and
**                                control bytes in a header are refused (Sources/Satchel/Satchel.docc/RegistryAndSerializers.md).
**   SATCHEL_MULTIPART_CRLF_ONLY  CRLF only, as RFC 2046 writes bodies: a bare LF is an error.
**   SATCHEL_MULTIPART_LENIENT    also accept a repeated Content-Disposition or Content-Type (the
**                                first wins), another disposition than form-data, a malformed
**                                filename*, a boundary outside RFC 2046 and a part that starts
**                                with the boundary.
**   SATCHEL_MULTIPART_RAW_PARTS  leave part bodies undecoded: a text part (or one without a
**                                Content-Type) whose bytes are valid UTF-8 is a string of exactly
**                                those bytes (a byte order mark included), any other part bytes.
**   SATCHEL_MULTIPART_IN_MEMORY  keep every part body in memory. Without it a part body over
**                                1 MiB is written to a temporary file instead, and its value is
**                                a file (satchel_value_file), not bytes: for bodies that are in
**                                memory already, this flag saves the copy to disk. */
typedef enum satchel_multipart_flag {
    SATCHEL_MULTIPART_DEFAULT = 0,
    SATCHEL_MULTIPART_CRLF_ONLY = 1,
    SATCHEL_MULTIPART_LENIENT = 2,
    SATCHEL_MULTIPART_RAW_PARTS = 4,
    SATCHEL_MULTIPART_IN_MEMORY = 8
} satchel_multipart_flag;

/** Sets how later decodes through the registry (and the sessions that use it) read multipart
** bodies, including multipart parts nested in other bodies. Errors: SATCHEL_E_INVALID_ARGUMENT
** for a bit that is not a satchel_multipart_flag. */
SATCHEL_API satchel_status satchel_registry_set_multipart_flags(satchel_registry *registry, uint32_t flags);

/** Decodes a response body through the registry's dispatching serializer: the serializer the
** Content-Type picks (plugins included), or the one the bytes pick when `content_type` is
** NULL, with the registry's limits.
**   out_value     receives the value, owned by the caller; NULL (with SATCHEL_OK) when the
**                 body carries none (an empty JSON body; an empty body without content_type).
**   content_type  borrowed, such as "application/json; charset=utf-8"; NULL for none: the
**                 bytes pick the serializer, as for a response without a Content-Type.
**   body          borrowed, `length` bytes (NULL allowed when length is 0).
** Errors: SATCHEL_E_INVALID_MEDIA_TYPE, SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE, and the
** serializer's own (SATCHEL_E_SYNTAX with the byte offset, _LIMIT, ...). */
SATCHEL_API satchel_status satchel_registry_decode(satchel_value **out_value, const satchel_registry *registry, const char *content_type, size_t content_type_length, const void *body, size_t length);

/** Decodes `body` as satchel_registry_decode does and walks the result with `visitor` as
** satchel_value_visit does, without keeping a value: the fastest way from a body to your own
** data structure. JSON is walked from an index of the text, with no value built at all (the
** same rules and limits: a duplicate name keeps its first place with its last value); other
** formats are decoded, walked and freed. A body that carries no value makes no call.
**   content_type  borrowed, as for satchel_registry_decode (NULL: the bytes pick the format).
**   body          borrowed, `length` bytes.
** Errors: those of satchel_registry_decode, and of satchel_value_visit. An error can come after
** some callbacks (a number out of range late in a JSON text): discard what they built. */
SATCHEL_API satchel_status satchel_registry_visit(const satchel_registry *registry, const char *content_type, size_t content_type_length, const void *body, size_t length, const satchel_visitor *visitor, void *userdata);

/** Encodes parameters as a request body with the request serializer for `media_type`
** ("application/json", "application/x-www-form-urlencoded", "application/x-plist",
** "application/x-bplist", "application/xml", "multipart/form-data", or a plugin's).
**   out_body          receives the body, owned by the caller (satchel_free).
**   out_content_type  receives the Content-Type to send (with charset or boundary), owned by
**                     the caller (satchel_free); may be NULL.
**   parameters        borrowed.
** Errors: SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE (no such serializer), SATCHEL_E_UNENCODABLE. */
SATCHEL_API satchel_status satchel_registry_encode(uint8_t **out_body, size_t *out_length, char **out_content_type, const satchel_registry *registry, const char *media_type, size_t media_type_length, const satchel_value *parameters);

/* ---------------------------------------------------------------------------------------- */
/* Readers: decoding a body as it arrives                                                   */
/* ---------------------------------------------------------------------------------------- */

/** Decodes a body fed in chunks, for a program that runs its own transport (its own libcurl
** loop, its own sockets). For a record stream -- text/event-stream, JSON Lines
** (application/jsonl, application/x-ndjson), application/json-seq, and any multipart type, whose
** parts are its records -- each record can be taken as soon as its last byte has been fed:
** an event as {"event": TYPE, "data": DATA, "id": LAST_EVENT_ID}, a line or text as its JSON
** value, a part as {headers, name, filename, filenameStar, contentType, size, value}. For any
** other format the one value of the whole body can be taken after satchel_reader_finish
** (read as the chunks arrive where the format allows, JSON and XML among them; else the body
** is kept, up to SATCHEL_LIMIT_BODY_BYTES). One thread at a time per reader.
**
**     satchel_reader *reader;
**     satchel_reader_create(&reader, registry, "text/event-stream", SATCHEL_NTS);
**     while ((n = recv(fd, buf, sizeof buf, 0)) > 0) {
**         if (satchel_reader_feed(reader, buf, n) != SATCHEL_OK) break;   // records before it stay
**         while (satchel_reader_next(&record, reader) == SATCHEL_OK) { use(record); satchel_value_free(record); }
**     }
*/
typedef struct satchel_reader satchel_reader;

/** Creates a reader for a body of `content_type` (borrowed, such as
** "application/x-ndjson"), with the registry's serializer for it and the registry's limits at
** this call; NULL reads the whole body and picks the serializer by its bytes when it ends, as
** satchel_registry_decode does. Owned by the caller (satchel_reader_free).
** Errors: SATCHEL_E_INVALID_MEDIA_TYPE, SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE (no serializer). */
SATCHEL_API satchel_status satchel_reader_create(satchel_reader **out_reader, const satchel_registry *registry, const char *content_type, size_t content_type_length);

/** Creates a reader of one large JSON or XML document of `content_type` (borrowed, required)
** whose records are its elements at `path` (borrowed), each ready as soon as its last byte has
** been fed, in memory bounded by the largest element: for JSON a JSON Pointer (RFC 6901) to an
** array -- "" for a top-level array, "/data/items" inside an envelope -- each element its JSON
** value; for XML an element path -- "/feed/entry", "//item", "a:entry" -- each element as
** {name, namespace, namespaces, attributes, children}. `namespaces` (borrowed, NULL for none)
** is an object value of prefix -> namespace URI strings for the XML path's prefixes. A path that
** matches nothing is SATCHEL_E_NOT_FOUND from satchel_reader_finish; a JSON value there that is
** not an array is SATCHEL_E_TYPE_MISMATCH from the feed that reaches it. Owned by the caller.
** Errors: SATCHEL_E_INVALID_MEDIA_TYPE, SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE (neither JSON nor
** XML), SATCHEL_E_INVALID_ARGUMENT (a path the format cannot read, an unknown prefix),
** SATCHEL_E_TYPE_MISMATCH (namespaces not an object of strings). */
SATCHEL_API satchel_status satchel_reader_create_each(satchel_reader **out_reader, const satchel_registry *registry, const char *content_type, size_t content_type_length, const char *path, size_t path_length, const satchel_value *namespaces);

/** The document outside the elements of a satchel_reader_create_each reader once
** satchel_reader_finish has succeeded: for JSON the envelope with the array left empty (its
** `next` cursor, its totals), into `*out_value` (owned by the caller). SATCHEL_E_NOT_FOUND
** before the end, for XML (nothing else is kept) and for other readers. */
SATCHEL_API satchel_status satchel_reader_rest(satchel_value **out_value, const satchel_reader *reader);

/** Whether the reader yields records as they complete (1) or one value at the end (0). */
SATCHEL_API int satchel_reader_yields_records(const satchel_reader *reader);

/** Feeds the next `length` bytes (borrowed; any size, down to one byte). The records they
** complete are then ready for satchel_reader_next. Errors: the format's (SATCHEL_E_SYNTAX with
** the record -- "line 3" -- and the byte offset in the whole body, SATCHEL_E_LIMIT, ...); the
** records before the error can still be taken, and every later feed or finish returns the
** same error. SATCHEL_E_MISUSE after satchel_reader_finish. */
SATCHEL_API satchel_status satchel_reader_feed(satchel_reader *reader, const void *data, size_t length);

/** Ends the body: a last record without its terminator (a JSON Lines line without its newline)
** or the value of a whole body becomes ready. Errors: a truncated or invalid end, as for feed. */
SATCHEL_API satchel_status satchel_reader_finish(satchel_reader *reader);

/** Takes the next ready record, oldest first, into `*out_value` (owned by the caller).
** SATCHEL_E_NOT_FOUND when none is ready (feed more; after finish, the body is done); that
** status leaves satchel_last_error_message() alone, so a failed feed's message can still be read
** after taking the records before the error. A whole body that carries no value (an empty JSON
** body) yields nothing. */
SATCHEL_API satchel_status satchel_reader_next(satchel_value **out_value, satchel_reader *reader);

/** Releases the reader and the records not taken. NULL does nothing. */
SATCHEL_API void satchel_reader_free(satchel_reader *reader);

/* ---------------------------------------------------------------------------------------- */
/* Plugins: serializers written in C                                                        */
/* ---------------------------------------------------------------------------------------- */

typedef struct satchel_host satchel_host;

/** A response serializer written in C. The registry copies the struct and the strings.
**   media_types  NULL-terminated list of the media ranges it decodes, such as
**                {"text/csv", NULL}; a `*` subtype is allowed.
**   decode       called with the body (borrowed), its Content-Type (borrowed, may be NULL)
**                and the host table; builds a value with `host` and stores it, owned by the
**                library from then on, in `*out_value` (or leaves NULL for "no value"). On
**                failure returns an error status and may call host->set_error_message.
**                May be called from several threads at once.
**   destroy      called once with `userdata` when the registry goes away; may be NULL.
**   sniff        (version 2; may be NULL) recognises the format from a body's first bytes,
**                for a response without a Content-Type or with application/octet-stream:
**                called with at most 1024 bytes (borrowed), returns the media type the bytes
**                show, such as "text/csv" (a string that stays valid: static, or owned by
**                `userdata`), or NULL. Serializers are asked in order of precedence, the latest
**                registration first; the first answer wins. May be called from several threads
**                at once. */
typedef struct satchel_response_serializer {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    const char *name; /**< for messages, such as "csv" */
    const char *const *media_types; /**< the media types or ranges it decodes, NULL-terminated */
    satchel_status (*decode)(void *userdata, const satchel_host *host, const char *content_type, size_t content_type_length, const uint8_t *body, size_t length, satchel_value **out_value); /**< decodes a body into a value (see above) */
    void *userdata; /**< passed to every callback; owned by the registry once registered */
    void (*destroy)(void *userdata); /**< releases `userdata` when the registry goes away; may be NULL */
    const char *(*sniff)(void *userdata, const uint8_t *prefix, size_t length); /**< recognises the format from a body's first bytes (version 2; may be NULL) */
} satchel_response_serializer;

/** A request serializer written in C.
**   media_type  the media type it writes and sends as Content-Type, such as "text/csv".
**   encode      writes `parameters` (borrowed) into a body allocated with host->allocate and
**               stored in `*out_body` / `*out_length` (the library releases it). */
typedef struct satchel_request_serializer {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    const char *name; /**< for messages, such as "csv" */
    const char *media_type; /**< the media type it writes, sent as Content-Type */
    satchel_status (*encode)(void *userdata, const satchel_host *host, const satchel_value *parameters, uint8_t **out_body, size_t *out_length); /**< writes a value into a body (see above) */
    void *userdata; /**< passed to every callback; owned by the registry once registered */
    void (*destroy)(void *userdata); /**< releases `userdata` when the registry goes away; may be NULL */
} satchel_request_serializer;

/** @{ */
/** Registers a serializer. The registry copies `serializer` (borrowed) and owns `userdata`
** from then on. A response serializer is consulted before the built-in ones for its media
** types, by satchel_registry_decode, by the compound serializer and for the parts of
** multipart/mixed bodies. Errors: SATCHEL_E_ABI_MISMATCH, SATCHEL_E_INVALID_MEDIA_TYPE. */
SATCHEL_API satchel_status satchel_registry_register_response_serializer(satchel_registry *registry, const satchel_response_serializer *serializer);
SATCHEL_API satchel_status satchel_registry_register_request_serializer(satchel_registry *registry, const satchel_request_serializer *serializer);
/** @} */

/** The functions a plugin gets from the host, so that it need not link libsatchel. Each
** member behaves as the satchel_* function of the same name. */
struct satchel_host {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    void *(*allocate)(size_t size); /**< as satchel_allocate */
    void (*free)(void *buffer); /**< as satchel_free */
    void (*set_error_message)(const char *message); /**< as satchel_set_error_message */
    satchel_status (*register_response_serializer)(satchel_registry *registry, const satchel_response_serializer *serializer); /**< as satchel_register_response_serializer */
    satchel_status (*register_request_serializer)(satchel_registry *registry, const satchel_request_serializer *serializer); /**< as satchel_register_request_serializer */
    satchel_type (*value_type)(const satchel_value *value); /**< as satchel_value_type */
    satchel_status (*value_create_null)(satchel_value **out_value); /**< as satchel_value_create_null */
    satchel_status (*value_create_bool)(satchel_value **out_value, int boolean); /**< as satchel_value_create_bool */
    satchel_status (*value_create_int64)(satchel_value **out_value, int64_t integer); /**< as satchel_value_create_int64 */
    satchel_status (*value_create_double)(satchel_value **out_value, double number); /**< as satchel_value_create_double */
    satchel_status (*value_create_string)(satchel_value **out_value, const char *string, size_t length); /**< as satchel_value_create_string */
    satchel_status (*value_create_bytes)(satchel_value **out_value, const uint8_t *bytes, size_t length); /**< as satchel_value_create_bytes */
    satchel_status (*value_create_array)(satchel_value **out_value); /**< as satchel_value_create_array */
    satchel_status (*value_create_object)(satchel_value **out_value); /**< as satchel_value_create_object */
    satchel_status (*value_array_append)(satchel_value *array, satchel_value *element); /**< as satchel_value_array_append */
    satchel_status (*value_object_set)(satchel_value *object, const char *key, size_t key_length, satchel_value *member); /**< as satchel_value_object_set */
    void (*value_free)(satchel_value *value); /**< as satchel_value_free */
    satchel_status (*value_get_bool)(int *out_bool, const satchel_value *value); /**< as satchel_value_get_bool */
    satchel_status (*value_get_int64)(int64_t *out_integer, const satchel_value *value); /**< as satchel_value_get_int64 */
    satchel_status (*value_get_double)(double *out_double, const satchel_value *value); /**< as satchel_value_get_double */
    satchel_status (*value_get_string)(const char **out_string, size_t *out_length, const satchel_value *value); /**< as satchel_value_get_string */
    satchel_status (*value_count)(size_t *out_count, const satchel_value *value); /**< as satchel_value_count */
    satchel_status (*value_array_get)(const satchel_value **out_element, const satchel_value *array, size_t index); /**< as satchel_value_array_get */
    satchel_status (*value_object_entry)(const char **out_key, size_t *out_key_length, const satchel_value **out_member, const satchel_value *object, size_t index); /**< as satchel_value_object_entry */
};

/** What a loadable plugin exports under the name "satchel_plugin_init": it registers its
** serializers through `host` into `registry` and returns SATCHEL_OK. */
typedef satchel_status (*satchel_plugin_init_function)(const satchel_host *host, satchel_registry *registry);

/** Loads the shared object at `path` (borrowed, NUL-terminated) with dlopen, looks up
** "satchel_plugin_init" and calls it. The object stays loaded for the life of the process.
** Errors: SATCHEL_E_PLUGIN (cannot open, no entry point, the entry point failed; the message
** says which and quotes dlerror), SATCHEL_E_ABI_MISMATCH. */
SATCHEL_API satchel_status satchel_registry_load_plugin(satchel_registry *registry, const char *path);

/* ---------------------------------------------------------------------------------------- */
/* Multipart bodies                                                                         */
/* ---------------------------------------------------------------------------------------- */

/** A multipart/form-data body being built and then read, in constant memory. */
typedef struct satchel_multipart satchel_multipart;

/** Where the bytes of a callback part come from.
**   length    the part's length in bytes, or -1 when unknown (then the body's length is
**             unknown too and HTTP sends it chunked).
**   read      fills up to `capacity` bytes of `buffer`; returns the count, 0 at the end, or
**             -1 on an error (the read fails with SATCHEL_E_IO).
**   rewind    starts over (for redirects and retries); returns 0, or -1 when it cannot. May
**             be NULL (the body is then not rewindable).
**   destroy   called once with `userdata` when the builder is freed; may be NULL. */
typedef struct satchel_read_source {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    int64_t length; /**< the part's length in bytes, or -1 when unknown */
    int64_t (*read)(void *userdata, uint8_t *buffer, size_t capacity); /**< fills up to `capacity` bytes; the count, 0 at the end, -1 on an error */
    int (*rewind)(void *userdata); /**< starts over; 0, or -1 when it cannot; may be NULL */
    void *userdata; /**< passed to every callback */
    void (*destroy)(void *userdata); /**< called once with `userdata` when the builder is freed; may be NULL */
} satchel_read_source;

/** @{ */
/** Creates a builder. `boundary` (borrowed) is used as given (1 to 70 characters of RFC 2046's
** set; SATCHEL_E_INVALID_ARGUMENT otherwise) or, when NULL, made at random. */
SATCHEL_API satchel_status satchel_multipart_create(satchel_multipart **out_multipart, const char *boundary, size_t boundary_length);
SATCHEL_API void satchel_multipart_free(satchel_multipart *multipart);
/** @} */

/** Adds a text field `name` = `value` (both copied). */
SATCHEL_API satchel_status satchel_multipart_add_field(satchel_multipart *multipart, const char *name, size_t name_length, const char *value, size_t value_length);

/** Adds a part holding `length` bytes of `data` (copied). `filename` and `content_type`
** (copied) may be NULL: no filename, and application/octet-stream. */
SATCHEL_API satchel_status satchel_multipart_add_data(satchel_multipart *multipart, const char *name, size_t name_length, const void *data, size_t length, const char *filename, size_t filename_length, const char *content_type, size_t content_type_length);

/** Adds a part streamed from the file at `path` (NUL-terminated, borrowed; opened and sized
** now, so a missing file fails here with SATCHEL_E_IO, and the body's length counts the size it
** has now). `filename` NULL means the path's last component, `content_type` NULL means the type
** inferred from the file name. */
SATCHEL_API satchel_status satchel_multipart_add_file(satchel_multipart *multipart, const char *name, size_t name_length, const char *path, const char *filename, size_t filename_length, const char *content_type, size_t content_type_length);

/** Adds a part whose bytes come from `source` (the struct is copied; its userdata is owned by
** the builder from then on). */
SATCHEL_API satchel_status satchel_multipart_add_callback(satchel_multipart *multipart, const char *name, size_t name_length, const char *filename, size_t filename_length, const char *content_type, size_t content_type_length, const satchel_read_source *source);

/** The body's Content-Type with its boundary parameter, owned by the builder. */
SATCHEL_API satchel_status satchel_multipart_content_type(const char **out_content_type, size_t *out_length, const satchel_multipart *multipart);

/** The body's exact length, or -1 when a callback part's length is unknown. */
SATCHEL_API satchel_status satchel_multipart_content_length(int64_t *out_length, const satchel_multipart *multipart);

/** Reads the next bytes of the body into `buffer` (up to `capacity`, which may be any size).
** `*out_count` is 0 at the end. The first read freezes the builder: adding parts afterwards
** returns SATCHEL_E_MISUSE. A file that changed size since it was added fails with
** SATCHEL_E_IO, and so does every read after a failed satchel_multipart_rewind. A builder is
** used by one thread at a time: a call made while another thread is inside the builder returns
** SATCHEL_E_MISUSE and changes nothing. */
SATCHEL_API satchel_status satchel_multipart_read(size_t *out_count, satchel_multipart *multipart, uint8_t *buffer, size_t capacity);

/** Starts the body over from its first byte. SATCHEL_E_IO, at this call, when a callback part
** that has been read has no rewind callback or its rewind fails; the body is then lost, and
** every later satchel_multipart_read fails with SATCHEL_E_IO until the builder is freed. */
SATCHEL_API satchel_status satchel_multipart_rewind(satchel_multipart *multipart);

/* ---------------------------------------------------------------------------------------- */
/* Transport: sessions, requests, responses                                                 */
/* ---------------------------------------------------------------------------------------- */

/** A session: a libcurl multi handle with its own thread, connection cache, cookie store,
** default headers and policies (AFHTTPSessionManager's role). Safe to use from any thread. */
typedef struct satchel_session satchel_session;

/** One request being prepared; used by one thread at a time. */
typedef struct satchel_request satchel_request;

/** A response that arrived: status, headers, raw body and decoded value. */
typedef struct satchel_response satchel_response;

/** An asynchronous transfer. */
typedef struct satchel_task satchel_task;

/** Creates a session.
**   base_url  borrowed; relative request URLs resolve against it (RFC 3986). May be NULL.
**   registry  borrowed; the session keeps its own reference. NULL means a registry with the
**             built-in serializers.
** The first session loads libcurl (libcurl.so.4, or the file the SATCHEL_LIBCURL environment
** variable names); when it cannot be loaded, this returns SATCHEL_E_INTERNAL with the reason. */
SATCHEL_API satchel_status satchel_session_create(satchel_session **out_session, const char *base_url, size_t base_url_length, satchel_registry *registry);

/** Cancels the session's transfers, waits for their callbacks, and releases it. NULL does
** nothing. Must not be called from a completion or progress callback. */
SATCHEL_API void satchel_session_free(satchel_session *session);

/** Session settings. Each applies to requests sent after the call. */
typedef enum satchel_timeout {
    SATCHEL_TIMEOUT_CONNECT = 1,  /**< default 60 s */
    SATCHEL_TIMEOUT_REQUEST = 2,  /**< the whole transfer, default none */
    SATCHEL_TIMEOUT_IDLE = 3      /**< no byte in either direction, default 60 s */
} satchel_timeout;

/** Sets a timeout in milliseconds; 0 means none. */
SATCHEL_API satchel_status satchel_session_set_timeout(satchel_session *session, satchel_timeout timeout, uint64_t milliseconds);

/** Adds a header (both copied) sent with every request; an empty value removes it. */
SATCHEL_API satchel_status satchel_session_set_header(satchel_session *session, const char *name, size_t name_length, const char *value, size_t value_length);

/** The most redirects followed (default 16; 0 follows none). */
SATCHEL_API satchel_status satchel_session_set_max_redirects(satchel_session *session, uint32_t count);

/** Retries of idempotent requests after a transient failure (default 0: none unless asked, as
** with curl; 2 is Alamofire's). */
SATCHEL_API satchel_status satchel_session_set_retries(satchel_session *session, uint32_t count);

/** TLS: trust only the CA certificates in the PEM file at `path` (borrowed, NUL-terminated;
** NULL returns to the system store). */
SATCHEL_API satchel_status satchel_session_set_ca_file(satchel_session *session, const char *path);

/** TLS: also require the server's public key to match one of the pins added, each
** "sha256//BASE64" of the SubjectPublicKeyInfo (curl's --pinnedpubkey form) or the bare
** base64 (copied). SATCHEL_E_INVALID_ARGUMENT for anything else. */
SATCHEL_API satchel_status satchel_session_add_pinned_public_key(satchel_session *session, const char *pin, size_t pin_length);

/** @{ */
/** TLS: accept invalid (self-signed, expired) certificates, and whether the host name must
** match. Turning both off without a pin is AFNetworking's insecure mode. */
SATCHEL_API satchel_status satchel_session_set_allow_invalid_certificates(satchel_session *session, int allow);
SATCHEL_API satchel_status satchel_session_set_validates_domain_name(satchel_session *session, int validates);
/** @} */

/** @{ */
/** Creates a request for `method` ("GET", "POST", ...; copied) and `url` (copied; absolute,
** or relative to the session's base URL). Owned by the caller (satchel_request_free). */
SATCHEL_API satchel_status satchel_request_create(satchel_request **out_request, const char *method, size_t method_length, const char *url, size_t url_length);
SATCHEL_API void satchel_request_free(satchel_request *request);
/** @} */

/** Adds a header (both copied). */
SATCHEL_API satchel_status satchel_request_add_header(satchel_request *request, const char *name, size_t name_length, const char *value, size_t value_length);

/** Parameters (copied) encoded by the request serializer for `media_type` (borrowed; NULL
** means form): in the query for GET, HEAD and DELETE, in the body otherwise. */
SATCHEL_API satchel_status satchel_request_set_parameters(satchel_request *request, const satchel_value *parameters, const char *media_type, size_t media_type_length);

/** A body of `length` bytes (copied) with its Content-Type (copied; may be NULL).
** SATCHEL_E_INVALID_MEDIA_TYPE when content_type is not a media type. */
SATCHEL_API satchel_status satchel_request_set_body(satchel_request *request, const void *body, size_t length, const char *content_type, size_t content_type_length);

/** A body streamed from the file at `path` (borrowed, NUL-terminated), with its Content-Type
** as for satchel_request_set_body. */
SATCHEL_API satchel_status satchel_request_set_body_file(satchel_request *request, const char *path, const char *content_type, size_t content_type_length);

/** A multipart body (taken: the request frees the builder). */
SATCHEL_API satchel_status satchel_request_set_body_multipart(satchel_request *request, satchel_multipart *multipart);

/** Called during the transfer (at most every 100 ms, and once at the end) on a library
** thread, with byte counts so far and totals (-1 when unknown). Return 0 to go on, non-zero
** to cancel the transfer (it then ends with SATCHEL_E_CANCELLED). */
typedef int (*satchel_progress_callback)(void *userdata, int64_t uploaded, int64_t upload_total, int64_t downloaded, int64_t download_total);

/** Sets the progress callback (NULL removes it); `userdata` is borrowed and must stay valid
** until the transfer ends. */
SATCHEL_API satchel_status satchel_request_set_progress(satchel_request *request, satchel_progress_callback progress, void *userdata);

/* Where the response body goes, instead of memory (where it is decoded): a file, or a
** callback. The two are exclusive; setting one replaces the other, NULL removes it. */

/** @{ */
/** Download flags. */
#define SATCHEL_DOWNLOAD_RESUME 1u   /**< continue a partial download of the same resource */
#define SATCHEL_DOWNLOAD_NO_SYNC 2u  /**< do not flush the file to the disk before the rename */
/** @} */

/** The statuses a response may have; any other ends the send with SATCHEL_E_UNACCEPTABLE_STATUS
** (the response still comes back, with its status, headers and decoded body). `ranges` holds
** `count` pairs of a first and a last status, both included (copied): {200, 299, 304, 304}
** accepts 2xx and 304. Without this call a request accepts 200 to 299. `count` 0 (with `ranges`
** NULL) accepts every status. SATCHEL_E_INVALID_ARGUMENT for `ranges` NULL with `count` above
** 0, a status outside 100 to 599, or a last status below its first. */
SATCHEL_API satchel_status satchel_request_set_acceptable_statuses(satchel_request *request, const uint16_t *ranges, size_t count);

/** Saves the body to the file at `path` (copied, NUL-terminated), as curl -o does but safely:
** the bytes go to `path`.part and the file is renamed to `path` only once complete, so `path`
** never holds a partial or corrupted file. With SATCHEL_DOWNLOAD_RESUME, a partial file left
** by an interrupted download (error, cancel, crash) is continued: the request carries
** `Range: bytes=N-` and `If-Range` (the strong ETag or Last-Modified of the first response);
** a 206 that continues at byte N is appended, a 200 (the resource changed) starts over.
** Without the flag, a partial file is discarded. The file is flushed to the disk (fsync)
** before the rename and its folder after it, so a download that finished survives a power
** loss; SATCHEL_DOWNLOAD_NO_SYNC skips both, for files that can be fetched again. An
** unacceptable status saves nothing (its body is the response's body);
** satchel_response_download tells what was saved. */
SATCHEL_API satchel_status satchel_request_set_destination(satchel_request *request, const char *path, unsigned flags);

/** @{ */
/** What a data callback returns. */
#define SATCHEL_DATA_CONTINUE 0  /**< more, please */
#define SATCHEL_DATA_PAUSE 1     /**< stop delivering until satchel_task_resume */
/** @} */

/** Called with each piece of the body as it arrives, in order, on a library thread (one call at
** a time); `data` is valid during the call. Return SATCHEL_DATA_CONTINUE for more,
** SATCHEL_DATA_PAUSE to pause (a task sent with satchel_session_send_async resumes with
** satchel_task_resume; meanwhile about 1 MiB more is buffered, then the transfer itself is
** paused), anything else to cancel (the send ends with SATCHEL_E_CANCELLED). Pausing a transfer
** sent with satchel_session_send, which has no task to resume, ends it with SATCHEL_E_MISUSE. */
typedef int (*satchel_data_callback)(void *userdata, const uint8_t *data, size_t length);

/** Delivers the body to `on_data` (NULL removes it) instead of keeping it: the response then
** has the head only (empty body, no value). An unacceptable status (SATCHEL_E_UNACCEPTABLE_STATUS)
** ends the send before any data is delivered. `userdata` is borrowed and must stay valid until
** the transfer ends. */
SATCHEL_API satchel_status satchel_request_set_data_callback(satchel_request *request, satchel_data_callback on_data, void *userdata);

/** Called with each record of a streaming response as it completes, in order, on a library
** thread (one call at a time); `record` is borrowed, valid during the call (copy what you
** keep with satchel_value_to_json, or keep nothing). Returns as a data callback does:
** SATCHEL_DATA_CONTINUE, SATCHEL_DATA_PAUSE (resumed by satchel_task_resume), anything else
** cancels (the send ends with SATCHEL_E_CANCELLED). */
typedef int (*satchel_record_callback)(void *userdata, const satchel_value *record);

/** Delivers the response's records to `on_record` (NULL removes it) as each completes, as
** satchel_reader reads them (events, JSON Lines, JSON text sequences, multipart parts), instead
** of keeping the body: the response then has the head only. A response whose Content-Type is
** not a record stream ends the send with SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE (and the response);
** a malformed record ends it with the format's error after the records before it. Excludes a
** destination and a data callback: setting one replaces the other. `userdata` is borrowed and
** must stay valid until the transfer ends. */
SATCHEL_API satchel_status satchel_request_set_record_callback(satchel_request *request, satchel_record_callback on_record, void *userdata);

/** Makes the record callback's records the elements at `path` (borrowed) of one large JSON or
** XML response, as satchel_reader_create_each reads them (`namespaces` likewise, borrowed, NULL
** for none), instead of a record stream's records; NULL `path` goes back to record streams. A
** response that is neither JSON nor XML ends the send with SATCHEL_E_UNACCEPTABLE_CONTENT_TYPE.
** Errors: SATCHEL_E_TYPE_MISMATCH (namespaces not an object of strings). */
SATCHEL_API satchel_status satchel_request_set_record_path(satchel_request *request, const char *path, size_t path_length, const satchel_value *namespaces);

/** How a credential is presented. */
typedef enum satchel_auth {
    SATCHEL_AUTH_BASIC = 1,   /**< Authorization: Basic, sent with the first request */
    SATCHEL_AUTH_DIGEST = 2,  /**< Digest (MD5 or SHA-256, qop=auth) after the server's 401 challenge */
    SATCHEL_AUTH_NTLM = 3,    /**< NTLM after the challenge (HTTP/1.1) */
    SATCHEL_AUTH_ANY = 4      /**< the most secure method the challenge offers */
} satchel_auth;

/** Answers this request's authentication challenge with `user` and `password` (both copied;
** lengths or SATCHEL_NTS), only on the request URL's origin (never after a redirect to
** another). A `user` of NULL removes it. Errors: SATCHEL_E_INVALID_ARGUMENT for an unknown
** method. The password never appears in messages or events. */
SATCHEL_API satchel_status satchel_request_set_credential(satchel_request *request, const char *user, size_t user_length, const char *password, size_t password_length, satchel_auth method);

/** Stores a credential for `host` ("api.example.com", or "127.0.0.1:8443" for one port, which
** wins), answered to that host's challenges by the session's later requests that have none of
** their own. A `user` of NULL removes the host's. */
SATCHEL_API satchel_status satchel_session_set_credential(satchel_session *session, const char *host, size_t host_length, const char *user, size_t user_length, const char *password, size_t password_length, satchel_auth method);

/** Sends every request through the unix domain socket at `path` (copied, NUL-terminated)
** instead of TCP, as curl's --unix-socket: the URL still names the scheme, host and path
** ("http://localhost/v1.43/info"), and no proxy is used. NULL returns to TCP. A socket that
** does not answer is SATCHEL_E_CANNOT_CONNECT, naming the path. */
SATCHEL_API satchel_status satchel_session_set_unix_socket(satchel_session *session, const char *path);

/** Connection limits and lifetimes. */
typedef enum satchel_connection_setting {
    SATCHEL_CONNECTIONS_PER_HOST = 1,      /**< most open to one host at once; 0: no limit (default) */
    SATCHEL_CONNECTIONS_TOTAL = 2,         /**< most open at once, all hosts; 0: no limit (default) */
    SATCHEL_CONNECTION_CACHE = 3,          /**< most idle connections kept; 0: libcurl's (default) */
    SATCHEL_CONNECTION_IDLE_SECONDS = 4,   /**< how long an idle one is kept for reuse (default 118) */
    SATCHEL_EXPECT_CONTINUE = 5            /**< 1: a body of 1 MiB or more, or of unknown length, first
                                           ** asks with "Expect: 100-continue"; 0: never (default) */
} satchel_connection_setting;

/** Sets a connection setting. SATCHEL_E_INVALID_ARGUMENT for another setting, an idle time of
** 0, or a value too large. */
SATCHEL_API satchel_status satchel_session_set_connection(satchel_session *session, satchel_connection_setting setting, uint64_t value);

/** Adds a host override (copied): curl's --resolve form "HOST:PORT:ADDRESS[,ADDRESS]" (an IPv6
** address in brackets), or with `connect_to` non-zero its --connect-to form
** "HOST:PORT:TARGET_HOST:TARGET_PORT". The URL, Host and TLS name stay the request's; only where
** the connection goes changes. NULL removes every override. SATCHEL_E_INVALID_ARGUMENT, saying
** what is wrong, for another form. */
SATCHEL_API satchel_status satchel_session_add_host_override(satchel_session *session, const char *override_text, size_t override_length, int connect_to);

/** @{ */
/** The most bytes per second each transfer sends and receives (curl's --limit-rate); 0 for no
** limit (the default). A request's own limit wins over the session's. */
SATCHEL_API satchel_status satchel_session_set_rate_limit(satchel_session *session, uint64_t upload, uint64_t download);
SATCHEL_API satchel_status satchel_request_set_rate_limit(satchel_request *request, uint64_t upload, uint64_t download);
/** @} */

/** HTTP versions (curl's --http1.1, --http2, --http2-prior-knowledge). Over HTTP/2 the
** session's requests to one origin share one connection, each a stream of it; a request that
** starts while that connection is being set up waits for it rather than opening another. The
** version a response came with is satchel_metrics.http_version. */
typedef enum satchel_http_version {
    SATCHEL_HTTP_1_1 = 1,                 /**< HTTP/1.1 only */
    SATCHEL_HTTP_2_WHEN_OFFERED = 2,      /**< HTTP/2 over TLS when the server offers it (ALPN), else
                                          ** HTTP/1.1; plain http is HTTP/1.1 (the default) */
    SATCHEL_HTTP_2_PRIOR_KNOWLEDGE = 3    /**< HTTP/2 from the first byte, also over plain http (h2c) */
} satchel_http_version;

/** Sets the HTTP versions spoken. SATCHEL_E_INVALID_ARGUMENT for another value. */
SATCHEL_API satchel_status satchel_session_set_http_version(satchel_session *session, satchel_http_version version);

/** Client certificates (mutual TLS; curl's --cert, --key, --cert-type, --pass). */
typedef enum satchel_cert_type {
    SATCHEL_CERT_PEM = 1,  /**< PEM text: the chain, leaf first; the key PEM too */
    SATCHEL_CERT_DER = 2,  /**< DER bytes; the key DER too */
    SATCHEL_CERT_P12 = 3   /**< a PKCS #12 bundle holding the chain and the key */
} satchel_cert_type;

/** Presents the client certificate in the file at `certificate_path` with the private key in
** the file at `key_path` (NULL when the certificate's file holds it: a PEM with both, or P12)
** and the key's `passphrase` (NULL for none) to the TLS servers that ask for one: those of
** `host` ("api.example.com", or "127.0.0.1:8443" for one port, which wins) or, with a NULL host,
** every host without one of its own. Strings are copied (paths NUL-terminated). A NULL
** `certificate_path` removes it. A key that cannot be loaded (a wrong passphrase, not the
** certificate's key, no such file) fails the send with SATCHEL_E_TLS; a server that refuses the
** certificate too ("... (the server wants a client certificate it trusts ...)"). The passphrase
** never appears in messages. SATCHEL_E_INVALID_ARGUMENT for an unknown type. */
SATCHEL_API satchel_status satchel_session_set_client_certificate(satchel_session *session, const char *host, size_t host_length, const char *certificate_path, const char *key_path, const char *passphrase, satchel_cert_type type);

/** The same from memory: `certificate` (copied; PEM text, DER or a PKCS #12 bundle) and `key`
** (copied; NULL when the certificate holds it). A NULL `certificate` removes it. */
SATCHEL_API satchel_status satchel_session_set_client_certificate_blob(satchel_session *session, const char *host, size_t host_length, const void *certificate, size_t certificate_length, const void *key, size_t key_length, const char *passphrase, satchel_cert_type type);

/* Proxies (curl's --proxy, --proxy-user, --noproxy, --proxy-cacert). By default a session
** goes through the proxy the environment names, read as curl reads it: http_proxy (lower case
** only), https_proxy or HTTPS_PROXY, all_proxy or ALL_PROXY, and no_proxy or NO_PROXY. The
** session's TLS trust, pins and credentials are the origin server's, never the proxy's; an
** https origin is reached through a CONNECT tunnel that carries none of the request's headers.
** A proxy that refuses the tunnel ends the send with SATCHEL_E_UNACCEPTABLE_STATUS and a
** response holding its status (407, ...). The four setters apply in any order. */

/** The proxy (copied): http://, https:// (TLS to the proxy), socks4://, socks4a://, socks5://
** or socks5h:// (the proxy resolves host names) with a host and port and no credentials in it.
** "" means none, whatever the environment says; NULL returns to the environment's.
** SATCHEL_E_INVALID_ARGUMENT for another scheme, no host, or credentials in the URL. */
SATCHEL_API satchel_status satchel_session_set_proxy(satchel_session *session, const char *url, size_t url_length);

/** The proxy's credential (both copied; lengths or SATCHEL_NTS), answered to its 407 challenge
** with `method` (SATCHEL_AUTH_BASIC, _DIGEST, _NTLM or _ANY) or sent to a SOCKS5 proxy; never to
** the origin. A `user` of NULL removes it. The password never appears in messages. */
SATCHEL_API satchel_status satchel_session_set_proxy_credential(satchel_session *session, const char *user, size_t user_length, const char *password, size_t password_length, satchel_auth method);

/** Hosts that bypass the proxy (copied), comma-separated: a host name (its subdomains too), a
** domain with a leading dot, an address, or "*" for all. NULL or "" for none. */
SATCHEL_API satchel_status satchel_session_set_noproxy(satchel_session *session, const char *hosts, size_t hosts_length);

/** TLS to an https:// proxy: trust only the CA certificates in the PEM file at `path`
** (borrowed, NUL-terminated; NULL returns to the system store). */
SATCHEL_API satchel_status satchel_session_set_proxy_ca_file(satchel_session *session, const char *path);

/** Bearer tokens (OAuth 2.0 access tokens, RFC 6750), refreshed once for any number of requests.
** A refresh callback returns 0 with `*out_token` set to a new token: a NUL-terminated string
** the callback allocated with malloc, which the library frees (a NULL token, an empty one or
** one with a space or control character fails the refresh); non-zero fails it. It is called on
** a library thread of its own, at most once at a time per session: before the first request
** when no token is set, and when a response is 401 -- once for all the requests refused with
** the same token, which wait, then are sent again with the new one (a request refused with an
** older token is sent again with the current one without a refresh). When the refresh fails,
** every waiting request ends with SATCHEL_E_INVALID_ARGUMENT ("the token refresh callback
** failed") and the next 401 with that token fails at once; setting a token starts over. At most
** 5 refreshes within 30 s (then SATCHEL_E_LIMIT). A callback that blocks holds its thread only:
** the waiting requests still end with their request timeout (SATCHEL_TIMEOUT_REQUEST) or a
** cancel. `userdata` is passed to it and must stay valid, and the callback callable from any
** thread, until the session is freed or the callback replaced. */
typedef int (*satchel_token_refresh_callback)(void *userdata, char **out_token);

/** Sends `Authorization: Bearer TOKEN` (copied; the length or SATCHEL_NTS) with every later
** request of the session. NULL or an empty token removes it: the refresh callback, if one is
** set, is then asked for one before the next request. SATCHEL_E_INVALID_ARGUMENT for a token
** with a space or control character. The token never appears in messages or events. */
SATCHEL_API satchel_status satchel_session_set_bearer_token(satchel_session *session, const char *token, size_t token_length);

/** Sets the refresh callback (NULL removes it: a 401 then ends the request as any 401 does). */
SATCHEL_API satchel_status satchel_session_set_token_refresh(satchel_session *session, satchel_token_refresh_callback refresh, void *userdata);

/* Cookies. The session's cookie store keeps the cookies responses set and sends them back by
** domain and path (libcurl's cookie engine, RFC 6265; at most 50 kept from one response, a
** Set-Cookie over 5000 bytes ignored, at most 150 sent with one request); setters keep it.
** Each cookie is a satchel_value object: "name", "value", "domain" (strings; the domain without
** a leading dot), "path" (string, default "/"), "subdomains", "secure", "http_only" (booleans,
** default false), "expires" (an integer, seconds since 1970; absent or null for a session
** cookie) and "same_site" ("Strict", "Lax" or "None" as received; absent when none; kept in
** memory only, as the cookie file has no place for it). */

/** Keeps the cookies also in the cookie file at `path` (borrowed, NUL-terminated; the Netscape
** format curl and wget read): its unexpired cookies are loaded and replace the session's, and
** every later change is written to a temporary file (mode 0600) renamed over it, so a crash
** leaves the old file or the new one. A file that cannot be read, or lines that are not
** cookies, become a warning (SATCHEL_EVENT_WARNING to the event callback) before the next
** request, never a failure. NULL keeps the cookies in memory only (those held now stay). */
SATCHEL_API satchel_status satchel_session_set_cookie_jar(satchel_session *session, const char *path);

/** The cookies, expired ones left out, as an array of cookie objects owned by the caller
** (satchel_value_free); with `url` (borrowed; may be NULL) only those a request to it would
** carry (domain, path and Secure matched; loopback hosts count as secure over http).
** SATCHEL_E_INVALID_ARGUMENT for a url that is not absolute http(s). */
SATCHEL_API satchel_status satchel_session_cookies(satchel_value **out_cookies, satchel_session *session, const char *url, size_t url_length);

/** Adds a cookie object (borrowed), or replaces the one with its name, domain and path.
** SATCHEL_E_INVALID_ARGUMENT, naming the member, for a missing or mistyped member, an empty
** name or domain, a path not starting with "/", or a tab, line end or ';' in a string;
** SATCHEL_E_IO when the cookie file cannot be written (the cookie is kept in memory). */
SATCHEL_API satchel_status satchel_session_set_cookie(satchel_session *session, const satchel_value *cookie);

/** Removes the cookies whose domain is `domain` (borrowed; case-insensitive), or all of them
** when `domain` is NULL. SATCHEL_E_IO when the cookie file cannot be written. */
SATCHEL_API satchel_status satchel_session_clear_cookies(satchel_session *session, const char *domain, size_t domain_length);

/** Sends `request` (borrowed) and waits for the response.
**   out_response  receives the response, owned by the caller (satchel_response_free),
**                 whenever one arrived -- also when the call then returns
**                 SATCHEL_E_UNACCEPTABLE_STATUS, _UNACCEPTABLE_CONTENT_TYPE or a decoding
**                 error, so the status and body can be inspected. NULL otherwise.
** Errors: the transport's (SATCHEL_E_CANNOT_CONNECT, _TIMED_OUT, _TLS, _TOO_MANY_REDIRECTS,
** _NETWORK, _CANCELLED), validation and decoding errors. A status outside the request's
** acceptable ones (200 to 299 unless satchel_request_set_acceptable_statuses says otherwise) is
** SATCHEL_E_UNACCEPTABLE_STATUS. When such a response is problem details (RFC 9457,
** Content-Type application/problem+json), its value is the JSON object: "type" (a URI;
** "about:blank" when the server sent none), "title", "status", "detail" and "instance" when
** the server sent them, and any extension members as they came. The last error message then
** ends with "title: detail". Must not be called from a completion or progress callback. */
SATCHEL_API satchel_status satchel_session_send(satchel_response **out_response, satchel_session *session, const satchel_request *request);

/** Called once when an asynchronous transfer ends, on a library thread. `response` is owned by
** the callback (satchel_response_free), NULL when none arrived; `status` as for
** satchel_session_send, with the message passed in `message` (valid during the call). */
typedef void (*satchel_completion_callback)(void *userdata, satchel_status status, const char *message, satchel_response *response);

/** Starts sending `request` (borrowed; copied before the call returns) and returns at once.
**   out_task    receives the task, owned by the caller (satchel_task_free); may be NULL.
**   completion  required; `userdata` is passed to it. */
SATCHEL_API satchel_status satchel_session_send_async(satchel_task **out_task, satchel_session *session, const satchel_request *request, satchel_completion_callback completion, void *userdata);

/** Cancels the transfer; its completion then runs with SATCHEL_E_CANCELLED (unless it already
** ended). Safe from any thread, also from the progress callback. */
SATCHEL_API satchel_status satchel_task_cancel(satchel_task *task);

/** Waits until the task's completion callback has returned. */
SATCHEL_API satchel_status satchel_task_wait(satchel_task *task);

/** Resumes a transfer its data callback paused; does nothing when it is not paused (a resume
** that arrives before the pause cancels it out). Safe from any thread. */
SATCHEL_API satchel_status satchel_task_resume(satchel_task *task);

/** Releases the caller's handle; the transfer goes on and its completion still runs. */
SATCHEL_API void satchel_task_free(satchel_task *task);

/** Releases a response owned by the caller, with its value and headers. NULL does nothing. */
SATCHEL_API void satchel_response_free(satchel_response *response);

/** The HTTP status code, such as 200. */
SATCHEL_API int satchel_response_status(const satchel_response *response);

/** @{ */
/** The number of header fields, and the field at `index` (name and value owned by the
** response). */
SATCHEL_API size_t satchel_response_header_count(const satchel_response *response);
SATCHEL_API satchel_status satchel_response_header_at(const char **out_name, size_t *out_name_length, const char **out_value, size_t *out_value_length, const satchel_response *response, size_t index);
/** @} */

/** The value of the first field named `name` (case-insensitive, borrowed); owned by the
** response. SATCHEL_E_NOT_FOUND when absent. */
SATCHEL_API satchel_status satchel_response_header(const char **out_value, size_t *out_value_length, const satchel_response *response, const char *name, size_t name_length);

/** The raw body as received (decompressed), owned by the response. */
SATCHEL_API satchel_status satchel_response_body(const uint8_t **out_body, size_t *out_length, const satchel_response *response);

/** The decoded value, owned by the response; NULL when the body carried none or did not
** decode. */
SATCHEL_API const satchel_value *satchel_response_value(const satchel_response *response);

/** What a download saved (satchel_request_set_destination): the bytes now in the file, and how
** many of them were on disk before (0 when it started from the beginning). Either pointer may
** be NULL. SATCHEL_E_NOT_FOUND when the request was not a download or nothing was saved. */
SATCHEL_API satchel_status satchel_response_download(int64_t *out_file_size, int64_t *out_resumed_from, const satchel_response *response);

/** What a transfer cost. Fill struct_size and abi_version before satchel_response_metrics; in a
** satchel_event the library fills them. Times are milliseconds from the start of the attempt. */
typedef struct satchel_metrics {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    double name_lookup_ms;     /**< DNS resolution done */
    double connect_ms;         /**< TCP connected */
    double tls_handshake_ms;   /**< TLS established (0 without TLS) */
    double first_byte_ms;      /**< first response byte */
    double total_ms;           /**< the last attempt, to its end */
    double elapsed_ms;         /**< all attempts, redirects and retries, with waits between them */
    int64_t bytes_sent;        /**< request bytes, head and body */
    int64_t bytes_received;    /**< response bytes, head and body, as on the wire */
    uint32_t redirect_count; /**< redirects followed */
    uint32_t retry_count; /**< retries made */
    int reused_connection;     /**< the last attempt went over a connection kept alive */
    const char *http_version;  /**< "1.1", "2", ...; owned by the response or the event */
} satchel_metrics;

/** Fills `metrics` for the request that produced `response`. */
SATCHEL_API satchel_status satchel_response_metrics(satchel_metrics *metrics, const satchel_response *response);

/* ---- The HTTP cache --------------------------------------------------------------------- */

/** A private HTTP cache (RFC 9111) shared by the sessions given it: responses to GET that the
** RFC lets a private cache keep, fresh ones served without the network, stale ones validated
** with If-None-Match / If-Modified-Since. On disk each entry is one file written to a temporary
** name and renamed into place, checked (length and checksum) before it is served; files are
** mode 0600, the directory 0700. Safe to use from any thread and from several processes. */
typedef struct satchel_cache satchel_cache;

/** Creates a cache in the directory `path` (NUL-terminated; made when missing), or in memory
** when `path` is NULL. `max_bytes` bounds the entries kept (least recently used evicted first);
** 0 for the default: 256 MiB on disk, 4 MiB in memory. A response larger than 64 MiB is not
** stored. Errors: SATCHEL_E_IO when the directory cannot be made, SATCHEL_E_INVALID_ARGUMENT
** for a negative size. */
SATCHEL_API satchel_status satchel_cache_create(satchel_cache **out_cache, const char *path, int64_t max_bytes);

/** Removes every stored response. */
SATCHEL_API satchel_status satchel_cache_clear(satchel_cache *cache);

/** Releases the caller's reference; sessions keep theirs. NULL does nothing. */
SATCHEL_API void satchel_cache_free(satchel_cache *cache);

/** Gives the session's later requests `cache` (borrowed: the session keeps a reference); NULL for
** none (the default). */
SATCHEL_API satchel_status satchel_session_set_cache(satchel_session *session, satchel_cache *cache);

/** How a request uses the session's cache (AFNetworking's NSURLRequestCachePolicy). */
typedef enum satchel_cache_policy {
    SATCHEL_CACHE_POLICY_PROTOCOL = 1,      /**< RFC 9111 (the default) */
    SATCHEL_CACHE_POLICY_RELOAD = 2,        /**< the network, ignoring what is stored; stored after */
    SATCHEL_CACHE_POLICY_PREFER_CACHE = 3,  /**< a stored response, even stale, else the network */
    SATCHEL_CACHE_POLICY_ONLY_CACHE = 4,    /**< a stored response, even stale, never the network:
                                            ** without one, a synthesized 504 and
                                            ** SATCHEL_E_UNACCEPTABLE_STATUS */
    SATCHEL_CACHE_POLICY_REVALIDATE = 5     /**< a stored response only after the origin confirms it */
} satchel_cache_policy;

/** Sets the request's cache policy. SATCHEL_E_INVALID_ARGUMENT for another value. */
SATCHEL_API satchel_status satchel_request_set_cache_policy(satchel_request *request, satchel_cache_policy policy);

/** Where a response came from. */
typedef enum satchel_cache_outcome {
    SATCHEL_CACHE_NOT_USED = 0,     /**< no cache, or the cache took no part (not a GET, a request
                                    ** with conditional or Range fields of its own) */
    SATCHEL_CACHE_HIT = 1,          /**< from the cache, without the network */
    SATCHEL_CACHE_MISS = 2,         /**< nothing stored and only-cache: the synthesized 504 */
    SATCHEL_CACHE_REVALIDATED = 3,  /**< the origin answered 304; the stored body was served */
    SATCHEL_CACHE_STORED = 4,       /**< from the origin, and stored */
    SATCHEL_CACHE_NOT_STORED = 5    /**< from the origin, not stored: see the reason */
} satchel_cache_outcome;

/** The cache outcome of `response`, and for SATCHEL_CACHE_NOT_STORED why ("no-store", …; owned by
** the response, NULL otherwise). `out_reason` may be NULL. */
SATCHEL_API satchel_status satchel_response_cache(satchel_cache_outcome *out_outcome, const char **out_reason, const satchel_response *response);

/* ---- Events ----------------------------------------------------------------------------- */

/** What happened to a request (Alamofire's EventMonitor). */
typedef enum satchel_event_kind {
    SATCHEL_EVENT_START = 1,     /**< an attempt is about to be sent (first, redirect, retry) */
    SATCHEL_EVENT_REDIRECT = 2,  /**< a redirect is followed: `status`, `location` */
    SATCHEL_EVENT_RETRY = 3,     /**< a failed attempt is retried: `retry`, `delay_ms`, `error` */
    SATCHEL_EVENT_METRICS = 4,   /**< an attempt's `metrics` are in */
    SATCHEL_EVENT_COMPLETE = 5,  /**< the request is done: `status` (0: no response), `error` */
    SATCHEL_EVENT_WARNING = 6    /**< the session warns, about no request: `error`, `message`
                                 ** (a cookie file it could not read or write) */
} satchel_event_kind;

/** One event; every pointer is valid during the callback only. */
typedef struct satchel_event {
    uint32_t struct_size;           /**< filled by the library */
    uint32_t abi_version; /**< filled by the library */
    satchel_event_kind kind; /**< what happened */
    const char *method;             /**< "GET", ...; NULL for WARNING */
    const char *url;                /**< the attempt's URL; NULL for WARNING */
    const char *location;           /**< REDIRECT: where to; else NULL */
    int status;                     /**< REDIRECT, COMPLETE: the status code; else 0 */
    uint32_t retry;                 /**< RETRY: 1 for the first retry */
    uint64_t delay_ms;              /**< RETRY: the wait before it */
    satchel_status error;           /**< RETRY, COMPLETE, WARNING: why, or SATCHEL_OK */
    const char *message;            /**< RETRY, COMPLETE, WARNING: the error's message; else NULL */
    const satchel_metrics *metrics; /**< METRICS; else NULL */
} satchel_event;

/** Called for each event of every request the session sends, on a library thread; it must be
** quick and must not call satchel_session_send or satchel_task_wait. */
typedef void (*satchel_event_callback)(void *userdata, const satchel_event *event);

/** Sets the session's event callback (NULL removes it) for requests sent after the call;
** `userdata` is borrowed and must stay valid until the session is freed or the callback
** replaced and the requests sent before have ended. */
SATCHEL_API satchel_status satchel_session_set_event_callback(satchel_session *session, satchel_event_callback on_event, void *userdata);

/* ---- Reachability ----------------------------------------------------------------------- */

/** Whether the network, or one host, can be reached (AFNetworkReachabilityManager on Linux,
** from the kernel's routing table over rtnetlink): a route leads there through an interface
** that is up. Reachable means a packet has somewhere to go, not that the host answers. */
typedef struct satchel_reachability satchel_reachability;

/** Whether a host (or any network) can be reached. */
typedef enum satchel_reachability_status {
    SATCHEL_REACHABILITY_UNKNOWN = 0,        /**< not decided yet, stopped, or the check failed */
    SATCHEL_REACHABILITY_NOT_REACHABLE = 1,  /**< no route, or the name does not resolve */
    SATCHEL_REACHABILITY_REACHABLE = 2       /**< through `interface_name` */
} satchel_reachability_status;

/** The kind of interface a reachable host is reached through. */
typedef enum satchel_interface_kind {
    SATCHEL_INTERFACE_NONE = 0,
    SATCHEL_INTERFACE_LOOPBACK = 1,
    SATCHEL_INTERFACE_WIRED = 2,     /**< Ethernet framing, including veth and bridges */
    SATCHEL_INTERFACE_WIFI = 3,
    SATCHEL_INTERFACE_CELLULAR = 4,  /**< AFNetworking's WWAN */
    SATCHEL_INTERFACE_OTHER = 5
} satchel_interface_kind;

/** A reachability status. Fill struct_size and abi_version before the calls that fill it; in a
** change callback the library fills them. */
typedef struct satchel_reachability_info {
    uint32_t struct_size; /**< set to `sizeof` the struct (by the caller, or the library where it fills it) */
    uint32_t abi_version; /**< set to SATCHEL_ABI_VERSION */
    satchel_reachability_status status; /**< whether the host or the network can be reached */
    satchel_interface_kind interface_kind;  /**< NONE unless REACHABLE */
    int32_t interface_index;                /**< 0 unless REACHABLE */
    char interface_name[16];                /**< NUL-terminated, "" unless REACHABLE */
} satchel_reachability_info;

/** The status of `host` (a name or an address, `host_length` bytes or SATCHEL_NTS; NULL for
** the network in general: a default route) once, now. Blocks while the name resolves.
** SATCHEL_E_INVALID_ARGUMENT for a malformed host, SATCHEL_E_IO when the kernel cannot be asked. */
SATCHEL_API satchel_status satchel_reachability_check(satchel_reachability_info *info, const char *host, size_t host_length);

/** Creates a monitor for `host` (as for satchel_reachability_check), idle until started.
** Owned by the caller (satchel_reachability_free). */
SATCHEL_API satchel_status satchel_reachability_create(satchel_reachability **out_reachability, const char *host, size_t host_length);

/** Called with each new status (never the same twice in a row), in order, on a library thread. */
typedef void (*satchel_reachability_callback)(void *userdata, const satchel_reachability_info *info);

/** Starts watching the kernel's link, address and route changes; `on_change` (may be NULL)
** hears the first status and every change. `userdata` is borrowed until the monitor is
** stopped. SATCHEL_E_MISUSE when already started; SATCHEL_E_IO when the netlink
** socket cannot be opened. */
SATCHEL_API satchel_status satchel_reachability_start(satchel_reachability *reachability, satchel_reachability_callback on_change, void *userdata);

/** The monitor's current status (UNKNOWN before its first decision and after a stop). */
SATCHEL_API satchel_status satchel_reachability_current(satchel_reachability_info *info, const satchel_reachability *reachability);

/** Stops watching; when it returns, no change callback runs or will run. Does nothing when not
** started. Must not be called from the change callback. */
SATCHEL_API void satchel_reachability_stop(satchel_reachability *reachability);

/** Stops the monitor and releases it. NULL does nothing. */
SATCHEL_API void satchel_reachability_free(satchel_reachability *reachability);

#ifdef __cplusplus
}
#endif

#endif /* SATCHEL_H */
