# SPDX-License-Identifier: Apache-2.0
import email.parser
import email.policy
import os

import pytest

import satchel


def parsed(body, content_type):
    """The parts as Python's email package reads them: (name, filename, bytes)."""
    message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(
        b"Content-Type: " + content_type.encode() + b"\r\n\r\n" + body)
    return [(part.get_param("name", header="content-disposition"), part.get_filename(),
             part.get_payload(decode=True)) for part in message.iter_parts()]


def test_a_body_is_an_iterable_a_file_and_has_its_length(tmp_path):
    path = tmp_path / "photo.bin"
    path.write_bytes(bytes(range(256)) * 1000)
    body = satchel.MultipartBody()
    body.add_field("title", "Holidays ✓")
    body.add_data("blob", b"\x00\r\n--x", filename="b.bin")
    body.add_file("photo", path)
    length = len(body)
    whole = b"".join(body)
    assert len(whole) == length
    # Again, from the start (a rewind), and through read().
    assert b"".join(body) == whole
    assert parsed(whole, body.content_type) == [
        ("title", None, "Holidays ✓".encode()), ("blob", "b.bin", b"\x00\r\n--x"),
        ("photo", "photo.bin", path.read_bytes()),
    ]


def test_read_in_pieces_and_frozen_after_the_first():
    body = satchel.MultipartBody("fixed")
    body.add_field("a", "1")
    pieces = []
    while True:
        piece = body.read(7)
        if not piece:
            break
        pieces.append(piece)
    assert all(len(piece) <= 7 for piece in pieces)
    assert b"".join(pieces).startswith(b"--fixed\r\n")
    with pytest.raises(satchel.SatchelError) as raised:
        body.add_field("late", "x")
    assert raised.value.code == "misuse"


def test_a_file_that_changes_size_fails_the_read(tmp_path):
    path = tmp_path / "grows.txt"
    path.write_bytes(b"12345")
    body = satchel.MultipartBody()
    body.add_file("f", path)
    announced = len(body)
    with open(path, "ab") as handle:
        handle.write(b"678")
    assert len(body) == announced
    with pytest.raises(satchel.SatchelError) as raised:
        body.read()
    assert raised.value.code == "io" and "changed size" in raised.value.message


def test_bad_arguments():
    with pytest.raises(satchel.SatchelError) as raised:
        satchel.MultipartBody("bad boundary!")
    assert raised.value.code == "invalidArgument"
    body = satchel.MultipartBody()
    with pytest.raises(satchel.SatchelError) as raised:
        body.add_file("f", "/nonexistent/file")
    assert raised.value.code == "io" and "/nonexistent/file" in raised.value.message
    body.close()
    with pytest.raises(ValueError):
        body.add_field("a", "b")
