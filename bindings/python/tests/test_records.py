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


PAGE = b'{"data":{"items":[{"id":1,"tags":["a"]},{"id":2,"tags":[]}],"total":2},"next":"c2"}'
FEED = (b'<feed xmlns="http://www.w3.org/2005/Atom" xmlns:m="urn:m"><entry><t>1</t></entry>'
        b'<m:entry/><entry><t>2</t></entry></feed>')


def test_each_gives_a_json_documents_elements_as_they_complete():
    reader = satchel.Reader("application/json", each="/data/items")
    seen = []
    for index in range(len(PAGE)):
        for element in reader.feed(PAGE[index:index + 1]):
            seen.append((index, element))
    assert seen == [(38, {"id": 1, "tags": ["a"]}), (57, {"id": 2, "tags": []})]
    assert reader.rest is None  # not before the end
    assert reader.finish() == []
    assert reader.rest == {"data": {"items": [], "total": 2}, "next": "c2"}
    assert list(satchel.records([b"[1, 2", b', "x"]'], "application/json", each="")) == [1, 2, "x"]


def test_each_gives_an_xml_documents_matched_elements():
    entries = list(satchel.records([FEED[:50], FEED[50:]], "application/atom+xml", each="/a:feed/a:entry",
                                   namespaces={"a": "http://www.w3.org/2005/Atom"}))
    assert [entry["children"][0]["children"] for entry in entries] == [["1"], ["2"]]
    assert len(list(satchel.records([FEED], "application/xml", each="//entry"))) == 3
    reader = satchel.Reader("application/xml", each="/feed")
    reader.feed(FEED)
    reader.finish()
    assert reader.rest is None


def test_each_errors_keep_the_elements_before_them():
    reader = satchel.Reader("application/json", each="")
    with pytest.raises(satchel.SatchelError) as caught:
        reader.feed(b'[1, 2, {"a":}]')
    assert caught.value.code == "syntaxError" and "/2" in caught.value.message
    assert caught.value.records == [1, 2]
    with pytest.raises(satchel.SatchelError) as caught:
        list(satchel.records([b'{"data": []}'], "application/json", each="/items"))
    assert caught.value.code == "valueNotFound"
    with pytest.raises(satchel.SatchelError) as caught:
        satchel.Reader("application/json", each="/data").feed(b'{"data": {}}')
    assert caught.value.code == "typeMismatch"
    for bad in [("application/json", "items", None), ("application/xml", "/x:feed", None),
                ("text/plain", "", None), ("application/xml", "/feed", {"a": 1})]:
        with pytest.raises(satchel.SatchelError):
            satchel.Reader(bad[0], each=bad[1], namespaces=bad[2])
