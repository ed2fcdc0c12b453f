# SPDX-License-Identifier: Apache-2.0
"""HTTP through libsatchel's sessions (libcurl): requests with parameters encoded by the
registry, responses decoded by it, downloads that resume, bodies streamed with backpressure,
progress, cancellation and events."""
from __future__ import annotations

import collections
import ctypes
import os
import threading
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
class Metrics:
    """What a transfer cost: times in milliseconds from the start of the attempt, bytes on the
    wire, redirects and retries (libsatchel's ``satchel_metrics``)."""

    name_lookup_ms: float = 0.0
    connect_ms: float = 0.0
    tls_handshake_ms: float = 0.0
    first_byte_ms: float = 0.0
    total_ms: float = 0.0
    elapsed_ms: float = 0.0
    bytes_sent: int = 0
    bytes_received: int = 0
    redirect_count: int = 0
    retry_count: int = 0
    reused_connection: bool = False
    http_version: str = ""

    @classmethod
    def _from(cls, metrics: "_ffi.Metrics") -> "Metrics":
        return cls(metrics.name_lookup_ms, metrics.connect_ms, metrics.tls_handshake_ms, metrics.first_byte_ms,
                   metrics.total_ms, metrics.elapsed_ms, metrics.bytes_sent, metrics.bytes_received,
                   metrics.redirect_count, metrics.retry_count, bool(metrics.reused_connection),
                   (metrics.http_version or b"").decode())


@dataclass(frozen=True)
class Response:
    """A response: status, headers as received, the raw body and its decoded value, and what
    the transfer cost."""

    status: int
    headers: List[Tuple[str, str]]
    body: bytes = field(repr=False)
    value: Any = field(repr=False)
    metrics: Metrics = field(default_factory=Metrics, repr=False)
    #: Where the response came from with a ``Session(cache=…)``: ``"hit"``, ``"miss"``,
    #: ``"revalidated"``, ``"stored"`` or ``"not-stored (reason)"``; ``None`` without a cache.
    cache: Optional[str] = None

    def header(self, name: str) -> Optional[str]:
        """The first field named ``name`` (any case), or ``None``."""
        lowered = name.lower()
        return next((value for key, value in self.headers if key.lower() == lowered), None)


@dataclass(frozen=True)
class Download:
    """What :meth:`Session.download` saved: the response head, the file, its size and how many
    of its bytes were already on disk (0 when the download started from the beginning)."""

    response: Response
    path: str
    size: int
    resumed_from: int


#: Cache policies, as ``satchel_cache_policy``.
CACHE_POLICIES = {"protocol": 1, "reload": 2, "prefer-cache": 3, "only-cache": 4, "revalidate": 5}
#: Cache outcomes, as ``satchel_cache_outcome`` (0, not used, is ``None``).
CACHE_OUTCOMES = {1: "hit", 2: "miss", 3: "revalidated", 4: "stored", 5: "not-stored"}

#: Event kinds, as ``satchel_event_kind``.
EVENT_KINDS = {1: "start", 2: "redirect", 3: "retry", 4: "metrics", 5: "complete", 6: "warning"}


@dataclass(frozen=True)
class Event:
    """What happened to a request (``Session(on_event=…)``): ``kind`` is ``"start"``,
    ``"redirect"`` (``status``, ``location``), ``"retry"`` (``retry``, ``delay``, ``error``),
    ``"metrics"`` (``metrics``) or ``"complete"`` (``status``, 0 when no response; ``error``)."""

    kind: str
    method: str
    url: str
    location: Optional[str] = None
    status: int = 0
    retry: int = 0
    delay: float = 0.0
    error: Optional[SatchelError] = None
    metrics: Optional[Metrics] = None


