#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Independent multipart parsers and body generators for Satchel's multipart parser tests.

Run with the virtual environment that scripts/setup creates (.venv/bin/python).

  parse --parser multipart|werkzeug|python-multipart --content-type TYPE FILE
      Parses FILE with Python's `multipart` package (strict mode), werkzeug's form parser or
      python-multipart (Starlette's and FastAPI's; from .venv/python-multipart) and prints
      JSON: {"fields": [[name, base64 value], ...], "files": [[name, filename, content type,
      base64 bytes], ...]}, each list in body order.
  senders DIR
      Writes bodies the way other senders write them, for the RFC 2046 boundary characters
      and every escape of names and file names: urllib3 (WHATWG escapes, the boundary unquoted
      in Content-Type) and headers quoted by Python's email package (RFC 9110 backslash
      escapes), as NAME.body, NAME.content-type and NAME.expected.json.
  escapes
      Prints the boundary, names and file names those bodies use as JSON {"boundary": …,
      "names": […], "filenames": […]}, for a body Satchel builds with them.
  generate DIR
      Writes hostile bodies made by urllib3's encode_multipart_formdata and by requests into DIR,
      as NAME.body and NAME.content-type, plus NAME.expected.json with the fields and files that
      went in (bytes as base64).
  capture-curl DIR
      Runs curl -F against a one-shot sink on 127.0.0.1 and saves the exact request body it sent
      as DIR/curl-form.body and DIR/curl-form.content-type (how that fixture was made).
  capture-requests DIR
      Saves the body that requests prepares for a typical form with files as
      DIR/requests-form.body and DIR/requests-form.content-type (how that fixture was made).
