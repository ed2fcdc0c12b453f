# SPDX-License-Identifier: Apache-2.0
"""Satchel's values as Python values, both ways."""
from __future__ import annotations

import ctypes
import datetime
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _ffi
from ._ffi import Handle, check, lib


@dataclass(frozen=True)
class Image:
    """A decoded PNG or JPEG: its pixels, rows top to bottom, ``height * row_stride`` bytes."""

    format: str
    width: int
    height: int
    channels: int
    bit_depth: int
    row_stride: int
    color_type: str
    orientation: int
    interlaced: bool
    progressive: bool
    has_icc_profile: bool
    pixels: bytes = field(repr=False)


@dataclass(frozen=True)
class Part:
    """A part of a multipart body: its name, file name (``filename*`` decoded), Content-Type,
    headers as received, size and decoded value."""

    name: Optional[str]
    filename: Optional[str]
    content_type: Optional[str]
    headers: List[Tuple[str, str]]
    size: int
    value: Any


if _ffi.native is not None:
    # Multipart values are read by the native module too: a part costs no ctypes call.
    _ffi.native.init_parts(
        _ffi.function_address("satchel_value_type"), _ffi.function_address("satchel_value_count"),
        _ffi.function_address("satchel_value_part"), _ffi.function_address("satchel_value_part_header_at"), Part)


@dataclass(frozen=True)
class HTTPMessage:
    """An HTTP response embedded in a batch response, with its body decoded."""

    status: int
    headers: List[Tuple[str, str]]
    value: Any


@dataclass(frozen=True)
class DecodingFailure:
    """The value of a part that failed to decode while the others did."""

    code: str
    message: str


class XMLDocument:
    """An XML document (libxml2's tree, kept by libsatchel) to query with XPath."""

    def __init__(self, handle: int, owner: "ValueOwner") -> None:
        self._handle = handle
        self._owner = owner  # keeps the decoded value alive

    def xpath(self, expression: str, namespaces: Optional[Dict[str, str]] = None) -> List[Any]:
        """The nodes ``expression`` selects: elements as dicts, text and attributes as strings.

        Raises:
            SatchelError: ``syntaxError`` for a bad expression, ``typeMismatch`` for one that
            does not select nodes.
        """
        pairs: List[Optional[bytes]] = []
        for prefix, uri in (namespaces or {}).items():
            pairs += [prefix.encode(), uri.encode()]
        array = (ctypes.c_char_p * (len(pairs) + 1))(*pairs, None)
        nodes = Handle()
        encoded = expression.encode()
        check(lib.satchel_value_xml_query(ctypes.byref(nodes), self._handle, encoded, len(encoded), array), "xpath")
        with ValueOwner(_ffi.address(nodes)) as owner:
            selected: List[Any] = owner.python()
            return selected

    @property
    def canonical(self) -> Any:
        """The document in its canonical form (``{"children": [...]}``, Sources/Satchel/Satchel.docc/RegistryAndSerializers.md)."""
        import json

        return json.loads(to_json(self._handle))["$xml"]


def to_json(handle: int, flags: int = 0) -> str:
    """A value's canonical JSON text."""
    text = ctypes.c_void_p()
    length = ctypes.c_size_t()
    check(lib.satchel_value_to_json(ctypes.byref(text), ctypes.byref(length), handle, flags), "to_json")
    try:
        return _ffi.bytes_at(text.value, length.value).decode("utf-8")
    finally:
        lib.satchel_free(text)


class ValueOwner:
    """Owns a value handle and frees it, unless a payload (an XML document) still needs it."""

    def __init__(self, handle: Optional[int]) -> None:
        self.handle = handle
        self.keep = False

    def __enter__(self) -> "ValueOwner":
        return self

    def __exit__(self, *exc: Any) -> None:
        if not self.keep:
            self.free()

    def free(self) -> None:
        if self.handle:
            lib.satchel_value_free(self.handle)
            self.handle = None

    def __del__(self) -> None:
        self.free()

    def python(self) -> Any:
        """The whole value as Python objects (in one native call when the package has its
        extension, else through ctypes)."""
        if not self.handle:
            return None
        if _ffi.native is not None:
            return _ffi.native.python(self.handle, payload)
        return _convert(self.handle, self)


