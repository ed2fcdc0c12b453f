# SPDX-License-Identifier: Apache-2.0
import datetime
import json
import plistlib
import struct
import zlib

import pytest

import satchel


def png(width, height, rows):
    """A tiny RGB PNG written with zlib, independent of Satchel."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    raw = b"".join(b"\x00" + row for row in rows)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def test_json_values_are_python_values():
    text = b'{"s":"\\u00e9","i":-3,"u":18446744073709551615,"f":1.5,"t":true,"n":null,"a":[1,[2]],"o":{"k":"v"}}'
    assert satchel.decode(text, "application/json") == json.loads(text)
    assert list(satchel.decode(b'{"b":1,"a":2}', "application/json")) == ["b", "a"]  # order kept


def test_property_lists_give_bytes_and_dates():
    when = datetime.datetime(2024, 2, 29, 12, 30)  # plistlib writes naive datetimes, read as UTC
    document = {"data": b"\x00\xff", "when": when, "n": 7, "list": ["x", 1.25]}
    for fmt in (plistlib.FMT_XML, plistlib.FMT_BINARY):
        value = satchel.decode(plistlib.dumps(document, fmt=fmt), "application/x-plist")
        assert value == dict(document, when=when.replace(tzinfo=datetime.timezone.utc))


def test_an_image_has_its_pixels():
    image = satchel.decode(png(2, 1, [b"\xff\x00\x00\x00\x00\xff"]), "image/png")
    assert isinstance(image, satchel.Image)
    assert (image.format, image.width, image.height) == ("png", 2, 1)
    assert image.pixels[: image.channels] in (b"\xff\x00\x00", b"\xff\x00\x00\xff")


def test_xml_documents_answer_xpath():
    document = satchel.decode(b'<feed xmlns="urn:a"><e n="1">x</e><e n="2">y</e></feed>', "application/xml")
    assert isinstance(document, satchel.XMLDocument)
    assert document.xpath("//a:e/@n", {"a": "urn:a"}) == ["1", "2"]
    assert document.canonical["children"][0]["name"] == "feed"
    with pytest.raises(satchel.SatchelError) as raised:
        document.xpath("//a:e[", {"a": "urn:a"})
    assert raised.value.code == "syntaxError"


def test_multipart_parts_and_a_batch_of_responses():
    body = (b"--b\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 201 Created\r\nContent-Type: application/json\r\n\r\n"
            b'{"id":7}\r\n--b\r\nContent-Type: application/json\r\n\r\n{bad\r\n--b\r\n'
            b'Content-Disposition: form-data; name="f"; filename="caf_.txt"; filename*=UTF-8\'\'caf%C3%A9.txt\r\n\r\nx\r\n--b--\r\n')
    parts = satchel.decode(body, "multipart/mixed; boundary=b")
    assert [type(part) for part in parts] == [satchel.Part] * 3
    message = parts[0].value
    assert isinstance(message, satchel.HTTPMessage) and message.status == 201 and message.value == {"id": 7}
    assert ("Content-Type", "application/json") in message.headers
    failure = parts[1].value
    assert isinstance(failure, satchel.DecodingFailure) and failure.code == "syntaxError"
    assert parts[2].filename == "café.txt" and parts[2].value == "x" and parts[2].size == 1


def test_blank_bodies_are_none_in_every_format():
    for content_type in ("application/json", "application/x-plist", "application/xml", "text/plain", "image/png"):
        assert satchel.decode(b"", content_type) is None
    assert satchel.decode(b" \r\n", "application/json") is None
    assert satchel.decode(b" ", "text/plain") == " "


def test_a_body_without_a_type_is_sniffed():
    assert satchel.decode(b'{"a":1}') == {"a": 1}


@pytest.mark.parametrize("body, content_type, code, where", [
    (b'{"a":}', "application/json", "syntaxError", "at byte 5"),
    (b'{"a":', "application/json", "truncatedInput", "byte"),
    (b"\xff", "application/json", "invalidEncoding", "byte"),
    (b"<a><b></a>", "application/xml", "syntaxError", "line 1"),
    (b"bplist00", "application/x-plist", "truncatedInput", "byte"),
    (b"--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nx", "multipart/form-data; boundary=b",
     "truncatedInput", "part 0"),
    (b"\x89PNG\r\n\x1a\n\x00", "image/png", "syntaxError", ""),
    (b"x", "application/x-unknown", "unacceptableContentType", ""),
    (b"x", "json", "invalidMediaType", ""),
])
def test_bad_input_is_an_error_that_says_what_and_where(body, content_type, code, where):
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.decode(body, content_type)
    assert raised.value.code == code or (code == "syntaxError" and raised.value.code in ("truncatedInput", "unsupportedFormat"))
    assert where in raised.value.message
    assert "\n" not in raised.value.message


def test_limits_hold():
    shallow = satchel.Registry(depth=3)
    with pytest.raises(satchel.SatchelError) as raised:
        shallow.decode(b"[[[[1]]]]", "application/json")
    assert raised.value.code == "limitExceeded" and "maxDepth" in raised.value.message
    with pytest.raises(TypeError):
        satchel.Registry(no_such_limit=1)
    with pytest.raises(satchel.SatchelError):
        satchel.Registry(depth=0)


def test_wrong_argument_types_are_python_errors():
    with pytest.raises(TypeError):
        satchel.decode("not bytes", "application/json")  # type: ignore[arg-type]