class Session:
    """A libcurl session with its own connection cache, decoding through a :class:`Registry`.

    Args:
        base_url: relative URLs resolve against it.
        registry: the serializers (a default one when ``None``).
        timeout: seconds for the whole transfer; ``connect_timeout`` for the connection.
        headers: sent with every request.
        max_redirects, retries: as libsatchel's defaults (16 redirects, no retries) when ``None``.
        ca_file, pins: trust only that CA file; require one of these public-key pins
            (``"sha256//…"``).
        on_event: called with each :class:`Event` of every request, on a library thread; an
            exception it raises is ignored (it cannot cross C). A ``"warning"`` event concerns
            no request (a cookie jar that could not be read or written).
        bearer_token: sent as ``Authorization: Bearer …`` with every request.
        refresh_token: called (on a library thread, without arguments) for a new token before
            the first request when there is none, and when a response is 401 -- once for all
            the requests refused with the same token; it returns the token, and an exception
            it raises fails those requests (``invalidArgument``).
        cookie_jar: keep the cookies also in this cookie file (curl's format, mode 0600).
        proxy: a proxy URL (``http://``, ``https://``, ``socks5h://``, …), ``""`` for none; the
            environment's (``http_proxy``, …) when ``None``. ``proxy_user`` ``(user, password)``,
            ``noproxy`` the hosts that bypass it, ``proxy_ca_file`` for an ``https://`` proxy.
        http_version: ``"2"`` (HTTP/2 over TLS when offered, the default), ``"1.1"``, or
            ``"h2c"`` (HTTP/2 with prior knowledge).
        unix_socket: send every request through this unix domain socket instead of TCP.
        client_certificate: ``(certificate_path, key_path_or_None)`` presented to TLS servers
            that ask; ``passphrase`` for its key, ``certificate_type`` ``"PEM"``, ``"DER"`` or ``"P12"``.
        resolve, connect_to: curl's ``--resolve`` (``"host:port:address"``) and ``--connect-to``
            (``"host:port:target_host:target_port"``) overrides.
        rate_limit: ``(upload, download)`` bytes per second, ``0`` or ``None`` for no limit.
        max_connections_per_host: the most connections open to one host at once.
        cache: keep responses in this directory (a private HTTP cache, RFC 9111: fresh ones
            served from it, stale ones validated); ``cache_size`` bounds it in bytes (256 MiB by
            default). A request's ``cache_policy`` is ``"protocol"`` (the default), ``"reload"``,
            ``"prefer-cache"``, ``"only-cache"`` or ``"revalidate"``; :attr:`Response.cache` says
            where its response came from.

    Errors are :class:`SatchelError`: transport failures (``cannotConnect``, ``timedOut``,
    ``cancelled``, …) and a status outside 200–299 (``unacceptableStatusCode``, with
    ``.response`` set), unless ``check_status=False``.
    """

    def __init__(self, base_url: Optional[str] = None, registry: Any = None, *, timeout: Optional[float] = None,
                 connect_timeout: Optional[float] = None, headers: Optional[Dict[str, str]] = None,
                 max_redirects: Optional[int] = None, retries: Optional[int] = None, ca_file: Optional[str] = None,
                 pins: Tuple[str, ...] = (), on_event: Optional[Callable[[Event], Any]] = None,
                 bearer_token: Optional[str] = None, refresh_token: Optional[Callable[[], str]] = None,
                 cookie_jar: Optional[Union[str, "os.PathLike[str]"]] = None, proxy: Optional[str] = None,
                 proxy_user: Optional[Tuple[str, str]] = None, noproxy: Tuple[str, ...] = (),
                 proxy_ca_file: Optional[str] = None, http_version: Optional[str] = None,
                 unix_socket: Optional[str] = None, client_certificate: Optional[Tuple[str, Optional[str]]] = None,
                 passphrase: Optional[str] = None, certificate_type: str = "PEM", resolve: Tuple[str, ...] = (),
                 connect_to: Tuple[str, ...] = (), rate_limit: Optional[Tuple[Optional[int], Optional[int]]] = None,
                 max_connections_per_host: Optional[int] = None,
                 cache: Union[str, "os.PathLike[str]", None] = None, cache_size: int = 0) -> None:
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
        self._on_event = None
        if on_event is not None:
            def relay(_: Any, event: Any) -> None:
                try:
                    on_event(_event(event.contents))
                except BaseException:  # an exception cannot cross C
                    pass
            self._on_event = _ffi.EVENT(relay)  # kept alive as long as the session
            check(lib.satchel_session_set_event_callback(self._handle, self._on_event, None), "set_event_callback")
        if bearer_token is not None:
            token = bearer_token.encode()
            check(lib.satchel_session_set_bearer_token(self._handle, token, len(token)), "set_bearer_token")
        self._refresh = None
        if refresh_token is not None:
            def refresh(_: Any, out_token: Any) -> int:
                try:
                    out_token[0] = _ffi.malloc_string(refresh_token().encode())
                    return 0
                except BaseException:  # an exception cannot cross C: the refresh fails
                    return 1
            self._refresh = _ffi.TOKEN_REFRESH(refresh)  # kept alive as long as the session
            check(lib.satchel_session_set_token_refresh(self._handle, self._refresh, None), "set_token_refresh")
        if cookie_jar is not None:
            check(lib.satchel_session_set_cookie_jar(self._handle, os.fsencode(cookie_jar)), "set_cookie_jar")
        self._configure_transport(proxy, proxy_user, noproxy, proxy_ca_file, http_version, unix_socket,
                                  client_certificate, passphrase, certificate_type, resolve, connect_to, rate_limit,
                                  max_connections_per_host)
        if cache is not None:
            created = Handle()
            check(lib.satchel_cache_create(ctypes.byref(created), os.fsencode(cache), cache_size), "cache_create")
            try:
                check(lib.satchel_session_set_cache(self._handle, created.value), "set_cache")
            finally:
                lib.satchel_cache_free(created.value)  # the session keeps its own reference

    def _configure_transport(self, proxy: Optional[str], proxy_user: Optional[Tuple[str, str]],
                             noproxy: Tuple[str, ...], proxy_ca_file: Optional[str], http_version: Optional[str],
                             unix_socket: Optional[str], client_certificate: Optional[Tuple[str, Optional[str]]],
                             passphrase: Optional[str], certificate_type: str, resolve: Tuple[str, ...],
                             connect_to: Tuple[str, ...], rate_limit: Optional[Tuple[Optional[int], Optional[int]]],
                             max_connections_per_host: Optional[int]) -> None:
        """Applies the proxy, HTTP version, socket, certificate, override and limit options."""
        handle = self._handle
        if proxy is not None:
            encoded = proxy.encode()
            check(lib.satchel_session_set_proxy(handle, encoded, len(encoded)), "set_proxy")
        if proxy_user is not None:
            user, password = (part.encode() for part in proxy_user)
            check(lib.satchel_session_set_proxy_credential(handle, user, len(user), password, len(password), 1),
                  "set_proxy_credential")
        if noproxy:
            hosts = ",".join(noproxy).encode()
            check(lib.satchel_session_set_noproxy(handle, hosts, len(hosts)), "set_noproxy")
        if proxy_ca_file is not None:
            check(lib.satchel_session_set_proxy_ca_file(handle, os.fsencode(proxy_ca_file)), "set_proxy_ca_file")
        if http_version is not None:
            versions = {"1.1": 1, "2": 2, "h2c": 3}
            if http_version not in versions:
                raise SatchelError(1, f"http_version {http_version!r} is not '1.1', '2' or 'h2c'")
            check(lib.satchel_session_set_http_version(handle, versions[http_version]), "set_http_version")
        if unix_socket is not None:
            check(lib.satchel_session_set_unix_socket(handle, os.fsencode(unix_socket)), "set_unix_socket")
        if client_certificate is not None:
            types = {"PEM": 1, "DER": 2, "P12": 3}
            if certificate_type not in types:
                raise SatchelError(1, f"certificate_type {certificate_type!r} is not PEM, DER or P12")
            certificate, key = client_certificate
            check(lib.satchel_session_set_client_certificate(
                handle, None, 0, os.fsencode(certificate), os.fsencode(key) if key is not None else None,
                passphrase.encode() if passphrase is not None else None, types[certificate_type]),
                "set_client_certificate")
        for flag, overrides in ((0, resolve), (1, connect_to)):
            for text in overrides:
                encoded = text.encode()
                check(lib.satchel_session_add_host_override(handle, encoded, len(encoded), flag), "add_host_override")
        if rate_limit is not None:
            upload, download = rate_limit
            check(lib.satchel_session_set_rate_limit(handle, upload or 0, download or 0), "set_rate_limit")
        if max_connections_per_host is not None:
            check(lib.satchel_session_set_connection(handle, 1, max_connections_per_host), "set_connection")

    def cookies(self, url: Optional[str] = None) -> List[Dict[str, Any]]:
        """The cookies the session holds (those a request to ``url`` would carry, if given), each a
        dict: name, value, domain, path, subdomains, secure, http_only, and expires (seconds since
        1970) and same_site when they apply."""
        out = Handle()
        encoded = url.encode() if url is not None else None
        check(lib.satchel_session_cookies(ctypes.byref(out), self._handle, encoded,
                                          len(encoded) if encoded else 0), "cookies")
        with ValueOwner(out.value) as owner:
            cookies: List[Dict[str, Any]] = owner.python()
            return cookies

    def set_cookie(self, name: str, value: str, domain: str, **attributes: Any) -> None:
        """Adds or replaces a cookie; ``attributes`` as :meth:`cookies` lists them (path, subdomains,
        secure, http_only, expires, same_site)."""
        handle = build({"name": name, "value": value, "domain": domain, **attributes})
        try:
            check(lib.satchel_session_set_cookie(self._handle, handle), "set_cookie")
        finally:
            lib.satchel_value_free(handle)

    def clear_cookies(self, domain: Optional[str] = None) -> None:
        """Removes the cookies of ``domain``, or all of them."""
        encoded = domain.encode() if domain is not None else None
        check(lib.satchel_session_clear_cookies(self._handle, encoded, len(encoded) if encoded else 0), "clear_cookies")

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
                check_status: bool = True, cache_policy: Optional[str] = None) -> Response:
        """Sends a request and waits for its response.

        Args:
            params: parameters encoded by the request serializer ``as_`` names (in the query for
                GET, HEAD and DELETE, as AFNetworking does).
            body: raw bytes (with ``content_type``) or a :class:`MultipartBody` (streamed; the
                session takes it over).
            progress: see :data:`Progress`; a true return value cancels.
            cache_policy: how the request uses the session's cache (see :class:`Session`).
        """
        with _Request(self, method, url, params, as_, body, content_type, headers, progress) as request:
            if cache_policy is not None:
                if cache_policy not in CACHE_POLICIES:
                    raise ValueError(f"satchel: cache_policy {cache_policy!r} is not one of {', '.join(CACHE_POLICIES)}")
                check(lib.satchel_request_set_cache_policy(request.handle, CACHE_POLICIES[cache_policy]),
                      "set_cache_policy")
            response, _ = request.send(check_status)
            return response

    def download(self, url: str, to: Union[str, "os.PathLike[str]"], *, resume: bool = True, sync: bool = True,
                 params: Any = None, headers: Optional[Dict[str, str]] = None,
                 progress: Optional[Progress] = None) -> Download:
        """GETs ``url`` into the file ``to``, safely: the bytes go to ``to.part``, renamed to
        ``to`` only once complete. With ``resume``, a partial file left by an interrupted
        download (error, cancel, crash) is continued with a ``Range`` request, as
        AFNetworking's resume data does; a status outside 200–299 saves nothing. With ``sync``
        (the default) the file is flushed to the disk before the rename and its folder after,
        so a finished download survives a power loss; ``sync=False`` skips both."""
        path = os.fspath(to)
        flags = (_ffi.DOWNLOAD_RESUME if resume else 0) | (0 if sync else _ffi.DOWNLOAD_NO_SYNC)
        with _Request(self, "GET", url, params, "form", None, None, headers, progress) as request:
            check(lib.satchel_request_set_destination(request.handle, os.fsencode(path), flags), "set_destination")
            response, handle_info = request.send(True)
        size, resumed = handle_info or (0, 0)
        return Download(response, path, size, resumed)

    def stream(self, method: str, url: str, *, params: Any = None, as_: str = "json",
               body: Union[bytes, MultipartBody, None] = None, content_type: Optional[str] = None,
               headers: Optional[Dict[str, str]] = None, buffered_chunks: int = 16) -> "BodyStream":
        """Sends a request and returns its body as an iterator of ``bytes`` chunks as they
        arrive, never held whole. When the consumer falls ``buffered_chunks`` behind, the
        transfer pauses (libsatchel's data callback returns ``SATCHEL_DATA_PAUSE``) until it
        catches up. Use it as a context manager, or call :meth:`BodyStream.close` to cancel."""
        return BodyStream(_Request(self, method, url, params, as_, body, content_type, headers, None), buffered_chunks)

    def get(self, url: str, **options: Any) -> Response:
        return self.request("GET", url, **options)

    def post(self, url: str, **options: Any) -> Response:
        return self.request("POST", url, **options)

    def put(self, url: str, **options: Any) -> Response:
        return self.request("PUT", url, **options)

    def delete(self, url: str, **options: Any) -> Response:
        return self.request("DELETE", url, **options)


