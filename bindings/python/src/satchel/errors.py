# SPDX-License-Identifier: Apache-2.0
"""Satchel's errors in Python: one exception type carrying the library's stable code."""
from __future__ import annotations

from typing import Any, List

# satchel_status values (include/satchel.h) and the names Swift and the command give them.
CODES = {
    1: "invalidArgument", 2: "syntaxError", 3: "truncatedInput", 4: "limitExceeded", 5: "invalidEncoding",
    6: "numberOutOfRange", 7: "unacceptableContentType", 8: "unacceptableStatusCode", 9: "typeMismatch",
    10: "valueNotFound", 11: "unencodableValue", 12: "invalidMediaType", 13: "io", 14: "internal",
    15: "unsupportedFormat", 16: "cancelled", 17: "timedOut", 18: "cannotConnect", 19: "tlsFailure",
    20: "tooManyRedirects", 21: "networkFailure", 22: "noMemory", 23: "misuse", 24: "abiMismatch", 25: "plugin",
}


class SatchelError(Exception):
    """A call libsatchel refused.

    Attributes:
        status: the ``satchel_status`` number, such as 2.
        code: its stable name, such as ``"syntaxError"``.
        message: libsatchel's message, which says what and where (``"... (at byte 17)"``).
        records: for a :class:`satchel.Reader`, the records completed before the error.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = CODES.get(status, f"status{status}")
        self.message = message
        self.records: List[Any] = []

    @classmethod
    def from_status(cls, status: int, message: str, what: str) -> "SatchelError":
        """The error for a failing call ``what``; the message already names the code."""
        return cls(status, message or f"{what} failed with status {status}")
