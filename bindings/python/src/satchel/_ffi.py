# SPDX-License-Identifier: Apache-2.0
"""libsatchel through ctypes: the declarations of include/satchel.h the package uses.

The library is the installed ``libsatchel.so.0`` (``scripts/install-c-library``): found through
the ``SATCHEL_LIBRARY`` environment variable (a path), else on the loader's path. No compiler is
needed to install the package.
"""
from __future__ import annotations

import ctypes
import os
from types import ModuleType
from typing import Any, Optional

from .errors import SatchelError

# SATCHEL_LIBRARY names a library; else the one a wheel carries beside this file
# (scripts/build-wheel); else the installed one, on the loader's path.
_bundled = os.path.join(os.path.dirname(os.path.abspath(__file__)), "libsatchel.so.0")
library_path = os.environ.get("SATCHEL_LIBRARY") or (_bundled if os.path.exists(_bundled) else "libsatchel.so.0")
try:
    lib = ctypes.CDLL(library_path)
except OSError as error:  # pragma: no cover - depends on the machine
    raise ImportError(
        f"satchel: cannot load {library_path} ({error}); install the C library (scripts/install-c-library) "
        "or set SATCHEL_LIBRARY to its path"
    ) from error

NTS = ctypes.c_size_t(-1).value
ABI_VERSION = 2
Handle = ctypes.c_void_p
c_size_p = ctypes.POINTER(ctypes.c_size_t)


def _declare(name: str, restype: Any, *argtypes: Any) -> None:
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


def check(status: int, what: str) -> None:
    """Raises :class:`SatchelError` with libsatchel's message unless ``status`` is 0."""
    if status != 0:
        raise SatchelError.from_status(status, lib.satchel_last_error_message().decode("utf-8", "replace"), what)


class ImageInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("format", ctypes.c_char_p),
        ("width", ctypes.c_uint32), ("height", ctypes.c_uint32), ("channels", ctypes.c_uint32),
        ("bit_depth", ctypes.c_uint32), ("row_stride", ctypes.c_size_t), ("color_type", ctypes.c_char_p),
        ("orientation", ctypes.c_uint32), ("interlaced", ctypes.c_int), ("progressive", ctypes.c_int),
        ("has_icc_profile", ctypes.c_int),
    ]


class PartInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32),
        ("name", ctypes.c_void_p), ("name_length", ctypes.c_size_t),
        ("filename", ctypes.c_void_p), ("filename_length", ctypes.c_size_t),
        ("content_type", ctypes.c_void_p), ("content_type_length", ctypes.c_size_t),
        ("size", ctypes.c_uint64), ("header_count", ctypes.c_size_t), ("value", Handle),
    ]


class HTTPInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("status", ctypes.c_int),
        ("header_count", ctypes.c_size_t), ("value", Handle),
    ]


def structure(kind: type) -> Any:
    """A struct of ``kind`` with its size and ABI version filled in."""
    value = kind()
    value.struct_size = ctypes.sizeof(kind)
    value.abi_version = ABI_VERSION
    return value


def address(handle: Any) -> int:
    """The address a ``c_void_p`` out-parameter received; a NULL is a library bug, not input."""
    if not handle.value:
        raise SatchelError.from_status(14, "the library returned NULL where a handle was due", "handle")
    return int(handle.value)


def bytes_at(pointer: int | None, length: int) -> bytes:
    """``length`` bytes at ``pointer``; empty for NULL or 0."""
    return ctypes.string_at(pointer, length) if pointer and length else b""


def text(pointer: int | None, length: int) -> str | None:
    """A UTF-8 string from a pointer and a length; ``None`` for NULL."""
    if not pointer:
        return None
    return ctypes.string_at(pointer, length).decode("utf-8")