class _Request:
    """A ``satchel_request`` being prepared and sent, with the callbacks it needs kept alive."""

    def __init__(self, session: Session, method: str, url: str, params: Any, as_: str,
                 body: Union[bytes, MultipartBody, None], content_type: Optional[str],
                 headers: Optional[Dict[str, str]], progress: Optional[Progress]) -> None:
        from . import FORMATS

        if not session._handle:
            raise ValueError("satchel: the session is closed")
        self.session = session
        self.callbacks: List[Any] = []
        request = Handle()
        m, u = method.encode(), url.encode()
        check(lib.satchel_request_create(ctypes.byref(request), m, len(m), u, len(u)), "request_create")
        self.handle: Optional[int] = request.value
        try:
            for name, value in (headers or {}).items():
                n, v = name.encode(), value.encode()
                check(lib.satchel_request_add_header(self.handle, n, len(n), v, len(v)), "add_header")
            if params is not None:
                built = build(params)
                media = FORMATS.get(as_, as_).encode()
                try:
                    check(lib.satchel_request_set_parameters(self.handle, built, media, len(media)), "set_parameters")
                finally:
                    lib.satchel_value_free(built)
            if isinstance(body, MultipartBody):
                check(lib.satchel_request_set_body_multipart(self.handle, body._live()), "set_body_multipart")
                body._handle = None  # taken by the request
            elif body is not None:
                data = bytes(body)
                t = content_type.encode() if content_type is not None else None
                check(lib.satchel_request_set_body(self.handle, data, len(data), t, len(t) if t else 0), "set_body")
            if progress is not None:
                def on_progress(_: Any, uploaded: int, upload_total: int, downloaded: int, download_total: int) -> int:
                    try:
                        return 1 if progress(uploaded, upload_total, downloaded, download_total) else 0
                    except BaseException:  # an exception cannot cross C: it cancels
                        return 1
                self.keep(_ffi.PROGRESS(on_progress))
                check(lib.satchel_request_set_progress(self.handle, self.callbacks[-1], None), "set_progress")
        except BaseException:
            self.close()
            raise

    def keep(self, callback: Any) -> Any:
        """Keeps a ctypes callback alive as long as the request."""
        self.callbacks.append(callback)
        return callback

    def send(self, check_status: bool) -> Tuple[Response, Optional[Tuple[int, int]]]:
        """Sends synchronously: the response, and what a download saved."""
        out = Handle()
        status = lib.satchel_session_send(ctypes.byref(out), self.session._handle, self.handle)
        return _outcome(status, out.value, check_status)

    def close(self) -> None:
        if self.handle:
            lib.satchel_request_free(self.handle)
            self.handle = None

    def __enter__(self) -> "_Request":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


