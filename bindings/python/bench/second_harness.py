# SPDX-License-Identifier: Apache-2.0
"""A second harness for the JSON and multipart rows of bench.py: a fixed number of calls per sample, the median
of seven samples, Satchel and json one after the other (not interleaved). Its ratios must agree
with bench.py's for a figure to stand.

    SATCHEL_LIBRARY=… python second_harness.py
"""
import io, json, os, random, statistics, time, sys
import satchel
import multipart as pymultipart
rng = random.Random(7)
records = [{"id": rng.randrange(1 << 62), "name": f"user {i}", "score": rng.random() * 100, "tags": ["a", "b", "c"][: i % 4],
            "active": i % 2 == 0, "bio": "x" * rng.randrange(10, 200), "nested": {"k": [1, 2, {"z": None}]}} for i in range(2000)]
small = json.dumps(records[0]).encode(); large = json.dumps(records).encode()
lines = b"\n".join(json.dumps(r).encode() for r in records) + b"\n"
def t(f, n):
    best = []
    for _ in range(7):
        s = time.perf_counter()
        for _ in range(n): f()
        best.append((time.perf_counter() - s) / n)
    return statistics.median(best)
boundary = "benchboundary42"
parts = b"".join(
    f'--{boundary}\r\nContent-Disposition: form-data; name="f{i}"; filename="f{i}.bin"\r\n'
    f"Content-Type: application/octet-stream\r\n\r\n".encode() + os.urandom(4096) + b"\r\n" for i in range(200)
) + f"--{boundary}--\r\n".encode()
raw = satchel.Registry(raw_parts=True)
rows = [("small", lambda: satchel.decode(small, "application/json"), lambda: json.loads(small), 20000),
        ("large", lambda: satchel.decode(large, "application/json"), lambda: json.loads(large), 30),
        ("multipart", lambda: [part.value for part in raw.decode(parts, f"multipart/form-data; boundary={boundary}")],
         lambda: [part.raw for part in pymultipart.MultipartParser(io.BytesIO(parts), boundary, len(parts),
                                                                   part_limit=1000)], 100),
        ("lines", lambda: list(satchel.records([lines], "application/x-ndjson")), lambda: [json.loads(l) for l in lines.splitlines() if l], 20)]
for name, a, b, n in rows:
    assert a() == b()
    ta, tb = t(a, n), t(b, n)
    print(f"{name}: satchel {ta*1e6:.1f} us, peer {tb*1e6:.1f} us, ratio {tb/ta:.2f}")
