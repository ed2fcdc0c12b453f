# SPDX-License-Identifier: Apache-2.0
"""Bodies decoded as they arrive: records of event streams, JSON Lines, JSON text sequences and
multipart bodies as each completes, the elements at a path of one large JSON or XML document, or
any other format's value at the end."""
from __future__ import annotations

import ctypes
import json
from typing import Any, Dict, Iterable, Iterator, List, Optional

from . import _ffi
from ._ffi import Handle, check, lib
from .errors import SatchelError
from .values import ValueOwner, build, payload, to_json

_NOT_FOUND = 10


class Reader:
    """Decodes a body fed in chunks of any size (``satchel_reader``), for a program with its own
    transport (sockets, another HTTP client, a file being written)::

        reader = satchel.Reader("text/event-stream")
        for chunk in response.iter_content(None):
            for event in reader.feed(chunk):      # {"event": ..., "data": ..., "id": ...}
                print(event["data"])
        reader.finish()

    For a record stream (``text/event-stream``, JSON Lines, ``application/json-seq``, any
    ``multipart/`` type) :meth:`feed` returns the records the chunk completed; for any other
    format :meth:`finish` returns the body's one value. A malformed record raises
    :class:`SatchelError` whose ``records`` attribute holds the records completed before it.

    With ``each``, the body is one large JSON or XML document and the records are its elements
    at that path, each as soon as its last byte is fed, in memory bounded by the largest element
    (what ``ijson.items`` does for JSON)::

        reader = satchel.Reader("application/json", each="/data/items")
        for chunk in chunks:
            for order in reader.feed(chunk):
                print(order["id"])
        reader.finish()
        print(reader.rest["next"])          # the envelope, the array left empty

    Args:
        content_type: the body's Content-Type; ``None`` reads the whole body and picks the
            serializer by its bytes at the end.
        registry: a :class:`satchel.Registry` (its limits: ``record_bytes``, ``records``);
            the default one when ``None``.
        each: a path of elements: for JSON a JSON Pointer to an array (``""`` for a top-level
            array, ``"/data/items"``), for XML an element path (``"/feed/entry"``, ``"//item"``,
            ``"a:entry"`` with ``namespaces``).
        namespaces: prefix → namespace URI for an XML path's prefixes.
    """

    def __init__(self, content_type: Optional[str], registry: Any = None, *, each: Optional[str] = None,
                 namespaces: Optional[Dict[str, str]] = None) -> None:
        from . import _registry

        self._registry = registry or _registry()  # the reader keeps its registry alive
        handle = Handle()
        encoded = content_type.encode() if content_type is not None else None
        if each is None:
            check(lib.satchel_reader_create(ctypes.byref(handle), self._registry._handle, encoded,
                                            len(encoded) if encoded else 0), "reader_create")
        else:
            path = each.encode()
            prefixes = build(namespaces) if namespaces else None
            try:
                check(lib.satchel_reader_create_each(ctypes.byref(handle), self._registry._handle, encoded,
                                                     len(encoded) if encoded else 0, path, len(path), prefixes),
                      "reader_create_each")
            finally:
                if prefixes is not None:
                    lib.satchel_value_free(prefixes)
        self._handle: Optional[int] = handle.value
        # A document's elements hold JSON types only (JSON's, and XML's canonical objects): one
        # call for each element's canonical text and Python's C parser beat a ctypes call per
        # value (scripts/bench-python).
        self._as_json = each is not None

    def __del__(self) -> None:
        if getattr(self, "_handle", None):
            lib.satchel_reader_free(self._handle)
            self._handle = None

    @property
    def rest(self) -> Any:
        """With ``each``, once :meth:`finish` has returned: the JSON document outside the
        elements, the array left empty (its ``next`` cursor, its totals); ``None`` before, for
        XML (nothing else is kept) and without ``each``."""
        out = Handle()
        status = lib.satchel_reader_rest(ctypes.byref(out), self._handle)
        if status == _NOT_FOUND:
            return None
        check(status, "reader_rest")
        with ValueOwner(out.value) as owner:
            return owner.python()

    @property
    def yields_records(self) -> bool:
        """Whether records come out as they complete (else one value at the end)."""
        return bool(lib.satchel_reader_yields_records(self._handle))

    def feed(self, chunk: bytes) -> List[Any]:
        """Feeds the next bytes; returns the records they completed, oldest first."""
        data = bytes(chunk)
        return self._step(lib.satchel_reader_feed(self._handle, data, len(data)), "reader_feed")

    def finish(self) -> List[Any]:
        """Ends the body; returns the records its end completed (a last line without its newline),
        or ``[value]`` for a whole-body format (``[]`` when the body carries none)."""
        return self._step(lib.satchel_reader_finish(self._handle), "reader_finish")

    def _step(self, status: int, what: str) -> List[Any]:
        message = lib.satchel_last_error_message().decode("utf-8", "replace") if status else ""
        records: List[Any] = []
        if _ffi.native is not None:
            # Every ready record in one native call: no ctypes call and no JSON text per record.
            taken, records = _ffi.native.records(self._handle, payload)
            check(taken, "reader_next")
        while _ffi.native is None:
            out = Handle()
            taken = lib.satchel_reader_next(ctypes.byref(out), self._handle)
            if taken == _NOT_FOUND:
                break
            check(taken, "reader_next")
            with ValueOwner(out.value) as owner:
                if self._as_json and out.value:
                    records.append(json.loads(to_json(out.value)))
                else:
                    records.append(owner.python())
        if status:
            error = SatchelError.from_status(status, message, what)
            error.records = records
            raise error
        return records


def records(chunks: Iterable[bytes], content_type: str, registry: Any = None, *, each: Optional[str] = None,
            namespaces: Optional[Dict[str, str]] = None) -> Iterator[Any]:
    """Yields the records of a body given as chunks, each as soon as it is complete; with
    ``each``, the elements at that path of one large JSON or XML document (see :class:`Reader`)::

        for line in satchel.records(sock_chunks, "application/x-ndjson"):
            ...
        with session.stream("GET", "/export") as body:
            for order in satchel.records(body, "application/json", each="/data/items"):
                ...
    """
    reader = Reader(content_type, registry, each=each, namespaces=namespaces)
    for chunk in chunks:
        yield from reader.feed(chunk)
    yield from reader.finish()
