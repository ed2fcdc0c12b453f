# SPDX-License-Identifier: Apache-2.0
import datetime
import json
import plistlib
import urllib.parse

import pytest

import satchel


def test_json_round_trips_through_pythons_json():
    parameters = {"s": "é\"\n", "i": -(2**63), "u": 2**64 - 1, "f": 0.1, "b": [True, False, None], "o": {}}
    body, content_type = satchel.encode(parameters, as_="json")
    assert content_type.startswith("application/json")
    assert json.loads(body) == parameters


def test_forms_read_back_with_urllib():
    body, content_type = satchel.encode({"q": "a b&c=d", "n": 1}, as_="form")
    assert content_type.startswith("application/x-www-form-urlencoded")
    assert urllib.parse.parse_qs(body.decode(), strict_parsing=True) == {"q": ["a b&c=d"], "n": ["1"]}


def test_property_lists_read_back_with_plistlib():
    when = datetime.datetime(2001, 1, 1, tzinfo=datetime.timezone.utc)
    parameters = {"d": b"\x00\x01", "w": when, "l": [1, "x"]}
    for as_ in ("plist", "plist-binary"):
        body, _ = satchel.encode(parameters, as_=as_)
        assert plistlib.loads(body) == {"d": b"\x00\x01", "w": when.replace(tzinfo=None), "l": [1, "x"]}


def test_multipart_parameters_and_a_media_type_by_name():
    body, content_type = satchel.encode({"a": "1"}, as_="multipart/form-data")
    assert content_type.startswith("multipart/form-data; boundary=")
    assert satchel.decode(body, content_type)[0].value == "1"


@pytest.mark.parametrize("parameters, error", [
    ({"x": object()}, TypeError), ({1: "x"}, TypeError), ({"big": 2**64}, OverflowError), ({"neg": -(2**63) - 1}, OverflowError),
])
def test_what_has_no_satchel_value_is_refused(parameters, error):
    with pytest.raises(error):
        satchel.encode(parameters)


def test_a_value_a_format_cannot_write_is_a_satchel_error():
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.encode({"n": float("nan")}, as_="json")
    assert raised.value.code == "unencodableValue"
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.encode({"a": 1}, as_="application/x-unknown")
    assert raised.value.code == "unacceptableContentType"