"""
import base64
import io
import json
import os
import socket
import subprocess
import sys
import tempfile
import threading


def b64(data):
    return base64.b64encode(data).decode("ascii")


def parse_with_multipart(body, content_type):
    import multipart

    _, options = multipart.parse_options_header(content_type)
    parser = multipart.MultipartParser(
        io.BytesIO(body), options["boundary"], len(body), strict=True,
        part_limit=10_000, headersize_limit=1 << 20, memory_limit=1 << 30, spool_limit=1 << 30)
    fields, files = [], []
    for part in parser:
        if part.filename is None:
            fields.append([part.name, b64(part.raw)])
        else:
            # The Content-Type as sent (part.content_type defaults to application/octet-stream).
            files.append([part.name, part.filename, part.headers.get("Content-Type"), b64(part.raw)])
    return {"fields": fields, "files": files}


def parse_with_werkzeug(body, content_type):
    from werkzeug.formparser import MultiPartParser
    from werkzeug.http import parse_options_header

    _, options = parse_options_header(content_type)
    form, uploads = MultiPartParser(max_form_memory_size=1 << 30).parse(
        io.BytesIO(body), options["boundary"].encode("latin-1"), len(body))
    fields = [[name, b64(value.encode("utf-8"))] for name, value in form.items(multi=True)]
    files = [[name, upload.filename, upload.content_type, b64(upload.read())]
             for name, upload in uploads.items(multi=True)]
    return {"fields": fields, "files": files}


def parse_with_python_multipart(body, content_type):
    sys.path.append(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".venv", "python-multipart"))
    import python_multipart

    fields, files = [], []

    def on_field(field):
        fields.append([field.field_name.decode("utf-8"), b64(field.value or b"")])

    def on_file(upload):
        upload.file_object.seek(0)
        files.append([upload.field_name.decode("utf-8"), upload.file_name.decode("utf-8"),
                      getattr(upload, "content_type", None), b64(upload.file_object.read())])

    python_multipart.parse_form(
        {"Content-Type": content_type.encode("latin-1"), "Content-Length": str(len(body)).encode()},
        io.BytesIO(body), on_field, on_file)
    return {"fields": fields, "files": files}


# Every character RFC 2046 allows in a boundary besides letters and digits, a space inside.
RFC2046_BOUNDARY = "Satchel'()+_,-./:=? x"
# Names and file names with every character that needs an escape in a quoted header value.
ESCAPED_NAMES = ['quote"inside', "back\\slash", "double\\\\back", 'both\\"mixed', "semi;colon=x",
                 "ünïcödé ✓", "trailing\\"]
ESCAPED_FILENAMES = ['say "hi".txt', "folder\\file.txt", "a\\\\b.txt", "semi;colon=x.txt", "résumé.txt"]


def senders(directory):
    from email.utils import quote
    from urllib3 import encode_multipart_formdata

    os.makedirs(directory, exist_ok=True)
    fields = [(name, f"value {index}") for index, name in enumerate(ESCAPED_NAMES)]
    fields += [(f"file{index}", (filename, f"contents {index}".encode(), "text/plain"))
               for index, filename in enumerate(ESCAPED_FILENAMES)]
    # urllib3 writes the boundary unquoted: `boundary=Satchel'()+_,-./:=? x`.
    whatwg = [(n, v) for n, v in fields if "\\" not in n and (isinstance(v, str) or "\\" not in v[0])]
    body, content_type = encode_multipart_formdata(whatwg, boundary=RFC2046_BOUNDARY)
    write(directory, "urllib3-rfc2046", body, content_type, whatwg)

    boundary = RFC2046_BOUNDARY.replace(" ", "")
    chunks = []
    for name, value in fields:
        disposition = f'form-data; name="{quote(name)}"'
        if isinstance(value, tuple):
            disposition += f'; filename="{quote(value[0])}"'
            head = f"Content-Disposition: {disposition}\r\nContent-Type: {value[2]}\r\n"
            data = value[1]
        else:
            head = f"Content-Disposition: {disposition}\r\n"
            data = value.encode("utf-8")
        chunks.append(f"--{boundary}\r\n{head}\r\n".encode("utf-8") + data + b"\r\n")
    body = b"".join(chunks) + f"--{boundary}--\r\n".encode()
    write(directory, "email-quoted", body, f"multipart/form-data; boundary= {boundary} ", fields)


# Names a form may carry that try to break out of a header or a folder.
HOSTILE_NAMES = [
    'quote"inside',
    "cr\rlf\nboth\r\n",
    "semi;colon=value; filename=\"evil\"",
    "ünïcödé ✓ 名前",
    "../../etc/passwd",
    "back\\slash",
    "trailing backslash\\",
    "tab\tand space ",
    "",
]

HOSTILE_FILENAMES = [
    '"quoted".txt',
    "../../../etc/passwd",
    "..\\..\\windows\\system.ini",
    "line\r\nContent-Type: text/html\r\n\r\n.txt",
    "semi;colon.txt",
    "résumé – 履歴書.pdf",
    "name with %25 percent.txt",
]


def boundary_like_payloads(boundary):
    """Binary contents that look like delimiters without being one."""
    b = boundary.encode("ascii")
    return [
        b" --" + b + b"\r\n",                       # not at the start of a line
        b"\r\n--" + b[:-1] + b"\r\n",               # one character short
        b"x\r\n-" + b"\r\n--" + b[:-3],             # prefixes, and the last bytes a prefix
        b"\r\n\r\n--\r\n--" + b"\r" + b"\n-" + b,   # interleaved CR and LF
        bytes(range(256)) * 3 + b"\r",              # every byte, ending with a CR
        b"\n--" + b + b"--\n",                      # a bare-LF delimiter: content in strict parsing
        b"",
    ]


def generate(directory):
    import requests
    from urllib3 import encode_multipart_formdata

    os.makedirs(directory, exist_ok=True)
    boundary = "SatchelHostile7f3a"
    fields = []
    for index, name in enumerate(HOSTILE_NAMES):
        fields.append((name, f"value {index}: {name}"))
    for index, (filename, payload) in enumerate(zip(HOSTILE_FILENAMES, boundary_like_payloads(boundary))):
        fields.append((f"file{index}", (filename, payload, "application/octet-stream")))
    body, content_type = encode_multipart_formdata(fields, boundary=boundary)
    write(directory, "urllib3-hostile", body, content_type, fields)

    data = [("plain", "value"), ("empty", ""), ("multi", "first"), ("multi", "second"), ("ünï", "çødé")]
    files = [
        ("upload", ("report.csv", b"a,b\r\n1,2\r\n", "text/csv")),
        ("upload", ("../etc/passwd", b"--" + b"\r\n--", "application/octet-stream")),
        ("blank", ("", b"", "application/octet-stream")),
    ]
    request = requests.Request("POST", "http://127.0.0.1/", data=data, files=files).prepare()
    write(directory, "requests-hostile", request.body, request.headers["Content-Type"],
          [(n, v) for n, v in data] + [(n, v) for n, v in files])


def write(directory, name, body, content_type, fields):
    with open(os.path.join(directory, name + ".body"), "wb") as handle:
        handle.write(body)
    with open(os.path.join(directory, name + ".content-type"), "w") as handle:
        handle.write(content_type)
    expected = {"fields": [], "files": []}
    for field_name, value in fields:
        if isinstance(value, tuple):
            data = value[1] if isinstance(value[1], bytes) else value[1].encode("utf-8")
            expected["files"].append([field_name, value[0], value[2], b64(data)])
        else:
            expected["fields"].append([field_name, b64(value.encode("utf-8"))])
    with open(os.path.join(directory, name + ".expected.json"), "w") as handle:
        json.dump(expected, handle)


def capture_curl(directory):
    os.makedirs(directory, exist_ok=True)
    work = tempfile.mkdtemp()
    with open(os.path.join(work, "hello.txt"), "wb") as handle:
        handle.write(b"hello\r\nworld\n")
    with open(os.path.join(work, "binary.bin"), "wb") as handle:
        handle.write(bytes(range(256)) + b"\r\n--not-the-boundary\r\n" + bytes(range(255, -1, -1)))
    open(os.path.join(work, "empty.dat"), "wb").close()
    with open(os.path.join(work, "résumé.txt"), "wb") as handle:
        handle.write(b"hello\r\nworld\n")
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(1)
    server.settimeout(30)
    port = server.getsockname()[1]
    captured = {}

    def serve():
        connection, _ = server.accept()
        data = b""
        while b"\r\n\r\n" not in data:
            data += connection.recv(65536)
        head, body = data.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in lines[1:]}
        while len(body) < int(headers["content-length"]):
            body += connection.recv(65536)
        connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        connection.close()
        captured["body"], captured["type"] = body, headers["content-type"]

    thread = threading.Thread(target=serve)
    thread.start()
    subprocess.run([
        "curl", "-s", "-o", "/dev/null",
        "-F", "field=plain value", "-F", "utf8=héllo wörld", "-F", "file=@hello.txt",
        "-F", "blob=@binary.bin;type=application/octet-stream",
        "-F", 'json={"a":[1,2],"b":"x"};type=application/json', "-F", "empty=@empty.dat",
        "-F", "accent=@résumé.txt;type=text/plain",
        "-F", 'renamed=@hello.txt;filename=dir/../x "q".txt',
        f"http://127.0.0.1:{port}/upload"], cwd=work, check=True)
    thread.join()
    server.close()
    with open(os.path.join(directory, "curl-form.body"), "wb") as handle:
        handle.write(captured["body"])
    with open(os.path.join(directory, "curl-form.content-type"), "w") as handle:
        handle.write(captured["type"])


def capture_requests(directory):
    import requests

    png = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489"
                        "0000000d4944415478da63f8ffff3f0005fe02fea7d6a4c80000000049454e44ae426082")
    request = requests.Request(
        "POST", "http://127.0.0.1/profile",
        data={"name": "Ann Lee", "tags": ["a", "b/c"], "bio": "line one\r\nline two"},
        files={"avatar": ("me.png", png, "image/png"), "notes": ("notes.txt", "plain text\n")},
    ).prepare()
    with open(os.path.join(directory, "requests-form.body"), "wb") as handle:
        handle.write(request.body)
    with open(os.path.join(directory, "requests-form.content-type"), "w") as handle:
        handle.write(request.headers["Content-Type"])


def main(arguments):
    if arguments[:1] == ["parse"]:
        parser = arguments[arguments.index("--parser") + 1]
        content_type = arguments[arguments.index("--content-type") + 1]
        with open(arguments[-1], "rb") as handle:
            body = handle.read()
        parse = {"multipart": parse_with_multipart, "werkzeug": parse_with_werkzeug,
                 "python-multipart": parse_with_python_multipart}[parser]
        json.dump(parse(body, content_type), sys.stdout)
    elif arguments[:1] == ["generate"]:
        generate(arguments[1])
    elif arguments[:1] == ["senders"]:
        senders(arguments[1])
    elif arguments[:1] == ["escapes"]:
        json.dump({"boundary": RFC2046_BOUNDARY, "names": ESCAPED_NAMES, "filenames": ESCAPED_FILENAMES}, sys.stdout)
    elif arguments[:1] == ["capture-curl"]:
        capture_curl(arguments[1])
    elif arguments[:1] == ["capture-requests"]:
        capture_requests(arguments[1])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv[1:])
