# SPDX-License-Identifier: Apache-2.0
import os
import subprocess

import pytest

import satchel

ROOT = os.path.join(os.path.dirname(__file__), "..", "..", "..")
LF_BODY = b'--B\nContent-Disposition: form-data; name="a"\n\none\n--B--\n'


def test_multipart_line_endings_and_raw_parts():
    assert satchel.decode(LF_BODY, "multipart/form-data; boundary=B")[0].value == "one"
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.Registry(crlf_only=True).decode(LF_BODY, "multipart/form-data; boundary=B")
    assert raised.value.code == "syntaxError" and "bare LF" in raised.value.message
    bom = b'--B\r\nContent-Disposition: form-data; name="t"\r\nContent-Type: text/plain\r\n\r\n\xef\xbb\xbfhi\r\n--B--\r\n'
    assert satchel.decode(bom, "multipart/form-data; boundary=B")[0].value == "hi"
    assert satchel.Registry(raw_parts=True).decode(bom, "multipart/form-data; boundary=B")[0].value == "\ufeffhi"


def test_a_c_plugin_loads_from_python(tmp_path):
    plugin = tmp_path / "csv_plugin.so"
    subprocess.run(["gcc", "-std=c99", "-shared", "-fPIC", "-I", os.path.join(ROOT, "include"),
                    os.path.join(ROOT, "Examples", "c", "csv_plugin.c"), "-o", str(plugin)], check=True)
    registry = satchel.Registry()
    registry.load_plugin(str(plugin))
    assert registry.decode(b"name,city\r\nAnn,Oslo\r\n", "text/csv") == [{"name": "Ann", "city": "Oslo"}]
    with pytest.raises(satchel.SatchelError) as raised:
        registry.load_plugin(str(tmp_path / "missing.so"))
    assert raised.value.code == "plugin"


def test_version():
    assert satchel.version().count(".") == 2
