# SPDX-License-Identifier: Apache-2.0
"""Satchel's Python package side by side with the Python tools people use for the same jobs.

Run by scripts/bench-python (which installs the library, the package and the peers in a fresh
virtual environment). Each job runs every contender in interleaved rounds; the report gives the
median time per operation and the ratio peer ÷ Satchel (above 1: Satchel is faster).

    python bench.py [--rounds N] [--seconds S]
"""
import argparse
import email.parser
import email.policy
import io
import json
import os
import plistlib
import random
import statistics
import sys
import tempfile
import time
import zlib
import struct
import subprocess

import satchel

# A loopback HTTP/1.1 server with keep-alive, in its own process, that answers every GET with
# one small JSON record: the peer of the session rows.
SERVER = r'''
import http.server, json, sys
body = json.dumps({"id": 7, "name": "user 7", "score": 12.5, "tags": ["a", "b"], "active": True}).encode()
class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    def do_GET(self):
        # One write for head and body: two small writes meet the client's delayed ACK (40 ms).
        head = f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n"
        self.wfile.write(head.encode() + body)
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
'''


def documents():
    rng = random.Random(7)
    records = [{"id": rng.randrange(1 << 62), "name": f"user {i}", "score": rng.random() * 100, "tags": ["a", "b", "c"][: i % 4],
                "active": i % 2 == 0, "bio": "x" * rng.randrange(10, 200), "nested": {"k": [1, 2, {"z": None}]}}
               for i in range(2000)]
    small = json.dumps(records[0]).encode()
    large = json.dumps(records).encode()
    plist_dict = {"items": [{"n": i, "s": f"s{i}", "d": bytes(range(16)), "f": i / 3} for i in range(2000)]}
    return small, large, plist_dict


def png(width, height):
    rng = random.Random(3)
    rows = b"".join(b"\x00" + bytes(rng.randrange(256) for _ in range(width * 3)) for _ in range(height))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows, 6)) + chunk(b"IEND", b""))


