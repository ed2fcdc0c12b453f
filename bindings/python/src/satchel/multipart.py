# SPDX-License-Identifier: Apache-2.0
"""A multipart/form-data body built by libsatchel and read in pieces, in constant memory."""
from __future__ import annotations

import ctypes
import os
from typing import Iterator, Optional, Union

from . import _ffi
from ._ffi import Handle, NTS, check, lib


class MultipartBody:
    """A ``multipart/form-data`` body: add fields, data and files, then iterate over it (an
    iterable of ``bytes``) or ``read()`` it like a file. ``len()`` is its exact length, known
    before the first byte, so ``requests`` and ``urllib3`` send it with a Content-Length and
    stream it::

        body = satchel.MultipartBody()
        body.add_field("title", "Holidays")
        body.add_file("photo", "beach.jpg")
        requests.post(url, data=body, headers={"Content-Type": body.content_type})

    Files are sized when added and read while the body is read; one that changes size in
    between fails the read with ``SatchelError`` (``io``).
    """

    def __init__(self, boundary: Optional[str] = None) -> None:
        handle = Handle()
        encoded = boundary.encode() if boundary is not None else None
        check(lib.satchel_multipart_create(ctypes.byref(handle), encoded, len(encoded) if encoded else 0),
              "multipart_create")
        self._handle: Optional[int] = handle.value
        self._started = False

    def __del__(self) -> None:
        self.close()

    def close(self) -> None:
        """Releases the builder (and the files it has open)."""
        if getattr(self, "_handle", None):
            lib.satchel_multipart_free(self._handle)
            self._handle = None

    def _live(self) -> int:
        if not self._handle:
            raise ValueError("satchel: the multipart body is closed")
        return self._handle

    def add_field(self, name: str, value: str) -> None:
        """Adds a text field."""
        n, v = name.encode("utf-8"), value.encode("utf-8")
        check(lib.satchel_multipart_add_field(self._live(), n, len(n), v, len(v)), "add_field")

    def add_data(self, name: str, data: bytes, filename: Optional[str] = None,
                 content_type: Optional[str] = None) -> None:
        """Adds a part holding ``data`` (copied); ``application/octet-stream`` unless said."""
        n = name.encode("utf-8")
        f = filename.encode("utf-8") if filename is not None else None
        t = content_type.encode() if content_type is not None else None
        check(lib.satchel_multipart_add_data(self._live(), n, len(n), bytes(data), len(data), f, len(f) if f else 0,
                                             t, len(t) if t else 0), "add_data")

    def add_file(self, name: str, path: Union[str, "os.PathLike[str]"], filename: Optional[str] = None,
                 content_type: Optional[str] = None) -> None:
        """Adds the file at ``path``, streamed when the body is read; the file name defaults to
        the path's last component and the type to the one its extension names."""
        n = name.encode("utf-8")
        f = filename.encode("utf-8") if filename is not None else None
        t = content_type.encode() if content_type is not None else None
        check(lib.satchel_multipart_add_file(self._live(), n, len(n), os.fsencode(path), f, len(f) if f else 0, t,
                                             len(t) if t else 0), "add_file")

    @property
    def content_type(self) -> str:
        """The Content-Type to send, with the boundary."""
        pointer, length = ctypes.c_void_p(), ctypes.c_size_t()
        check(lib.satchel_multipart_content_type(ctypes.byref(pointer), ctypes.byref(length), self._live()),
              "content_type")
        return _ffi.bytes_at(pointer.value, length.value).decode()

    def __len__(self) -> int:
        length = ctypes.c_int64()
        check(lib.satchel_multipart_content_length(ctypes.byref(length), self._live()), "content_length")
        if length.value < 0:
            raise TypeError("satchel: the body's length is unknown")
        return length.value

    def read(self, size: int = -1) -> bytes:
        """The next bytes of the body (up to ``size``; all that is left for a negative size);
        ``b""`` at the end. The first read freezes the builder."""
        self._started = True
        if size is None or size < 0:
            return b"".join(iter(lambda: self.read(1 << 16), b""))
        if size == 0:
            return b""
        buffer = ctypes.create_string_buffer(size)
        count = ctypes.c_size_t()
        check(lib.satchel_multipart_read(ctypes.byref(count), self._live(), buffer, size), "multipart_read")
        return buffer.raw[: count.value]

    def __iter__(self) -> Iterator[bytes]:
        """The body in 64 KiB pieces, from its first byte (rewinding when it was read before)."""
        if self._started:
            check(lib.satchel_multipart_rewind(self._live()), "multipart_rewind")
        while True:
            piece = self.read(1 << 16)
            if not piece:
                return
            yield piece
