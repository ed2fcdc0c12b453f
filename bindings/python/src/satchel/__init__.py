# SPDX-License-Identifier: Apache-2.0
"""Satchel from Python: decode and encode HTTP payloads through libsatchel.

JSON, forms, multipart bodies (parts decoded by their own type), XML (with XPath), property
lists (XML and binary), PNG and JPEG images, problem details and batch responses decode into
Python values; parameters encode into request bodies; multipart bodies are built in constant
memory. The work is done by the installed C library (``libsatchel.so.0``), through ctypes::

    import satchel

    satchel.decode(b'{"id": 18446744073709551615}', "application/json")   # {'id': 18446744073709551615}
    body, content_type = satchel.encode({"q": "a b"}, as_="form")           # b'q=a%20b', ...

Errors are :class:`SatchelError` with the library's stable code and a message that says what
and where.
"""
from __future__ import annotations

import ctypes
import json
from typing import Any, NamedTuple, Optional

from . import _ffi
from ._ffi import Handle, check, lib
from .errors import SatchelError
from .multipart import MultipartBody
from .reachability import Monitor as ReachabilityMonitor, Reachability, check_reachability
from .records import Reader, records
from .session import BodyStream, Download, Event, Metrics, Response, Session
from .values import DecodingFailure, HTTPMessage, Image, Part, ValueOwner, XMLDocument, build, payload, to_json

__all__ = [
    "Registry", "Encoded", "decode", "encode", "version", "SatchelError", "MultipartBody", "Part", "Image",
    "XMLDocument", "HTTPMessage", "DecodingFailure", "FORMATS", "LIMITS", "Session", "Response", "Download",
    "BodyStream", "Event", "Metrics", "Reachability", "ReachabilityMonitor", "check_reachability", "Reader",
    "records",
]

#: The ``as_`` names of :func:`encode` and the media types they stand for.
FORMATS = {
    "json": "application/json", "form": "application/x-www-form-urlencoded", "plist": "application/x-plist",
    "plist-binary": "application/x-bplist", "xml": "application/xml", "multipart": "multipart/form-data",
    "text": "text/plain",
}

#: The limits a :class:`Registry` obeys (``satchel_limit``), by name.
LIMITS = {
    "body_bytes": 1, "depth": 2, "string_bytes": 3, "pairs": 4, "parts": 5, "part_header_bytes": 6,
    "image_pixels": 7, "entity_expansions": 8, "record_bytes": 9, "records": 10,
}


class Encoded(NamedTuple):
    """A request body and the Content-Type to send with it."""

    body: bytes
    content_type: str


class Registry:
    """The serializers, with limits, multipart options and C plugins of its own; the module's
    functions use one shared default registry.

    Args:
        crlf_only: multipart bodies with CRLF line endings only (a bare LF is an error).
        lenient_multipart: accept the further deviations of Sources/Satchel/Satchel.docc/RegistryAndSerializers.md's table.
        raw_parts: leave multipart part bodies undecoded (strings of their exact bytes, or bytes).
        **limits: any of :data:`LIMITS`, such as ``depth=64``.
    """

    def __init__(self, *, crlf_only: bool = False, lenient_multipart: bool = False, raw_parts: bool = False,
                 **limits: int) -> None:
        handle = Handle()
        check(lib.satchel_registry_create(ctypes.byref(handle)), "registry_create")
        self._handle: Optional[int] = handle.value
        flags = (1 if crlf_only else 0) | (2 if lenient_multipart else 0) | (4 if raw_parts else 0)
        if flags:
            check(lib.satchel_registry_set_multipart_flags(self._handle, flags), "set_multipart_flags")
        for name, value in limits.items():
            if name not in LIMITS:
                raise TypeError(f"satchel: no limit named {name!r} (one of {', '.join(LIMITS)})")
            check(lib.satchel_registry_set_limit(self._handle, LIMITS[name], value), "set_limit")

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.satchel_registry_free(self._handle)
            self._handle = None

    def load_plugin(self, path: str) -> None:
        """Registers the serializers of a C plugin (a shared object exporting
        ``satchel_plugin_init``, docs/CAPI.md)."""
        import os

        check(lib.satchel_registry_load_plugin(self._handle, os.fsencode(path)), "load_plugin")

    def decode(self, body: bytes, content_type: Optional[str] = None) -> Any:
        """The value of a response body, chosen by ``content_type`` (sniffed from the bytes when
        ``None``): dict, list, int (exact to 64 bits), float, str, bytes, datetime, or
        :class:`Image`, :class:`XMLDocument`, a list of :class:`Part`, :class:`HTTPMessage`.
        A body that carries no value (empty, or white space in JSON, XML and property lists) is
        ``None``.

        Raises:
            SatchelError: the serializer's error, such as ``syntaxError`` with the byte offset.
        """
        data = bytes(body)
        if _ffi.native is not None:
            # JSON is built as libsatchel reads it (no value in between); other formats are
            # parsed without the GIL first.
            read = _ffi.native.visit if content_type is not None and _is_json(content_type) else _ffi.native.decode
            status, value = read(self._handle, data, content_type, payload)
            check(status, "decode")
            return value
        out = Handle()
        encoded = content_type.encode() if content_type is not None else None
        check(lib.satchel_registry_decode(ctypes.byref(out), self._handle, encoded, len(encoded) if encoded else 0,
                                          data, len(data)), "decode")
        with ValueOwner(out.value) as owner:
            if out.value and content_type is not None and _is_json(content_type):
                # A JSON body decodes to JSON types only: one call for the canonical text and
                # Python's C parser beat a ctypes call per value by far (scripts/bench-python).
                return json.loads(to_json(out.value))
            return owner.python()

    def encode(self, parameters: Any, as_: str = "json") -> Encoded:
        """``parameters`` written by the request serializer ``as_`` names (:data:`FORMATS`, or a
        media type), with the Content-Type to send."""
        media_type = FORMATS.get(as_, as_).encode()
        value = build(parameters)
        body, length, content_type = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
        try:
            check(lib.satchel_registry_encode(ctypes.byref(body), ctypes.byref(length), ctypes.byref(content_type),
                                              self._handle, media_type, len(media_type), value), "encode")
        finally:
            lib.satchel_value_free(value)
        try:
            return Encoded(_ffi.bytes_at(body.value, length.value),
                           ctypes.string_at(_ffi.address(content_type)).decode())
        finally:
            lib.satchel_free(body)
            lib.satchel_free(content_type)


def _is_json(content_type: str) -> bool:
    """Whether the JSON serializer reads ``content_type``: ``application/json``, ``text/json``,
    ``text/javascript`` or any ``+json`` type (only JSON values can come out of it)."""
    essence = content_type.split(";", 1)[0].strip().lower()
    return essence in ("application/json", "text/json", "text/javascript") or (
        essence.startswith("application/") and essence.endswith("+json"))


_default: Optional[Registry] = None


def _registry() -> Registry:
    global _default
    if _default is None:
        _default = Registry()
    return _default


def decode(body: bytes, content_type: Optional[str] = None) -> Any:
    """:meth:`Registry.decode` with the default registry."""
    return _registry().decode(body, content_type)


def encode(parameters: Any, as_: str = "json") -> Encoded:
    """:meth:`Registry.encode` with the default registry."""
    return _registry().encode(parameters, as_)


def version() -> str:
    """libsatchel's version, such as ``"0.1.0"``."""
    number: bytes = lib.satchel_version()
    return number.decode()