def measure(function, seconds):
    """Median seconds per call over runs of about `seconds`."""
    function()
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 5:
        function()
        count += 1
    per_batch = max(1, count)
    samples = []
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(per_batch):
            function()
        samples.append((time.perf_counter() - t) / per_batch)
    return statistics.median(samples)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=0.5)
    options = parser.parse_args()

    import ijson
    import orjson
    import multipart as pymultipart
    from PIL import Image
    from requests_toolbelt import MultipartEncoder

    small, large, plist_dict = documents()
    plist_xml = plistlib.dumps(plist_dict, fmt=plistlib.FMT_XML)
    plist_binary = plistlib.dumps(plist_dict, fmt=plistlib.FMT_BINARY)
    image = png(512, 512)
    folder = tempfile.mkdtemp()
    upload = os.path.join(folder, "upload.bin")
    with open(upload, "wb") as handle:
        handle.write(os.urandom(8 << 20))
    boundary = "benchboundary42"
    parts = b"".join(
        f'--{boundary}\r\nContent-Disposition: form-data; name="f{i}"; filename="f{i}.bin"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n".encode() + os.urandom(4096) + b"\r\n" for i in range(200)
    ) + f"--{boundary}--\r\n".encode()
    parts_type = f"multipart/form-data; boundary={boundary}"
    raw = satchel.Registry(raw_parts=True)
    page = b'{"data":{"items":' + json.dumps([record for _ in range(8) for record in json.loads(large)]).encode() + b'},"next":"c"}'
    page_chunks = [page[start:start + (1 << 16)] for start in range(0, len(page), 1 << 16)]
    ijson_c = ijson.get_backend("yajl2_c")

    def satchel_elements():
        return sum(1 for _ in satchel.records(page_chunks, "application/json", each="/data/items"))

    def ijson_elements():
        return sum(1 for _ in ijson_c.items(io.BytesIO(page), "data.items.item", use_float=True, buf_size=1 << 16))

    def satchel_build():
        body = satchel.MultipartBody()
        body.add_field("title", "t")
        body.add_file("file", upload)
        for piece in body:
            pass

    def toolbelt_build():
        with open(upload, "rb") as handle:
            encoder = MultipartEncoder(fields={"title": "t", "file": ("upload.bin", handle, "application/octet-stream")})
            while encoder.read(1 << 16):
                pass

    def email_parse():
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
            b"Content-Type: " + parts_type.encode() + b"\r\n\r\n" + parts)
        return [part.get_payload(decode=True) for part in message.iter_parts()]

    def multipart_parse():
        return [part.raw for part in pymultipart.MultipartParser(io.BytesIO(parts), boundary, len(parts), part_limit=1000)]

    lines = b"\n".join(json.dumps(record).encode() for record in json.loads(large)) + b"\n"

    def satchel_lines():
        return list(satchel.records([lines], "application/x-ndjson"))

    def json_lines():
        return [json.loads(line) for line in lines.splitlines() if line]

    import httpx
    import requests
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    base = f"http://127.0.0.1:{server.stdout.readline().strip()}"
    satchel_session, requests_session, httpx_client = satchel.Session(base), requests.Session(), httpx.Client()
    gets = 20

    def satchel_gets():
        return [satchel_session.get("/record").value for _ in range(gets)]

    def requests_gets():
        return [requests_session.get(base + "/record").json() for _ in range(gets)]

    def httpx_gets():
        return [httpx_client.get(base + "/record").json() for _ in range(gets)]

    assert satchel_gets() == requests_gets() == httpx_gets()
    assert satchel_lines() == json_lines()

    jobs = [
        ("JSON, one 230-byte record → dict", {
            "satchel": lambda: satchel.decode(small, "application/json"), "json": lambda: json.loads(small),
            "orjson": lambda: orjson.loads(small)}),
        (f"JSON, {len(large) // 1024} KiB array of 2 000 records → list", {
            "satchel": lambda: satchel.decode(large, "application/json"), "json": lambda: json.loads(large),
            "orjson": lambda: orjson.loads(large)}),
        (f"property list, XML, {len(plist_xml) // 1024} KiB → dict", {
            "satchel": lambda: satchel.decode(plist_xml, "application/x-plist"), "plistlib": lambda: plistlib.loads(plist_xml)}),
        (f"property list, binary, {len(plist_binary) // 1024} KiB → dict", {
            "satchel": lambda: satchel.decode(plist_binary, "application/x-plist"),
            "plistlib": lambda: plistlib.loads(plist_binary)}),
        ("multipart, 200 parts of 4 KiB → part bytes", {
            "satchel": lambda: raw.decode(parts, parts_type), "email": email_parse, "multipart": multipart_parse}),
        ("multipart body with an 8 MiB file, built and read in 64 KiB pieces", {
            "satchel": satchel_build, "requests-toolbelt": toolbelt_build}),
        (f"JSON document, {len(page) // 1024} KiB, the elements at /data/items one by one, 64 KiB chunks", {
            "satchel": satchel_elements, "ijson (yajl2_c)": ijson_elements}),
        (f"JSON Lines, {len(lines) // 1024} KiB, 2 000 records → dicts", {
            "satchel": satchel_lines, "json (per line)": json_lines}),
        (f"a session's {gets} small GETs (keep-alive, loopback) → dicts", {
            "satchel": satchel_gets, "requests + json": requests_gets, "httpx": httpx_gets}),
        ("PNG 512×512 RGB → pixels", {
            "satchel": lambda: satchel.decode(image, "image/png").pixels,
            "Pillow": lambda: Image.open(io.BytesIO(image)).convert("RGB").tobytes()}),
    ]
    print(f"Python {sys.version.split()[0]}, satchel {satchel.version()}, {options.rounds} interleaved rounds, "
          f"median time per operation\n")
    print("| job | contender | time | peer ÷ Satchel | its range over the rounds |")
    print("|---|---|---:|---:|---:|")
    for title, contenders in jobs:
        times = {name: [] for name in contenders}
        for _ in range(options.rounds):
            for name, function in contenders.items():
                times[name].append(measure(function, options.seconds))
        medians = {name: statistics.median(values) for name, values in times.items()}
        for name, value in medians.items():
            ratio, spread = "—", ""
            if name != "satchel":
                ratio = f"{value / medians['satchel']:.2f}×"
                each = [peer / own for peer, own in zip(times[name], times["satchel"])]
                spread = f"{min(each):.2f}–{max(each):.2f}"
            unit = f"{value * 1e6:.1f} µs" if value < 1e-3 else f"{value * 1e3:.2f} ms"
            print(f"| {title} | {name} | {unit} | {ratio} | {spread} |")
    server.terminate()


if __name__ == "__main__":
    main()
