# SPDX-License-Identifier: Apache-2.0
"""libsatchel through ctypes: the few declarations the examples need, no compiled glue.

The library is found through SATCHEL_LIBRARY (a path), else as "libsatchel.so.0" on the
loader's path (after scripts/install-c-library).
"""
import ctypes
import os

lib = ctypes.CDLL(os.environ.get("SATCHEL_LIBRARY", "libsatchel.so.0"))

NTS = ctypes.c_size_t(-1).value  # SATCHEL_NTS
OK = 0
JSON_PRETTY = 1
ABI_VERSION = 1

Handle = ctypes.c_void_p


class SatchelError(Exception):
    """A failing call: its satchel_status and libsatchel's message."""

    def __init__(self, status, what):
        message = lib.satchel_last_error_message().decode()
        super().__init__(f"{what}: {message} ({lib.satchel_status_string(status).decode()})")
        self.status = status


def check(status, what):
    if status != OK:
        raise SatchelError(status, what)


def _declare(name, restype, *argtypes):
    function = getattr(lib, name)
    function.restype = restype
    function.argtypes = list(argtypes)


c_size_p = ctypes.POINTER(ctypes.c_size_t)
PROGRESS = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64, ctypes.c_int64)

_declare("satchel_version", ctypes.c_char_p)
_declare("satchel_status_string", ctypes.c_char_p, ctypes.c_int)
_declare("satchel_last_error_message", ctypes.c_char_p)
_declare("satchel_free", None, ctypes.c_void_p)
_declare("satchel_registry_create", ctypes.c_int, ctypes.POINTER(Handle))
_declare("satchel_registry_free", None, Handle)
_declare("satchel_registry_decode", ctypes.c_int, ctypes.POINTER(Handle), Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_value_free", None, Handle)
_declare("satchel_value_type", ctypes.c_int, Handle)
_declare("satchel_value_to_json", ctypes.c_int, ctypes.POINTER(ctypes.c_void_p), c_size_p, Handle, ctypes.c_uint)
_declare("satchel_multipart_create", ctypes.c_int, ctypes.POINTER(Handle), ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_free", None, Handle)
_declare("satchel_multipart_add_field", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_add_file", ctypes.c_int, Handle, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_multipart_content_length", ctypes.c_int, ctypes.POINTER(ctypes.c_int64), Handle)
_declare("satchel_session_create", ctypes.c_int, ctypes.POINTER(Handle), ctypes.c_char_p, ctypes.c_size_t, Handle)
_declare("satchel_session_free", None, Handle)
_declare("satchel_request_create", ctypes.c_int, ctypes.POINTER(Handle), ctypes.c_char_p, ctypes.c_size_t, ctypes.c_char_p, ctypes.c_size_t)
_declare("satchel_request_free", None, Handle)
_declare("satchel_request_set_body_multipart", ctypes.c_int, Handle, Handle)
_declare("satchel_request_set_progress", ctypes.c_int, Handle, PROGRESS, ctypes.c_void_p)
_declare("satchel_session_send", ctypes.c_int, ctypes.POINTER(Handle), Handle, Handle)
_declare("satchel_response_free", None, Handle)
_declare("satchel_response_status", ctypes.c_int, Handle)
_declare("satchel_response_value", Handle, Handle)


def to_json(value, pretty=False):
    """A value's canonical JSON text."""
    text = ctypes.c_void_p()
    length = ctypes.c_size_t()
    check(lib.satchel_value_to_json(ctypes.byref(text), ctypes.byref(length), value, JSON_PRETTY if pretty else 0), "to JSON")
    try:
        return ctypes.string_at(text, length.value).decode()
    finally:
        lib.satchel_free(text)