P = ctypes.POINTER
_declare("satchel_version", ctypes.c_char_p)
_declare("satchel_last_error_message", ctypes.c_char_p)
_declare("satchel_free", None, ctypes.c_void_p)
_declare("satchel_registry_create", ctypes.c_int, P(Handle))
_declare("satchel_registry_free", None, Handle)
_declare("satchel_registry_set_limit", ctypes.c_int, Handle, ctypes.c_int, ctypes.c_uint64)
_declare("satchel_registry_set_multipart_flags", ctypes.c_int, Handle, ctypes.c_uint32)
_declare("satchel_registry_load_plugin", ctypes.c_int, Handle, ctypes.c_char_p)
_declare("satchel_registry_decode", ctypes.c_int, P(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_reader_create", ctypes.c_int, P(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_reader_create_each", ctypes.c_int, P(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t,
         ctypes.c_char_p, ctypes.c_size_t, Handle)
_declare("satchel_reader_rest", ctypes.c_int, P(Handle), Handle)
_declare("satchel_reader_yields_records", ctypes.c_int, Handle)
_declare("satchel_reader_feed", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_reader_finish", ctypes.c_int, Handle)
_declare("satchel_reader_next", ctypes.c_int, P(Handle), Handle)
_declare("satchel_reader_free", None, Handle)
_declare("satchel_registry_encode", ctypes.c_int, P(ctypes.c_void_p), c_size_p, P(ctypes.c_void_p), Handle, ctypes.c_char_p, ctypes.c_size_t, Handle)
_declare("satchel_value_free", None, Handle)
_declare("satchel_value_type", ctypes.c_int, Handle)
_declare("satchel_value_to_json", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle, ctypes.c_uint)
_declare("satchel_value_get_bool", ctypes.c_int, P(ctypes.c_int), Handle)
_declare("satchel_value_get_int64", ctypes.c_int, P(ctypes.c_int64), Handle)
_declare("satchel_value_get_uint64", ctypes.c_int, P(ctypes.c_uint64), Handle)
_declare("satchel_value_get_double", ctypes.c_int, P(ctypes.c_double), Handle)
_declare("satchel_value_get_string", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle)
_declare("satchel_value_get_bytes", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle)
_declare("satchel_value_get_date", ctypes.c_int, P(ctypes.c_double), Handle)
_declare("satchel_value_count", ctypes.c_int, c_size_p, Handle)
_declare("satchel_value_array_get", ctypes.c_int, P(Handle), Handle, ctypes.c_size_t)
_declare("satchel_value_object_entry", ctypes.c_int, P(ctypes.c_void_p), c_size_p, P(Handle), Handle, ctypes.c_size_t)
_declare("satchel_value_create_null", ctypes.c_int, P(Handle))
_declare("satchel_value_create_bool", ctypes.c_int, P(Handle), ctypes.c_int)
_declare("satchel_value_create_int64", ctypes.c_int, P(Handle), ctypes.c_int64)
_declare("satchel_value_create_uint64", ctypes.c_int, P(Handle), ctypes.c_uint64)
_declare("satchel_value_create_double", ctypes.c_int, P(Handle), ctypes.c_double)
_declare("satchel_value_create_string", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_value_create_bytes", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_value_create_date", ctypes.c_int, P(Handle), ctypes.c_double)
_declare("satchel_value_create_array", ctypes.c_int, P(Handle))
_declare("satchel_value_create_object", ctypes.c_int, P(Handle))
_declare("satchel_value_array_append", ctypes.c_int, Handle, Handle)
_declare("satchel_value_object_set", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, Handle)
_declare("satchel_value_image_info", ctypes.c_int, P(ImageInfo), Handle)
_declare("satchel_value_image_pixels", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle)
_declare("satchel_value_xml_query", ctypes.c_int, P(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t, P(ctypes.c_char_p))
_declare("satchel_value_part", ctypes.c_int, P(PartInfo), Handle, ctypes.c_size_t)
_declare("satchel_value_part_header_at", ctypes.c_int, P(ctypes.c_void_p), c_size_p, P(ctypes.c_void_p), c_size_p, Handle, ctypes.c_size_t, ctypes.c_size_t)
_declare("satchel_value_http_info", ctypes.c_int, P(HTTPInfo), Handle)
_declare("satchel_value_http_header_at", ctypes.c_int, P(ctypes.c_void_p), c_size_p, P(ctypes.c_void_p), c_size_p, Handle, ctypes.c_size_t)
_declare("satchel_value_error", ctypes.c_int, P(ctypes.c_int), P(ctypes.c_char_p), Handle)
_declare("satchel_multipart_create", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_free", None, Handle)
_declare("satchel_multipart_add_field", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_add_data", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_add_file", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_content_type", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle)
_declare("satchel_multipart_content_length", ctypes.c_int, P(ctypes.c_int64), Handle)
_declare("satchel_multipart_read", ctypes.c_int, c_size_p, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_rewind", ctypes.c_int, Handle)

PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)
_declare("satchel_session_create", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t, Handle)
_declare("satchel_session_free", None, Handle)
_declare("satchel_session_set_timeout", ctypes.c_int, Handle, ctypes.c_int, ctypes.c_uint64)
_declare("satchel_session_set_header", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_session_set_max_redirects", ctypes.c_int, Handle, ctypes.c_uint32)
_declare("satchel_session_set_retries", ctypes.c_int, Handle, ctypes.c_uint32)
_declare("satchel_session_set_ca_file", ctypes.c_int, Handle, ctypes.c_char_p)
_declare("satchel_session_add_pinned_public_key", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_create", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_free", None, Handle)
_declare("satchel_request_add_header", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_set_parameters", ctypes.c_int, Handle, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_set_body", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_set_body_multipart", ctypes.c_int, Handle, Handle)
_declare("satchel_request_set_progress", ctypes.c_int, Handle, PROGRESS, ctypes.c_void_p)
_declare("satchel_session_send", ctypes.c_int, P(Handle), Handle, Handle)
_declare("satchel_response_free", None, Handle)
_declare("satchel_response_status", ctypes.c_int, Handle)
_declare("satchel_response_header_count", ctypes.c_size_t, Handle)
_declare("satchel_response_header_at", ctypes.c_int, P(ctypes.c_void_p), c_size_p, P(ctypes.c_void_p), c_size_p, Handle, ctypes.c_size_t)
_declare("satchel_response_body", ctypes.c_int, P(ctypes.c_void_p), c_size_p, Handle)
_declare("satchel_response_value", Handle, Handle)
_declare("satchel_value_copy", ctypes.c_int, P(Handle), Handle)

# Where the body goes, events, metrics and reachability.
class Metrics(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32),
        ("name_lookup_ms", ctypes.c_double), ("connect_ms", ctypes.c_double), ("tls_handshake_ms", ctypes.c_double),
        ("first_byte_ms", ctypes.c_double), ("total_ms", ctypes.c_double), ("elapsed_ms", ctypes.c_double),
        ("bytes_sent", ctypes.c_int64), ("bytes_received", ctypes.c_int64),
        ("redirect_count", ctypes.c_uint32), ("retry_count", ctypes.c_uint32),
        ("reused_connection", ctypes.c_int), ("http_version", ctypes.c_char_p),
    ]


class Event(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("kind", ctypes.c_int),
        ("method", ctypes.c_char_p), ("url", ctypes.c_char_p), ("location", ctypes.c_char_p),
        ("status", ctypes.c_int), ("retry", ctypes.c_uint32), ("delay_ms", ctypes.c_uint64),
        ("error", ctypes.c_int), ("message", ctypes.c_char_p), ("metrics", ctypes.POINTER(Metrics)),
    ]


class ReachabilityInfo(ctypes.Structure):
    _fields_ = [
        ("struct_size", ctypes.c_uint32), ("abi_version", ctypes.c_uint32), ("status", ctypes.c_int),
        ("interface_kind", ctypes.c_int), ("interface_index", ctypes.c_int32), ("interface_name", ctypes.c_char * 16),
    ]


DATA_CONTINUE, DATA_PAUSE, DATA_CANCEL = 0, 1, 2
DOWNLOAD_RESUME = 1
DOWNLOAD_NO_SYNC = 2
DATA = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_size_t)
COMPLETION = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.c_int, ctypes.c_char_p, Handle)
EVENT = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(Event))
REACHABILITY = ctypes.CFUNCTYPE(None, ctypes.c_void_p, ctypes.POINTER(ReachabilityInfo))
_declare("satchel_request_set_destination", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_uint)
_declare("satchel_request_set_data_callback", ctypes.c_int, Handle, DATA, ctypes.c_void_p)
_declare("satchel_session_send_async", ctypes.c_int, P(Handle), Handle, Handle, COMPLETION, ctypes.c_void_p)
_declare("satchel_task_cancel", ctypes.c_int, Handle)
_declare("satchel_task_resume", ctypes.c_int, Handle)
_declare("satchel_task_wait", ctypes.c_int, Handle)
_declare("satchel_task_free", None, Handle)
_declare("satchel_response_download", ctypes.c_int, P(ctypes.c_int64), P(ctypes.c_int64), Handle)
_declare("satchel_response_metrics", ctypes.c_int, P(Metrics), Handle)
_declare("satchel_session_set_event_callback", ctypes.c_int, Handle, EVENT, ctypes.c_void_p)
#: ``satchel_token_refresh_callback``: the token goes out as a malloc'd pointer libsatchel frees.
TOKEN_REFRESH = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(ctypes.c_void_p))
_declare("satchel_session_set_bearer_token", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_session_set_token_refresh", ctypes.c_int, Handle, TOKEN_REFRESH, ctypes.c_void_p)
_declare("satchel_session_set_cookie_jar", ctypes.c_int, Handle, ctypes.c_char_p)
_declare("satchel_session_cookies", ctypes.c_int, P(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_session_set_cookie", ctypes.c_int, Handle, Handle)
_declare("satchel_session_clear_cookies", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)

_declare("satchel_session_set_proxy", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_session_set_proxy_credential", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int)
_declare("satchel_session_set_noproxy", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_session_set_proxy_ca_file", ctypes.c_int, Handle, ctypes.c_char_p)
_declare("satchel_session_set_http_version", ctypes.c_int, Handle, ctypes.c_int)
_declare("satchel_session_set_unix_socket", ctypes.c_int, Handle, ctypes.c_char_p)
_declare("satchel_session_set_client_certificate", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_int)
_declare("satchel_session_add_host_override", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int)
_declare("satchel_session_set_rate_limit", ctypes.c_int, Handle, ctypes.c_uint64, ctypes.c_uint64)
_declare("satchel_session_set_connection", ctypes.c_int, Handle, ctypes.c_int, ctypes.c_uint64)
_declare("satchel_cache_create", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_int64)
_declare("satchel_cache_clear", ctypes.c_int, Handle)
_declare("satchel_cache_free", None, Handle)
_declare("satchel_session_set_cache", ctypes.c_int, Handle, Handle)
_declare("satchel_request_set_cache_policy", ctypes.c_int, Handle, ctypes.c_int)
_declare("satchel_response_cache", ctypes.c_int, P(ctypes.c_int), P(ctypes.c_char_p), Handle)

_libc = ctypes.CDLL(None)
_libc.malloc.restype = ctypes.c_void_p
_libc.malloc.argtypes = [ctypes.c_size_t]


def malloc_string(text: bytes) -> int:
    """A NUL-terminated copy of ``text`` in memory from malloc, for libsatchel to free."""
    pointer = _libc.malloc(len(text) + 1)
    if not pointer:
        raise MemoryError("malloc failed")
    ctypes.memmove(pointer, text + b"\0", len(text) + 1)
    return int(pointer)
_declare("satchel_reachability_check", ctypes.c_int, P(ReachabilityInfo), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_reachability_create", ctypes.c_int, P(Handle), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_reachability_start", ctypes.c_int, Handle, REACHABILITY, ctypes.c_void_p)
_declare("satchel_reachability_current", ctypes.c_int, P(ReachabilityInfo), Handle)
_declare("satchel_reachability_stop", None, Handle)
_declare("satchel_reachability_free", None, Handle)


def function_address(name: str) -> int:
    """The address of one of libsatchel's functions, for the native module."""
    return int(ctypes.cast(getattr(lib, name), ctypes.c_void_p).value or 0)


# The native module (src/satchel/_native.c) builds Python values from libsatchel's in one call
# each, with the GIL released while libsatchel parses. It is handed this library's functions,
# so both paths use one library. A package built without a C compiler has no native module and
# goes through ctypes alone.
# SATCHEL_NATIVE=0 turns the native module off (to compare the two paths, or to rule it out).
native: Optional[ModuleType]
try:
    if os.environ.get("SATCHEL_NATIVE") == "0":
        raise ImportError("SATCHEL_NATIVE=0")
    from . import _native
except ImportError:  # pragma: no cover - built without a C compiler, or turned off
    native = None
else:
    native = _native
    _native.init(
        function_address("satchel_registry_decode"), function_address("satchel_value_visit"),
        function_address("satchel_value_free"), function_address("satchel_registry_visit"),
        function_address("satchel_reader_next"))

