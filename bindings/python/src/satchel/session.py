"""HTTP through libsatchel's sessions (libcurl): requests with parameters encoded by the
registry, responses decoded by it, progress and cancellation."""
from __future__ import annotations

import ctypes
import os
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Tuple, Union

from . import _ffi
from ._ffi import Handle, check, lib
from .errors import SatchelError
from .multipart import MultipartBody
from .values import ValueOwner, build

#: Called with (uploaded, upload total, downloaded, download total) bytes, totals -1 when
#: unknown; return a true value to cancel the transfer.
Progress = Callable[[int, int, int, int], Any]


@dataclass(frozen=True)
class Response:
    """A response: status, headers as received, the raw body and its decoded value."""

    status: int
    headers: List[Tuple[str, str]]
    body: bytes = field(repr=False)
    value: Any = field(repr=False)

    def header(self, name: str) -> Optional[str]:
        """The first field named ``name`` (any case), or ``None``."""
        lowered = name.lower()
        return next((value for key, value in self.headers if key.lower() == lowered), None)


class Session:
    """A libcurl session with its own connection cache, decoding through a :class:`Registry`.

    Args:
        base_url: relative URLs resolve against it.
        registry: the serializers (a default one when ``None``).
        timeout: seconds for the whole transfer; ``connect_timeout`` for the connection.
        headers: sent with every request.
        max_redirects, retries: as libsatchel's defaults (16, 2) when ``None``.
        ca_file, pins: trust only that CA file; require one of these public-key pins
            (``"sha256//…"``).

    Errors are :class:`SatchelError`: transport failures (``cannotConnect``, ``timedOut``,
    ``cancelled``, …) and a status outside 200–299 (``unacceptableStatusCode``, with
    ``.response`` set), unless ``check_status=False``.
    """

    def __init__(self, base_url: Optional[str] = None, registry: Any = None, *, timeout: Optional[float] = None,
                 connect_timeout: Optional[float] = None, headers: Optional[Dict[str, str]] = None,
                 max_redirects: Optional[int] = None, retries: Optional[int] = None, ca_file: Optional[str] = None,
                 pins: Tuple[str, ...] = ()) -> None:
        self._registry = registry  # keeps the Python object (and its handle) alive
        handle = Handle()
        base = base_url.encode() if base_url is not None else None
        check(lib.satchel_session_create(ctypes.byref(handle), base, len(base) if base else 0,
                                         registry._handle if registry is not None else None), "session_create")
        self._handle: Optional[int] = handle.value
        if timeout is not None:
            check(lib.satchel_session_set_timeout(self._handle, 2, int(timeout * 1000)), "set_timeout")
        if connect_timeout is not None:
            check(lib.satchel_session_set_timeout(self._handle, 1, int(connect_timeout * 1000)), "set_timeout")
        for name, value in (headers or {}).items():
            n, v = name.encode(), value.encode()
            check(lib.satchel_session_set_header(self._handle, n, len(n), v, len(v)), "set_header")
        if max_redirects is not None:
            check(lib.satchel_session_set_max_redirects(self._handle, max_redirects), "set_max_redirects")
        if retries is not None:
            check(lib.satchel_session_set_retries(self._handle, retries), "set_retries")
        if ca_file is not None:
            check(lib.satchel_session_set_ca_file(self._handle, os.fsencode(ca_file)), "set_ca_file")
        for pin in pins:
            encoded = pin.encode()
            check(lib.satchel_session_add_pinned_public_key(self._handle, encoded, len(encoded)), "add_pin")

    def close(self) -> None:
        """Cancels what is in flight and releases the session."""
        if getattr(self, "_handle", None):
            lib.satchel_session_free(self._handle)
            self._handle = None

    def __enter__(self) -> "Session":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()

    def request(self, method: str, url: str, *, params: Any = None, as_: str = "json",
                body: Union[bytes, MultipartBody, None] = None, content_type: Optional[str] = None,
                headers: Optional[Dict[str, str]] = None, progress: Optional[Progress] = None,
                check_status: bool = True) -> Response:
        """Sends a request and waits for its response.

        Args:
            params: parameters encoded by the request serializer ``as_`` names (in the query for
                GET, HEAD and DELETE, as AFNetworking does).
            body: raw bytes (with ``content_type``) or a :class:`MultipartBody` (streamed; the
                session takes it over).
            progress: see :data:`Progress`; a true return value cancels.
        """
        from . import FORMATS

        if not self._handle:
            raise ValueError("satchel: the session is closed")
        request = Handle()
        m, u = method.encode(), url.encode()
        check(lib.satchel_request_create(ctypes.byref(request), m, len(m), u, len(u)), "request_create")
        callback = None
        try:
            for name, value in (headers or {}).items():
                n, v = name.encode(), value.encode()
                check(lib.satchel_request_add_header(request, n, len(n), v, len(v)), "add_header")
            if params is not None:
                value = build(params)
                media = FORMATS.get(as_, as_).encode()
                try:
                    check(lib.satchel_request_set_parameters(request, value, media, len(media)), "set_parameters")
                finally:
                    lib.satchel_value_free(value)
            if isinstance(body, MultipartBody):
                handle = body._live()
                check(lib.satchel_request_set_body_multipart(request, handle), "set_body_multipart")
                body._handle = None  # taken by the request
            elif body is not None:
                data = bytes(body)
                t = content_type.encode() if content_type is not None else None
                check(lib.satchel_request_set_body(request, data, len(data), t, len(t) if t else 0), "set_body")
            if progress is not None:
                def on_progress(_: Any, uploaded: int, upload_total: int, downloaded: int, download_total: int) -> int:
                    try:
                        return 1 if progress(uploaded, upload_total, downloaded, download_total) else 0
                    except BaseException:  # an exception cannot cross C: it cancels
                        return 1
                callback = _ffi.PROGRESS(on_progress)
                check(lib.satchel_request_set_progress(request, callback, None), "set_progress")
            out = Handle()
            status = lib.satchel_session_send(ctypes.byref(out), self._handle, request)
            response = _response(out.value) if out.value else None
            if status != 0:
                if status == 8 and not check_status and response is not None:
                    return response
                error = SatchelError.from_status(status, lib.satchel_last_error_message().decode("utf-8", "replace"),
                                                 "send")
                error.response = response  # type: ignore[attr-defined]
                raise error
            assert response is not None
            return response
        finally:
            lib.satchel_request_free(request)
            del callback

    def get(self, url: str, **options: Any) -> Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> Response:
        return self.request("POST", url, **options)

    def put(self, url: str, **options: Any) -> Response:
        return self.request("PUT", url, **options)

    def delete(self, url: str, **options: Any) -> Response:
        return self.request("DELETE", url, **options)


def _response(handle: int) -> Response:
    """A Python response from a response handle, which it frees."""
    try:
        count = lib.satchel_response_header_count(handle)
        headers = []
        for index in range(count):
            name, name_length, value, value_length = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p(), ctypes.c_size_t()
            check(lib.satchel_response_header_at(ctypes.byref(name), ctypes.byref(name_length), ctypes.byref(value),
                                                 ctypes.byref(value_length), handle, index), "header_at")
            headers.append((_ffi.text(name.value, name_length.value) or "", _ffi.text(value.value, value_length.value) or ""))
        body, length = ctypes.c_void_p(), ctypes.c_size_t()
        check(lib.satchel_response_body(ctypes.byref(body), ctypes.byref(length), handle), "body")
        data = ctypes.string_at(body.value, length.value) if length.value else b""
        value = lib.satchel_response_value(handle)
        decoded = None
        if value:
            # A copy of its own: an XML document may outlive the response.
            copy = Handle()
            check(lib.satchel_value_copy(ctypes.byref(copy), value), "value_copy")
            with ValueOwner(copy.value) as owner:
                decoded = owner.python()
        return Response(lib.satchel_response_status(handle), headers, data, decoded)
    finally:
        lib.satchel_response_free(handle)