def _outcome(status: int, handle: Optional[int], check_status: bool,
             message: Optional[str] = None) -> Tuple[Response, Optional[Tuple[int, int]]]:
    """The response (and download figures) of a send that returned ``status``; raises its error."""
    if message is None and status != 0:
        # Read first: any later call (satchel_response_download below) replaces the message.
        message = lib.satchel_last_error_message().decode("utf-8", "replace")
    saved = None
    if handle:
        size, resumed = ctypes.c_int64(), ctypes.c_int64()
        if lib.satchel_response_download(ctypes.byref(size), ctypes.byref(resumed), handle) == 0:
            saved = (size.value, resumed.value)
    response = _response(handle) if handle else None
    if status != 0:
        if status == 8 and not check_status and response is not None:
            return response, saved
        error = SatchelError.from_status(status, message or "", "send")
        error.response = response  # type: ignore[attr-defined]
        raise error
    assert response is not None
    return response, saved


class BodyStream:
    """The body of :meth:`Session.stream`, chunk by chunk, with backpressure.

    Iterate it for ``bytes`` chunks; :attr:`response` (status, headers, metrics; an empty body)
    is set once the transfer has ended. An error (a transport failure, a status outside
    200–299) is raised by the iteration. :meth:`close` cancels a transfer still running."""

    def __init__(self, request: _Request, buffered_chunks: int) -> None:
        self.response: Optional[Response] = None
        self._limit = max(1, buffered_chunks)
        self._lock = threading.Condition()
        self._chunks: "collections.deque[bytes]" = collections.deque()
        self._paused = False
        #: How many times the transfer was paused because the consumer fell behind.
        self.pauses = 0
        self._done: Optional[Tuple[int, Optional[int], str]] = None
        self._request = request
        self._task: Optional[int] = None

        def on_data(_: Any, data: int, length: int) -> int:
            chunk = ctypes.string_at(data, length)
            with self._lock:
                self._chunks.append(chunk)
                self._lock.notify_all()
                if len(self._chunks) >= self._limit:
                    self._paused = True
                    self.pauses += 1
                    return _ffi.DATA_PAUSE
            return _ffi.DATA_CONTINUE

        def on_completion(_: Any, status: int, message: bytes, response: Optional[int]) -> None:
            with self._lock:
                self._done = (status, response, (message or b"").decode("utf-8", "replace"))
                self._lock.notify_all()

        try:
            check(lib.satchel_request_set_data_callback(request.handle, request.keep(_ffi.DATA(on_data)), None),
                  "set_data_callback")
            task = Handle()
            check(lib.satchel_session_send_async(ctypes.byref(task), request.session._handle, request.handle,
                                                 request.keep(_ffi.COMPLETION(on_completion)), None), "send_async")
            self._task = task.value
        finally:
            request.handle, handle = None, request.handle
            lib.satchel_request_free(handle)  # send_async copied it

    def __iter__(self) -> "BodyStream":
        return self

    def __next__(self) -> bytes:
        with self._lock:
            while not self._chunks and self._done is None:
                self._lock.wait()
            chunk = self._chunks.popleft() if self._chunks else None
            resume = chunk is not None and self._paused and len(self._chunks) <= self._limit // 2
            if resume:
                self._paused = False
        if chunk is None:
            self._finish()
            raise StopIteration
        if resume:
            check(lib.satchel_task_resume(self._task), "task_resume")
        return chunk

    def _finish(self) -> None:
        if self._task:
            lib.satchel_task_wait(self._task)
            lib.satchel_task_free(self._task)
            self._task = None
        if self._done is not None and self.response is None:
            status, handle, message = self._done
            self._done = (status, None, message)
            self.response, _ = _outcome(status, handle, True, message)

    def close(self) -> None:
        """Cancels the transfer if it is still running and waits for it to end."""
        if self._task:
            lib.satchel_task_cancel(self._task)
            lib.satchel_task_wait(self._task)
            lib.satchel_task_free(self._task)
            self._task = None
            if self._done is not None and self._done[1]:
                lib.satchel_response_free(self._done[1])
                self._done = (self._done[0], None, self._done[2])

    def __enter__(self) -> "BodyStream":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()


