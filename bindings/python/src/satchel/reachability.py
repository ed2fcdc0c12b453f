# SPDX-License-Identifier: Apache-2.0
"""Whether the network, or one host, can be reached (AFNetworkReachabilityManager on Linux):
libsatchel asks the kernel's routing table over rtnetlink whether a route leads there through
an interface that is up. Reachable means a packet has somewhere to go, not that the host answers.

    >>> satchel.check_reachability("127.0.0.1")
    Reachability(status='reachable', interface='lo', kind='loopback', index=1)
"""
from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any, Callable, Optional, Tuple

from . import _ffi
from ._ffi import Handle, check, lib

STATUSES = {0: "unknown", 1: "not reachable", 2: "reachable"}
KINDS = {0: None, 1: "loopback", 2: "wired", 3: "wifi", 4: "cellular", 5: "other"}


@dataclass(frozen=True)
class Reachability:
    """A status: ``"unknown"``, ``"not reachable"`` or ``"reachable"`` through ``interface``
    (its ``kind``: ``"loopback"``, ``"wired"``, ``"wifi"``, ``"cellular"`` — AFNetworking's
    WWAN — or ``"other"``)."""

    status: str
    interface: Optional[str] = None
    kind: Optional[str] = None
    index: int = 0

    @property
    def is_reachable(self) -> bool:
        return self.status == "reachable"

    @classmethod
    def _from(cls, info: "_ffi.ReachabilityInfo") -> "Reachability":
        status = STATUSES.get(info.status, "unknown")
        if status != "reachable":
            return cls(status)
        return cls(status, info.interface_name.decode(), KINDS.get(info.interface_kind), info.interface_index)


def _host(host: Optional[str]) -> Tuple[Optional[bytes], int]:
    encoded = host.encode() if host is not None else None
    return encoded, len(encoded) if encoded is not None else 0


def check_reachability(host: Optional[str] = None) -> Reachability:
    """The status of ``host`` (a name or an address; ``None`` for the network in general: a
    default route), once, now. Blocks while the name resolves.

    Raises:
        SatchelError: ``invalidArgument`` for a malformed host, ``io`` when the kernel cannot be
            asked.
    """
    info = _ffi.structure(_ffi.ReachabilityInfo)
    check(lib.satchel_reachability_check(ctypes.byref(info), *_host(host)), "reachability_check")
    return Reachability._from(info)


class Monitor:
    """Watches a host (or the network) and calls ``on_change`` with each new
    :class:`Reachability` — the first decision, then every change — on a library thread.

    Use it as a context manager, or call :meth:`start` and :meth:`stop`."""

    def __init__(self, host: Optional[str] = None, on_change: Optional[Callable[[Reachability], Any]] = None) -> None:
        handle = Handle()
        check(lib.satchel_reachability_create(ctypes.byref(handle), *_host(host)), "reachability_create")
        self._handle: Optional[int] = handle.value
        self._on_change = on_change

        def relay(_: Any, info: Any) -> None:
            if self._on_change is not None:
                try:
                    self._on_change(Reachability._from(info.contents))
                except BaseException:  # an exception cannot cross C
                    pass

        self._callback = _ffi.REACHABILITY(relay)

    def start(self) -> None:
        """Starts watching. Raises ``SatchelError`` (``misuse``) when already started."""
        check(lib.satchel_reachability_start(self._handle, self._callback, None), "reachability_start")

    @property
    def status(self) -> Reachability:
        """The current status (``"unknown"`` before the first decision and after :meth:`stop`)."""
        info = _ffi.structure(_ffi.ReachabilityInfo)
        check(lib.satchel_reachability_current(ctypes.byref(info), self._handle), "reachability_current")
        return Reachability._from(info)

    def stop(self) -> None:
        """Stops watching; when it returns, ``on_change`` is not running and will not run."""
        if self._handle:
            lib.satchel_reachability_stop(self._handle)

    def close(self) -> None:
        if getattr(self, "_handle", None):
            lib.satchel_reachability_free(self._handle)
            self._handle = None

    def __enter__(self) -> "Monitor":
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        self.close()
