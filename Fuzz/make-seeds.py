#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the fuzz targets' seed corpora into Fuzz/Seeds/<target>/ (deterministic).

Usage: Fuzz/make-seeds.py   (run with the repository's .venv Python: Pillow and plistlib)

Sources: Tests/Fixtures (multipart bodies and batch responses), a fixed sample of the JSON
conformance suite beside the checkout (../shared/conformance/json/test_parsing), small PNG and
JPEG files from scripts/generate-test-images.py, binary property lists written by Python's
plistlib (an independent writer), and XML, plist, form, HTTP and media-type snippets in the
style of the tests. Seeds of crashes found later are added by hand as crash-<name> files and
are kept: this script only adds and overwrites its own files.
"""
import os
import plistlib
import datetime
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SEEDS = os.path.join(ROOT, "Fuzz", "Seeds")
MAX_SEED = 4096  # libFuzzer's default -max_len; larger seeds only slow the start


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if len(data) > MAX_SEED:
        return
    directory = os.path.join(SEEDS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, name), "wb") as handle:
        handle.write(data)


def read(path):
    with open(path, "rb") as handle:
        return handle.read()


def form():
    samples = ["a=1&b=2", "a[b][c]=1&a[d]=2", "a[]=x&a[]=y", "a[][b]=1&a[][c]=2&a[][b]=3",
               "a[0]=x&a[1]=y", "q=caf%C3%A9+au+lait&empty=&flag", "a=1&a=2&a=3", "%E2%9C%93=%F0%9F%98%80",
               "a[b]=1&a=2", "x[y][z][w]=deep&x[y][v]=1", "a%5Bb%5D=1", "&&a=1&&", "a[=1", "k=%ZZ"]
    for index, sample in enumerate(samples):
        write("form", f"form-{index:02}", sample)


def json_seeds():
    suite = os.path.join(ROOT, "..", "shared", "conformance", "json", "test_parsing")
    names = sorted(os.listdir(suite)) if os.path.isdir(suite) else []
    # Every fourth file of the sorted suite: y_, n_ and i_ cases alike, the same sample every run.
    for name in names[::4]:
        write("json", name, read(os.path.join(suite, name)))
    write("json", "doc-object", '{"name":"Satchel","n":[1,-2,3.5e10,18446744073709551615],"o":{"t":true,"f":false,"z":null},"s":"\\u00e9\\ud83d\\ude00\\u0000"}')
    write("json", "doc-bom", b"\xef\xbb\xbf[1,2]")


XML_SNIPPETS = [
    '<?xml version="1.0" encoding="UTF-8"?><root a="1"><child>text</child><empty/></root>',
    '<r xmlns="urn:a" xmlns:b="urn:b"><b:x b:attr="v">t</b:x><![CDATA[<raw>&]]><!-- c --><?pi data?></r>',
    '<!DOCTYPE r [<!ENTITY e "entity text"><!ATTLIST r d CDATA "default">]><r>&e;&amp;&#x41;&#66;</r>',
    '<!DOCTYPE r [<!ENTITY a "x"><!ENTITY b "&a;&a;">]><r>&b;&b;&b;</r>',
    '<!DOCTYPE r [<!ENTITY % t "<!ENTITY e \'pe\'>"> %t;]><r>&e;</r>',
    '<!DOCTYPE r SYSTEM "file:///etc/passwd"><r>ok</r>',
    '<?xml version="1.0" encoding="ISO-8859-1"?><r>caf\xe9</r>',
    '<r><a><b><c><d><e><f/></e></d></c></b></a></r>',
    '<r>unclosed',
    '<feed xmlns="http://www.w3.org/2005/Atom"><title type="text">T</title><entry><id>1</id></entry></feed>',
]


def xml():
    for index, snippet in enumerate(XML_SNIPPETS):
        data = snippet.encode("latin-1") if "ISO-8859-1" in snippet else snippet.encode("utf-8")
        write("xml-document", f"xml-{index:02}", data)
        write("xml-events", f"xml-{index:02}", data)
    write("xml-document", "xml-utf16", '<?xml version="1.0" encoding="UTF-16"?><r>x</r>'.encode("utf-16"))


PLIST_VALUE = {
    "string": "Satchel é 😀", "int": 42, "negative": -7, "big": 2**63 + 5, "real": 3.25,
    "bool": True, "false": False, "date": datetime.datetime(2024, 1, 2, 3, 4, 5),
    "data": b"\x00\x01\xfe\xff", "array": [1, "two", [3.0]], "dict": {"nested": {"k": "v"}},
}


def plists():
    write("plist-xml", "plistlib-xml", plistlib.dumps(PLIST_VALUE, fmt=plistlib.FMT_XML))
    write("plist-xml", "plistlib-xml-array", plistlib.dumps([1, "a", {"b": b"x"}], fmt=plistlib.FMT_XML))
    write("plist-xml", "snippet-escapes", '<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>a&amp;b</key><string>&lt;&#x1F600;</string><key>r</key><real>nan</real><key>i</key><integer>0x10</integer></dict></plist>')
    write("plist-xml", "snippet-empty", '<plist version="1.0"><array><dict/><array/><string/><data></data><true/></array></plist>')
    write("plist-binary", "plistlib-binary", plistlib.dumps(PLIST_VALUE, fmt=plistlib.FMT_BINARY))
    write("plist-binary", "plistlib-binary-array", plistlib.dumps([1, "a", {"b": b"x"}, [], {}], fmt=plistlib.FMT_BINARY))
    write("plist-binary", "plistlib-binary-uid", plistlib.dumps({"$top": {"root": plistlib.UID(1)}, "$objects": ["$null", "x"]}, fmt=plistlib.FMT_BINARY))
    write("plist-binary", "plistlib-binary-wide", plistlib.dumps({"ü" * 20: list(range(300)), "s": "x" * 300}, fmt=plistlib.FMT_BINARY))


def images():
    with tempfile.TemporaryDirectory() as directory:
        subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "generate-test-images.py"), directory],
                       check=True, stdout=subprocess.DEVNULL)
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if name.endswith(".png"):
                write("png", name, read(path))
            elif name.endswith(".jpg") or name.endswith(".jpeg"):
                write("jpeg", name, read(path))


def multipart():
    fixtures = os.path.join(ROOT, "Tests", "Fixtures")
    for family in ("multipart", "batch"):
        folder = os.path.join(fixtures, family)
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".body"):
                continue
            stem = name[: -len(".body")]
            content_type = read(os.path.join(folder, stem + ".content-type")).strip()
            seed = content_type + b"\n" + read(os.path.join(folder, name))
            write("multipart", stem, seed)
            write("compound", stem, seed)
    write("multipart", "bare-boundary", b"xyz\n--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--xyz--\r\n")
    write("multipart", "nested", b'multipart/mixed; boundary=outer\n--outer\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\nContent-Type: text/plain\r\n\r\nhi\r\n--inner--\r\n--outer--\r\n')
    write("multipart", "filename-star", b"multipart/form-data; boundary=b\n--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"a.txt\"; filename*=UTF-8''%C3%A9.txt\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nbody\r\n--b--")
    write("compound", "json", b'application/json\n{"a":[1,2,{"b":null}]}')
    write("compound", "xml", b"application/xml\n<r><a/></r>")
    write("compound", "form", b"application/x-www-form-urlencoded\na=1&b[c]=2")
    write("compound", "problem", b'application/problem+json\n{"type":"about:blank","title":"Nope","status":404}')
    write("compound", "text", b"text/plain; charset=iso-8859-1\ncaf\xe9")
    write("compound", "sniffed", b'\n{"sniffed":true}')
    write("compound", "http", b"application/http\nHTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}")
    write("compound", "byteranges", b"multipart/byteranges; boundary=r\n--r\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-3/10\r\n\r\nabcd\r\n--r\r\nContent-Range: bytes 6-9/10\r\n\r\nghij\r\n--r--\r\n")


def http_messages():
    samples = [
        b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
        b"HTTP/1.1 404 Not Found\r\nContent-Type: application/problem+json\r\n\r\n{\"title\":\"missing\"}\r\n\r\n",
        b"HTTP/1.1 204 No Content\r\n\r\n",
        b"GET /storage/v1/b/bucket HTTP/1.1\r\nHost: example.com\r\nAccept: application/json\r\n\r\n",
        b"HTTP/1.1 200 OK\nContent-Type: multipart/mixed; boundary=x\n\n--x\r\nContent-Type: text/plain\r\n\r\nhi\r\n--x--\r\n",
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
        b"HTTP/1.1 200 OK\r\nContent-Type: application/http\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n",
    ]
    for index, sample in enumerate(samples):
        write("http-message", f"http-{index:02}", sample)


def media_types():
    samples = [
        "application/json; charset=utf-8\ntext/html;q=0.9, */*;q=0.1",
        'multipart/form-data; boundary="----WebKitFormBoundary7MA4YWxkTrZu0gW"\nmultipart/*',
        'text/plain; format=flowed; charset="us\\"ascii"\ntext/*;q=0.5;level=1, text/plain',
        "application/vnd.api+json\napplication/*+json;q=1.000, application/xml;q=0",
        "bytes 0-499/1234\nbytes */1234\nbytes 500-999/*",
        "image/svg+xml ; ;charset=UTF-8\nimage/*;q=0.001",
        "multipart/mixed; boundary=batch_pK7JBAk73-E=_AA5eFwv4m2Q=",
    ]
    for index, sample in enumerate(samples):
        write("media-type", f"media-{index:02}", sample)


if __name__ == "__main__":
    form()
    json_seeds()
    xml()
    plists()
    images()
    multipart()
    http_messages()
    media_types()
    for target in sorted(os.listdir(SEEDS)):
        print(f"{target}: {len(os.listdir(os.path.join(SEEDS, target)))} seeds")