def payload(handle: int) -> Any:
    """A payload the native walk met (an image, an XML document, parts, an HTTP message, a part
    error), borrowed for the call: read from a copy of its own, which an XML document keeps."""
    copy = Handle()
    check(lib.satchel_value_copy(ctypes.byref(copy), handle), "copy")
    with ValueOwner(_ffi.address(copy)) as owner:
        return _convert(_ffi.address(copy), owner)


def _string(handle: int, getter: Any) -> bytes:
    pointer = ctypes.c_void_p()
    length = ctypes.c_size_t()
    check(getter(ctypes.byref(pointer), ctypes.byref(length), handle), "get")
    return _ffi.bytes_at(pointer.value, length.value)


def _headers(getter: Any, handle: int, *index: int, count: int) -> List[Tuple[str, str]]:
    headers = []
    for header in range(count):
        name, name_length = ctypes.c_void_p(), ctypes.c_size_t()
        value, value_length = ctypes.c_void_p(), ctypes.c_size_t()
        check(getter(ctypes.byref(name), ctypes.byref(name_length), ctypes.byref(value), ctypes.byref(value_length),
                     handle, *index, header), "header")
        headers.append((_ffi.text(name.value, name_length.value) or "", _ffi.text(value.value, value_length.value) or ""))
    return headers


def _member(handle: int, owner: ValueOwner) -> Any:
    """A part's or an embedded message's value: in one native call when the package has its
    extension (the value lives as long as `owner`'s, which holds the payload)."""
    if _ffi.native is not None:
        return _ffi.native.python(handle, payload)
    return _convert(handle, owner)


def _convert(handle: int, owner: ValueOwner) -> Any:
    kind = lib.satchel_value_type(handle)
    if kind == 1:
        return None
    if kind == 2:
        flag = ctypes.c_int()
        check(lib.satchel_value_get_bool(ctypes.byref(flag), handle), "get_bool")
        return bool(flag.value)
    if kind == 3:
        signed = ctypes.c_int64()
        if lib.satchel_value_get_int64(ctypes.byref(signed), handle) == 0:
            return signed.value
        unsigned = ctypes.c_uint64()
        check(lib.satchel_value_get_uint64(ctypes.byref(unsigned), handle), "get_uint64")
        return unsigned.value
    if kind == 4:
        number = ctypes.c_double()
        check(lib.satchel_value_get_double(ctypes.byref(number), handle), "get_double")
        return number.value
    if kind == 5:
        return _string(handle, lib.satchel_value_get_string).decode("utf-8")
    if kind == 6:
        return _string(handle, lib.satchel_value_get_bytes)
    if kind == 7:
        seconds = ctypes.c_double()
        check(lib.satchel_value_get_date(ctypes.byref(seconds), handle), "get_date")
        return datetime.datetime.fromtimestamp(seconds.value, tz=datetime.timezone.utc)
    if kind in (8, 9, 12):
        count = ctypes.c_size_t()
        check(lib.satchel_value_count(ctypes.byref(count), handle), "count")
        if kind == 8:
            element = Handle()
            items = []
            for index in range(count.value):
                check(lib.satchel_value_array_get(ctypes.byref(element), handle, index), "array_get")
                items.append(_convert(_ffi.address(element), owner))
            return items
        if kind == 9:
            result = {}
            for index in range(count.value):
                key, key_length, member = ctypes.c_void_p(), ctypes.c_size_t(), Handle()
                check(lib.satchel_value_object_entry(ctypes.byref(key), ctypes.byref(key_length), ctypes.byref(member),
                                                     handle, index), "object_entry")
                result[_ffi.text(key.value, key_length.value) or ""] = _convert(_ffi.address(member), owner)
            return result
        parts = []
        for index in range(count.value):
            info = _ffi.structure(_ffi.PartInfo)
            check(lib.satchel_value_part(ctypes.byref(info), handle, index), "part")
            parts.append(Part(
                name=_ffi.text(info.name, info.name_length), filename=_ffi.text(info.filename, info.filename_length),
                content_type=_ffi.text(info.content_type, info.content_type_length),
                headers=_headers(lib.satchel_value_part_header_at, handle, index, count=info.header_count),
                size=info.size, value=_member(info.value, owner)))
        return parts
    if kind == 10:
        owner.keep = True
        return XMLDocument(handle, owner)
    if kind == 11:
        info = _ffi.structure(_ffi.ImageInfo)
        check(lib.satchel_value_image_info(ctypes.byref(info), handle), "image_info")
        return Image(
            format=info.format.decode(), width=info.width, height=info.height, channels=info.channels,
            bit_depth=info.bit_depth, row_stride=info.row_stride, color_type=info.color_type.decode(),
            orientation=info.orientation, interlaced=bool(info.interlaced), progressive=bool(info.progressive),
            has_icc_profile=bool(info.has_icc_profile), pixels=_string(handle, lib.satchel_value_image_pixels))
    if kind == 13:
        info = _ffi.structure(_ffi.HTTPInfo)
        check(lib.satchel_value_http_info(ctypes.byref(info), handle), "http_info")
        return HTTPMessage(status=info.status,
                           headers=_headers(lib.satchel_value_http_header_at, handle, count=info.header_count),
                           value=_member(info.value, owner) if info.value else None)
    if kind == 14:
        status, message = ctypes.c_int(), ctypes.c_char_p()
        check(lib.satchel_value_error(ctypes.byref(status), ctypes.byref(message), handle), "error")
        from .errors import CODES

        return DecodingFailure(code=CODES.get(status.value, str(status.value)), message=(message.value or b"").decode())
    import json

    return json.loads(to_json(handle))  # another payload, in its canonical form


