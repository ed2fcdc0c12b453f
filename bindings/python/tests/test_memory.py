# SPDX-License-Identifier: Apache-2.0
import gc

import satchel


def resident_bytes():
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * 4096


def test_no_growth_over_100000_decodes():
    registry = satchel.Registry()
    body = b'{"id":18446744073709551615,"tags":["a","b"],"nested":{"x":[1.5,null,true]}}'
    parts = b'--b\r\nContent-Type: application/json\r\n\r\n{"a":1}\r\n--b--\r\n'
    for _ in range(5_000):  # warm up: caches, allocator arenas
        registry.decode(body, "application/json")
    gc.collect()
    before = resident_bytes()
    for index in range(100_000):
        registry.decode(body, "application/json")
        if index % 10 == 0:
            registry.decode(parts, "multipart/mixed; boundary=b")
            registry.decode(b"<r><i>x</i></r>", "application/xml").xpath("//i")
    gc.collect()
    growth = resident_bytes() - before
    assert growth < 8 * 1024 * 1024, f"resident memory grew by {growth} bytes over 100 000 decodes"
