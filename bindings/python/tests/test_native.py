# SPDX-License-Identifier: Apache-2.0
"""The native module (src/satchel/_native.c): built by this install, and giving the values the
ctypes path gives, payloads included."""
import ctypes
import datetime
import plistlib

import pytest

import satchel
from satchel import _ffi


def test_the_package_under_test_has_its_native_module() -> None:
    assert _ffi.native is not None
    assert _ffi.native.__file__.endswith(".abi3.so")


def test_json_values_match_python_json() -> None:
    import json

    body = b'{"a": [1, -2, 18446744073709551615, -9223372036854775808, 2.5, true, false, null, "x\\u00e9"],' \
        b' "b": {}, "c": [], "d": {"e": [[[]]]}, "": ""}'
    assert satchel.decode(body, "application/json") == json.loads(body)


def test_scalars_of_other_formats() -> None:
    when = datetime.datetime(2026, 11, 28, 12, 0, 1, tzinfo=datetime.timezone.utc)
    naive = when.replace(tzinfo=None)  # plistlib writes naive datetimes, as UTC
    body = plistlib.dumps({"data": b"\x00\xff", "date": naive, "big": 2**63 + 5, "list": [1.5, "s"]},
                          fmt=plistlib.FMT_BINARY)
    value = satchel.decode(body, "application/x-plist")
    assert value == {"data": b"\x00\xff", "date": when, "big": 2**63 + 5, "list": [1.5, "s"]}
    assert value["date"].tzinfo == datetime.timezone.utc


def test_payloads_are_read_through_their_own_copy() -> None:
    body = b'--B\r\nContent-Disposition: form-data; name="doc"\r\nContent-Type: application/xml\r\n\r\n' \
        b'<a><b>1</b></a>\r\n--B\r\nContent-Disposition: form-data; name="n"\r\n\r\n7\r\n--B--\r\n'
    parts = satchel.decode(body, "multipart/form-data; boundary=B")
    assert [part.name for part in parts] == ["doc", "n"]
    document = parts[0].value
    assert isinstance(document, satchel.XMLDocument)
    del parts
    # The document outlives the decoded body: it holds a copy of its own.
    assert document.xpath("/a/b/text()") == ["1"]


def test_errors_raise_with_the_librarys_code_and_message() -> None:
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.decode(b'{"a": [1,]}', "application/json")
    assert raised.value.code == "syntaxError" and "SATCHEL_E_SYNTAX" in raised.value.message


def test_a_failing_payload_conversion_propagates_its_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    from satchel import values

    def refuse(handle: int) -> None:
        raise RuntimeError("refused")

    monkeypatch.setattr(values, "payload", refuse)
    monkeypatch.setattr(satchel, "payload", refuse)
    # An XML document goes to the package's payload reader (multipart parts are read natively).
    with pytest.raises(RuntimeError, match="refused"):
        satchel.decode(b"<a><b>1</b></a>", "application/xml")
    with pytest.raises(RuntimeError, match="refused"):
        satchel.decode(b"--B\r\nContent-Disposition: form-data; name=\"n\"\r\nContent-Type: application/xml\r\n\r\n"
                       b"<a/>\r\n--B--\r\n", "multipart/form-data; boundary=B")


def test_bad_arguments_raise_and_never_crash() -> None:
    from satchel.values import payload

    native = _ffi.native
    assert native is not None
    with pytest.raises(RuntimeError):
        native.python(0, payload)  # a NULL value: libsatchel refuses it
    registry = satchel.Registry()
    with pytest.raises(TypeError):
        native.decode(registry._handle, "not bytes", None, payload)
    with pytest.raises(TypeError):
        native.decode(None, b"{}", "application/json", payload)
    status, value = native.decode(registry._handle, b'{"a": ', "application/json", payload)
    assert status != 0 and value is None  # truncated: the status, for the package to raise with
    # The same for the entry points that build while libsatchel reads.
    with pytest.raises(TypeError):
        native.visit(registry._handle, "not bytes", None, payload)
    with pytest.raises(TypeError):
        native.visit(None, b"{}", "application/json", payload)
    status, value = native.visit(registry._handle, b'{"a": ', "application/json", payload)
    assert status != 0 and value is None
    status, records = native.records(0, payload)  # a NULL reader: libsatchel refuses it
    assert status != 0 and records == []
    with pytest.raises(ValueError):
        native.init_parts(0, 0, 0, 0, object)


def test_json_is_built_as_it_is_read_and_agrees_with_python_json() -> None:
    import json

    documents = [
        b'{"a": 1, "b": 2, "a": 3}',  # a duplicate keeps its first place with its last value
        b'{"a": 1, "\\u0061": [2]}',
        b'["\\ud83d\\ude00\\n\\"", "", "plain", 1e300, -0.0, 0, 123456789012345678]',
        b"[" * 300 + b"]" * 300,
        b'  {"padded": true}  ',
        b'{"k": ' + b'{"k": ' * 50 + b"null" + b"}" * 51,
    ]
    for body in documents:
        assert satchel.decode(body, "application/json") == json.loads(body), body
        assert satchel.decode(body, "application/vnd.api+json; charset=utf-8") == json.loads(body), body
    assert satchel.decode(b"   ", "application/json") is None
    # A byte order mark and UTF-16 go through the tree path, to the same values.
    assert satchel.decode(b"\xef\xbb\xbf[1]", "application/json") == [1]
    assert satchel.decode('{"w": "ide"}'.encode("utf-16"), "application/json") == {"w": "ide"}


@pytest.mark.parametrize("body, code", [
    (b'[1, 2, 1e400]', "numberOutOfRange"),  # late in the text: the list built so far is dropped
    (b'{"a": [1, 2', "truncatedInput"),
    (b'{"a" 1}', "syntaxError"),
    (b"[" * 100000 + b"]" * 100000, "limitExceeded"),
    (b'["\xff"]', "invalidEncoding"),
])
def test_bad_json_raises_with_the_librarys_code(body: bytes, code: str) -> None:
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.decode(body, "application/json")
    assert raised.value.code == code


def test_multipart_parts_are_read_natively_and_agree_with_the_ctypes_reading() -> None:
    from satchel import values

    body = (b'--B\r\nContent-Disposition: form-data; name="f\xc3\xa9"; filename="a.txt"\r\n'
            b'Content-Type: text/plain\r\nX-Extra: 1\r\n\r\nhello\r\n'
            b'--B\r\nContent-Disposition: form-data; name="j"\r\nContent-Type: application/json\r\n\r\n'
            b'{"k": [1, 2]}\r\n'
            b'--B\r\nContent-Disposition: form-data; name="bad"\r\nContent-Type: application/json\r\n\r\n'
            b'{oops\r\n--B--\r\n')
    content_type = "multipart/form-data; boundary=B"
    parts = satchel.decode(body, content_type)
    assert [part.name for part in parts] == ["f\u00e9", "j", "bad"]
    assert parts[0].filename == "a.txt" and parts[0].content_type == "text/plain" and parts[0].size == 5
    assert ("X-Extra", "1") in parts[0].headers
    assert parts[1].value == {"k": [1, 2]}
    assert isinstance(parts[2].value, values.DecodingFailure)
    # The ctypes reading of the same value, part for part.
    out = _ffi.Handle()
    encoded = content_type.encode()
    _ffi.check(_ffi.lib.satchel_registry_decode(
        ctypes.byref(out), satchel._registry()._handle, encoded, len(encoded), body, len(body)), "decode")
    with values.ValueOwner(out.value) as owner:
        assert values._convert(out.value, owner) == parts