def build(value: Any) -> int:
    """A new value handle (owned by the caller) holding ``value``.

    Raises:
        TypeError: for a Python type with no Satchel form.
        OverflowError: for an integer outside int64 and uint64.
    """
    out = Handle()
    if value is None:
        check(lib.satchel_value_create_null(ctypes.byref(out)), "create_null")
    elif isinstance(value, bool):
        check(lib.satchel_value_create_bool(ctypes.byref(out), int(value)), "create_bool")
    elif isinstance(value, int):
        if -(1 << 63) <= value < (1 << 63):
            check(lib.satchel_value_create_int64(ctypes.byref(out), value), "create_int64")
        elif 0 <= value < (1 << 64):
            check(lib.satchel_value_create_uint64(ctypes.byref(out), value), "create_uint64")
        else:
            raise OverflowError(f"satchel: {value} does not fit 64 bits")
    elif isinstance(value, float):
        check(lib.satchel_value_create_double(ctypes.byref(out), value), "create_double")
    elif isinstance(value, str):
        encoded = value.encode("utf-8")
        check(lib.satchel_value_create_string(ctypes.byref(out), encoded, len(encoded)), "create_string")
    elif isinstance(value, (bytes, bytearray, memoryview)):
        data = bytes(value)
        check(lib.satchel_value_create_bytes(ctypes.byref(out), data, len(data)), "create_bytes")
    elif isinstance(value, datetime.datetime):
        moment = value if value.tzinfo else value.replace(tzinfo=datetime.timezone.utc)
        check(lib.satchel_value_create_date(ctypes.byref(out), moment.timestamp()), "create_date")
    elif isinstance(value, dict):
        check(lib.satchel_value_create_object(ctypes.byref(out)), "create_object")
        try:
            for key, member in value.items():
                if not isinstance(key, str):
                    raise TypeError(f"satchel: object keys are strings, not {type(key).__name__}")
                encoded = key.encode("utf-8")
                check(lib.satchel_value_object_set(out, encoded, len(encoded), build(member)), "object_set")
        except BaseException:
            lib.satchel_value_free(out)
            raise
    elif isinstance(value, (list, tuple)):
        check(lib.satchel_value_create_array(ctypes.byref(out)), "create_array")
        try:
            for element in value:
                check(lib.satchel_value_array_append(out, build(element)), "array_append")
        except BaseException:
            lib.satchel_value_free(out)
            raise
    else:
        raise TypeError(f"satchel: a {type(value).__name__} has no Satchel value")
    return _ffi.address(out)


