# SPDX-License-Identifier: Apache-2.0
"""A second harness for the JSON rows of bench.py: a fixed number of calls per sample, the median
of seven samples, Satchel and json one after the other (not interleaved). Its ratios must agree
with bench.py's for a figure to stand.

    SATCHEL_LIBRARY=… python second_harness.py
"""
import json, random, statistics, time, sys
import satchel
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
rows = [("small", lambda: satchel.decode(small, "application/json"), lambda: json.loads(small), 20000),
        ("large", lambda: satchel.decode(large, "application/json"), lambda: json.loads(large), 30),
        ("lines", lambda: list(satchel.records([lines], "application/x-ndjson")), lambda: [json.loads(l) for l in lines.splitlines() if l], 20)]
for name, a, b, n in rows:
    assert a() == b()
    ta, tb = t(a, n), t(b, n)
    print(f"{name}: satchel {ta*1e6:.1f} us, json {tb*1e6:.1f} us, ratio {tb/ta:.2f}")
