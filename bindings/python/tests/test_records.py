# SPDX-License-Identifier: Apache-2.0
"""satchel.Reader and satchel.records: bodies decoded as they arrive."""
import pytest

import satchel

EVENTS = b"data: a\r\n\r\n: note\nid: 7\nevent: x\ndata: b\n\n"


def test_events_come_out_as_their_last_byte_is_fed():
    reader = satchel.Reader("text/event-stream")
    assert reader.yields_records
    seen = []
    for index in range(len(EVENTS)):
        for event in reader.feed(EVENTS[index:index + 1]):
            seen.append((index, event))
    assert seen == [(9, {"event": "message", "data": "a", "id": ""}),
                    (len(EVENTS) - 1, {"event": "x", "data": "b", "id": "7"})]
    assert reader.finish() == []


def test_json_lines_keep_the_records_before_a_bad_line():
    reader = satchel.Reader("application/x-ndjson")
    with pytest.raises(satchel.SatchelError) as caught:
        reader.feed(b'{"a": 1}\n[2]\n{oops}\n3\n')
    assert caught.value.code == "syntaxError"
    assert "line 3" in caught.value.message
    assert caught.value.records == [{"a": 1}, [2]]
    with pytest.raises(satchel.SatchelError):
        reader.feed(b"4\n")


def test_records_yields_a_last_line_without_its_newline():
    chunks = [b'{"i":', b'0}\n{"i":1}', b"\n\x7b\"i\":2}"]
    assert list(satchel.records(chunks, "application/jsonl")) == [{"i": 0}, {"i": 1}, {"i": 2}]


def test_a_whole_body_format_gives_its_value_at_the_end():
    reader = satchel.Reader("application/json")
    assert not reader.yields_records
    assert reader.feed(b'{"x": [1,') == []
    assert reader.feed(b" 2]}") == []
    assert reader.finish() == [{"x": [1, 2]}]
    assert satchel.Reader(None).feed(b"") == []


def test_limits_and_bad_types():
    registry = satchel.Registry(record_bytes=8)
    with pytest.raises(satchel.SatchelError) as caught:
        satchel.Reader("application/x-ndjson", registry).feed(b'[1]\n"far too long"\n')
    assert caught.value.code == "limitExceeded"
    assert caught.value.records == [[1]]
    with pytest.raises(satchel.SatchelError) as caught:
        satchel.Reader("application/x-unknown")
    assert caught.value.code == "unacceptableContentType"
    with pytest.raises(satchel.SatchelError) as caught:
        satchel.Reader("not a type")
    assert caught.value.code == "invalidMediaType"