def _event(event: "_ffi.Event") -> Event:
    error = None
    if event.error:
        error = SatchelError.from_status(event.error, (event.message or b"").decode("utf-8", "replace"), "event")
    return Event(
        kind=EVENT_KINDS.get(event.kind, str(event.kind)), method=(event.method or b"").decode(),
        url=(event.url or b"").decode(), location=event.location.decode() if event.location else None,
        status=event.status, retry=event.retry, delay=event.delay_ms / 1000, error=error,
        metrics=Metrics._from(event.metrics.contents) if event.metrics else None)


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
        data = _ffi.bytes_at(body.value, length.value)
        value = lib.satchel_response_value(handle)
        decoded = None
        if value:
            # A copy of its own: an XML document may outlive the response.
            copy = Handle()
            check(lib.satchel_value_copy(ctypes.byref(copy), value), "value_copy")
            with ValueOwner(copy.value) as owner:
                decoded = owner.python()
        metrics = _ffi.structure(_ffi.Metrics)
        check(lib.satchel_response_metrics(ctypes.byref(metrics), handle), "metrics")
        outcome, reason = ctypes.c_int(), ctypes.c_char_p()
        check(lib.satchel_response_cache(ctypes.byref(outcome), ctypes.byref(reason), handle), "cache")
        cache = CACHE_OUTCOMES.get(outcome.value)
        if cache and reason.value:
            cache += f" ({reason.value.decode('utf-8', 'replace')})"
        return Response(lib.satchel_response_status(handle), headers, data, decoded, Metrics._from(metrics), cache)
    finally:
        lib.satchel_response_free(handle)
