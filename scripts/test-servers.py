#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Real HTTP and HTTPS servers on 127.0.0.1 for Satchel's Transport tests.

Run with the repository's .venv Python (scripts/setup installs httpbin, gunicorn and trustme):

    .venv/bin/python scripts/test-servers.py

Starts, each on a free loopback port:
  - httpbin under gunicorn over plain HTTP, and over TLS three times: with a good certificate,
    an expired one and one for the wrong host name;
  - two instances (two origins) of a small HTTP/1.1 keep-alive server with what httpbin lacks
    (see FastHandler below);
then prints ONE line of JSON on standard output describing them and stays up until its standard
input reaches end of file (the parent closed it or died). Then, or on SIGTERM/SIGINT/SIGHUP, it
kills every child process group and deletes its temporary folder. Diagnostics go to standard
error. Exits 1 when a server fails to start within STARTUP_SECONDS.

Certificates are made at start with trustme in a temporary folder: CA "A" signs a good server
certificate (localhost, 127.0.0.1, ::1), an expired one (same names, not valid after yesterday)
and one for wrong.example only; CA "B" is unrelated. Every pin is the base64 SHA-256 of the
DER SubjectPublicKeyInfo, libcurl's CURLOPT_PINNEDPUBLICKEY form without its "sha256//" prefix.

/large/N body bytes follow one formula: byte i is (i * 7) % 251.
"""

import base64
import ctypes
import datetime
import email.utils
import hashlib
import http.server
import json
import os
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

import trustme
from cryptography import x509
from cryptography.hazmat.primitives import serialization

STARTUP_SECONDS = 30
SLICE = 1 << 20  # bytes per send of /large and per receive of /discard
PERIOD = 251  # /large: byte i is (i * MULTIPLIER) % PERIOD
MULTIPLIER = 7
PATTERN = memoryview(bytes((i * MULTIPLIER) % PERIOD for i in range(PERIOD)) * (SLICE // PERIOD + 2))
DEFAULT_LAST_MODIFIED = 1445412480  # Wed, 21 Oct 2015 07:28:00 GMT
SOCKET_BUFFER = 4 << 20
FOLDER_PREFIX = "satchel-test-servers-"  # then this process id, "-", and a random suffix


def log(message):
    print(f"test-servers: {message}", file=sys.stderr, flush=True)


# ----------------------------------------------------------------------------- certificates

def spki_pin(pem):
    """The base64 SHA-256 of the certificate's DER SubjectPublicKeyInfo."""
    certificate = x509.load_pem_x509_certificate(pem)
    der = certificate.public_key().public_bytes(
        serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


#: The passphrase of certificates["clientKeyEncrypted"].
CLIENT_KEY_PASSPHRASE = "client-key-passphrase"


def make_certificates(folder):
    """Writes the CAs and leaf certificates; returns (paths, key paths, pins)."""
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_a = trustme.CA(organization_name="Satchel test CA A")
    ca_b = trustme.CA(organization_name="Satchel test CA B")
    leaves = {
        "good": ca_a.issue_cert("localhost", "127.0.0.1", "::1"),
        "expired": ca_a.issue_cert("localhost", "127.0.0.1", "::1",
                                   not_before=now - datetime.timedelta(days=30),
                                   not_after=now - datetime.timedelta(days=1)),
        "wrongHost": ca_a.issue_cert("wrong.example"),
        # Client identities (trustme's leaves are good for client authentication too): one
        # from CA A, which fastMutualTLS requires, and one from CA B, which it refuses.
        "client": ca_a.issue_cert("client.satchel.test"),
        "clientOtherCA": ca_b.issue_cert("stranger.satchel.test"),
    }
    paths, keys, pins = {}, {}, {}
    for name, ca in (("caA", ca_a), ("caB", ca_b)):
        paths[name] = os.path.join(folder, f"{name}.pem")
        ca.cert_pem.write_to_path(paths[name])
        pins[name] = spki_pin(ca.cert_pem.bytes())
    for name, leaf in leaves.items():
        paths[name] = os.path.join(folder, f"{name}.pem")
        keys[name] = os.path.join(folder, f"{name}-key.pem")
        with open(paths[name], "wb") as chain:  # the leaf, then intermediates (none here)
            for blob in leaf.cert_chain_pems:
                chain.write(blob.bytes())
        leaf.private_key_pem.write_to_path(keys[name])
        pins[name] = spki_pin(leaf.cert_chain_pems[0].bytes())
    for name in ("client", "clientOtherCA"):
        paths[name + "Key"] = keys[name]
    # The client key again, encrypted with CLIENT_KEY_PASSPHRASE.
    key = serialization.load_pem_private_key(leaves["client"].private_key_pem.bytes(), password=None)
    paths["clientKeyEncrypted"] = os.path.join(folder, "client-key-encrypted.pem")
    with open(paths["clientKeyEncrypted"], "wb") as out:
        out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                    serialization.BestAvailableEncryption(CLIENT_KEY_PASSPHRASE.encode())))
    # Both again as a PKCS #12 bundle, encrypted with the same passphrase.
    from cryptography.hazmat.primitives.serialization import pkcs12
    certificate = x509.load_pem_x509_certificate(leaves["client"].cert_chain_pems[0].bytes())
    paths["clientBundle"] = os.path.join(folder, "client.p12")
    with open(paths["clientBundle"], "wb") as out:
        out.write(pkcs12.serialize_key_and_certificates(
            b"client", key, certificate, None,
            serialization.BestAvailableEncryption(CLIENT_KEY_PASSPHRASE.encode())))
    return paths, keys, pins


# ----------------------------------------------------------------------------- gunicorn

def listening_socket():
    """A socket bound to a free loopback port, listening, inheritable by a child."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(1024)
    sock.set_inheritable(True)
    return sock


def die_with_parent():
    """Runs in the child before exec: SIGKILL it when this script dies, however it dies."""
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


def adopt_orphans():
    """Makes this script the reaper of its descendants whose parent died (PR_SET_CHILD_SUBREAPER),
    so a gunicorn worker killed after its master is reaped here, not left a zombie under init."""
    ctypes.CDLL(None, use_errno=True).prctl(36, 1)


def reap_orphans():
    while True:
        try:
            os.waitpid(-1, 0)
        except ChildProcessError:
            return


GUNICORN_CONFIG = """
import logging
# httpbin warns at import that flasgger (only for its Swagger UI) is missing.
logging.getLogger("httpbin.core").setLevel(logging.ERROR)
"""


def start_gunicorn(folder, sock, certificate=None, key=None):
    """httpbin under gunicorn on `sock` (TLS when a certificate is given); its own process group."""
    config = os.path.join(folder, "gunicorn.conf.py")
    if not os.path.exists(config):
        with open(config, "w") as file:
            file.write(GUNICORN_CONFIG)
    command = [
        sys.executable, "-m", "gunicorn", "httpbin:app",
        "--config", config,
        "--bind", f"fd://{sock.fileno()}",
        "--worker-class", "gthread", "--workers", "1", "--threads", "32",
        "--keep-alive", "30", "--timeout", "120", "--graceful-timeout", "1",
        "--log-level", "error", "--no-control-socket",
        "--worker-tmp-dir", folder,
    ]
    if certificate:
        command += ["--certfile", certificate, "--keyfile", key]
    return subprocess.Popen(command, pass_fds=[sock.fileno()], stdin=subprocess.DEVNULL,
                            stdout=sys.stderr, start_new_session=True, preexec_fn=die_with_parent)


def wait_until_serving(url, child, deadline):
    """Polls `url`/get until it answers 200; raises when the child exits or time runs out."""
    context = ssl._create_unverified_context()
    parsed = urllib.parse.urlsplit(url)
    while True:
        if child.poll() is not None:
            raise RuntimeError(f"the server for {url} exited with status {child.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{url} did not answer within {STARTUP_SECONDS} s")
        try:
            sock = socket.create_connection((parsed.hostname, parsed.port), timeout=1)
            if parsed.scheme == "https":
                sock = context.wrap_socket(sock, server_hostname=parsed.hostname)
            with sock:
                sock.sendall(b"GET /get HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                if sock.recv(12).startswith(b"HTTP/1.1 200"):
                    return
        except OSError:
            pass
        time.sleep(0.05)


# ----------------------------------------------------------------------------- the fast server

class FastHandler(http.server.BaseHTTPRequestHandler):
    """What httpbin lacks, fast enough to move a GiB over loopback. Every path takes any method
    unless noted; request bodies are read (Content-Length or chunked) and dropped.

    POST|PUT|PATCH /discard[?hash=1]   {"bytes": N, "chunked": bool, "contentType": str|null,
                                        "sha256": hex (only with hash=1)}
    GET|HEAD /large/N                  N bytes, byte i = (i * 7) % 251, ETag "large-N" and
        ?etag=X                        Last-Modified; ETag "X" instead
        ?last_modified=EPOCH           Last-Modified at EPOCH seconds instead of 2015-10-21
        Range: bytes=S- | bytes=S-E    206 with Content-Range (416 when S >= N)
        If-Range: ETag | HTTP date     the range only when it equals the current validator,
                                       otherwise 200 with the whole body
        ?cut=K                         close the connection after K body bytes of this response
        ?delay_ms=D                    wait D ms before the response head
        ?pace_ms=P&slice=B             send B-byte slices (default 1 MiB) P ms apart
    /redirect-cross?to=URL[&status=302] status (301, 302, 303, 307 or 308) with Location: URL
    /echo-headers                       {"method", "path", "headers": {lower-case name: value}}
    /retry?key=K&fail=N[&status=503][&retry_after=S]
                                        the first N requests for K get `status` (with
                                        Retry-After: S when given), later ones 200; body
                                        {"key", "attempt", "status"}
    /retry-count?key=K                  {"key", "attempts"} without counting itself
    GET /stall[?body=K][&max_s=60]     a head promising K + 1 bytes, K bytes, then nothing until
                                        the client closes (or max_s seconds)
    GET /records/FORMAT?count=N[&gate=KEY]
                                        N records, chunked, each in its own chunk: FORMAT sse
                                        (`id: I` and `data: {"i":I}` lines), ndjson, json-seq,
                                        multipart (multipart/mixed, JSON parts), or one document
                                        of N elements: json-page ({"data":{"items":[{"i":I},…]},
                                        "next":"cursor"}) or atom (<feed><entry><i>I</i>…);
                                        with gate=KEY record I+1 is sent only once /gate has
                                        been asked for KEY and I (30 s at most, then the
                                        connection closes)
    GET /gate?key=KEY&i=I               opens the gate for record I+1; 204
    GET /event-source?key=KEY&total=T&per=N[&retry=MS][&drop=cut|end][&then=204|json|500][&big=B]
                                        an event stream resuming after the request's
                                        Last-Event-ID: `retry: MS`, then events I (`id: I`,
                                        `data: {"i":I}`) up to N per connection; then, with
                                        drop=cut (the default), half an event and the connection
                                        closed without the body's end, with drop=end the body
                                        ended cleanly; once all T are sent, `then` answers the
                                        next connection (204 by default); big=B sends first an
                                        event whose data is B bytes
    POST /ingest?key=KEY                reads the body line by line, opening the gate (KEY, I)
                                        as line I arrives; {"lines": N, "bytes": N,
                                        "chunked": bool, "sha256": hex}
    GET /await-gate?key=KEY&i=I         204 once the gate (KEY, I) is open; 408 after 10 s
    GET /token?key=KEY[&fail=1]         a new bearer token for KEY, "tok-KEY-N" (N counts the
                                        tokens issued, so refreshes can be counted), which
                                        replaces the previous one; {"token", "issued"};
                                        fail=1 answers 503 instead
    GET /protected?key=KEY              200 {"key", "token"} with `Authorization: Bearer` and
                                        KEY's current token, else 401 with WWW-Authenticate
    ANY /digest?key=KEY[&algorithm=MD5|SHA-256|A][&malformed=1]
                                        HTTP Digest (RFC 7616, qop=auth) for user "user",
                                        password "passwd", any method: 401 with a challenge
                                        (algorithm A as given, or a WWW-Authenticate that does
                                        not parse with malformed=1) until the Authorization
                                        answers it, then 200 {"user", "method", "bytes",
                                        "sha256", "attempts"} of the body sent with the answer;
                                        the body of every request is read whole
    GET /client-certificate             {"names": the DNS names of the client certificate}
                                        (fastMutualTLS)
    GET /set-cookies[/ANY/PATH]?count=N[&bytes=B][&secure=1][&samesite=S][&nopath=1]
                                        N cookies `cI=I` in N Set-Cookie fields, and with B
                                        one more, `big`, whose value is B bytes; secure=1 marks
                                        each `Secure`, samesite=S adds `SameSite=S`, nopath=1
                                        leaves out `Path=/` (the default path is the request's)
    GET /event-source-log?key=KEY       {"lastEventIDs": [the Last-Event-ID of each connection,
                                        "" when none]}
    GET /wrong-length?declared=N&actual=M[&length=TEXT]
                                        a JSON-typed head with Content-Length: N (or the raw
                                        TEXT, repeated for each comma-separated item) and M
                                        bytes of body: fewer than N, then the connection closes;
                                        more than N, and the connection stays open for the next
                                        request as if the response had ended
    ANY /cache-origin?key=KEY[&cc=CC][&expires=S|bad][&age=A][&date=S][&etag=E]
        [&last_modified=S][&vary=NAME][&status=N][&size=B][&location=PATH]
                                        an origin for the HTTP cache's tests that counts what
                                        reaches it: GET answers `status` (200) with the fields
                                        asked for — Cache-Control CC, Expires/Date/Last-Modified
                                        S seconds from now (negative: in the past; expires=bad
                                        an unparsable one), Age A, ETag "E", Vary NAME — and
                                        {"key", "hit": N, "varied": the request's NAME field}
                                        (Last-Modified is S seconds from KEY's first request)
                                        padded to B bytes; If-None-Match "E" or
                                        If-Modified-Since not before Last-Modified gets 304 with
                                        the same fields (Cache-Control CC304 instead with
                                        &cc304=CC304); other methods answer 200 (with Location
                                        PATH when given)
    GET /cache-origin-count?key=KEY     {"key", "hits": requests, "conditional": conditional
                                        requests, "notModified": 304s} without counting itself
    """

    protocol_version = "HTTP/1.1"
    server_version = "SatchelTestServer/1"

    def log_message(self, format, *args):  # noqa: A002 (BaseHTTPRequestHandler's name)
        pass

    def handle_one_request(self):
        try:
            super().handle_one_request()
        except (ConnectionError, TimeoutError):
            self.close_connection = True

    # -- dispatch

    def do_GET(self):
        self.dispatch()

    do_HEAD = do_POST = do_PUT = do_PATCH = do_DELETE = do_OPTIONS = do_GET

    def dispatch(self):
        url = urllib.parse.urlsplit(self.path)
        query = dict(urllib.parse.parse_qsl(url.query, keep_blank_values=True))
        path = url.path
        try:
            if path == "/discard":
                return self.discard(query)
            if path.startswith("/large/"):
                return self.large(int(path[len("/large/"):]), query)
            if path == "/redirect-cross":
                return self.redirect_cross(query)
            if path == "/echo-headers":
                return self.echo_headers(url.path)
            if path == "/retry":
                return self.retry(query)
            if path == "/cache-origin":
                return self.cache_origin(query)
            if path == "/cache-origin-count":
                key = query.get("key", "")
                with self.server.lock:
                    counts = dict(self.server.cache_hits.get(key, {}))
                return self.send_json(200, {"key": key, "hits": counts.get("hits", 0),
                                            "conditional": counts.get("conditional", 0),
                                            "notModified": counts.get("notModified", 0)})
            if path == "/retry-count":
                self.read_body()
                return self.send_json(200, {"key": query.get("key", ""),
                                            "attempts": self.server.attempts.get(query.get("key", ""), 0)})
            if path == "/typed-as":
                return self.typed_as(query)
            if path == "/stall":
                return self.stall(query)
            if path == "/wrong-length":
                return self.wrong_length(query)
            if path.startswith("/records/"):
                return self.records(path[len("/records/"):], query)
            if path == "/event-source":
                return self.event_source(query)
            if path == "/ingest":
                gate = LineGate(self.server, query.get("key", ""))
                count, chunked = self.read_body(gate)
                return self.send_json(200, {"lines": gate.lines, "bytes": count, "chunked": chunked,
                                            "sha256": gate.digest.hexdigest()})
            if path == "/await-gate":
                self.read_body()
                key, index = query.get("key", ""), int(query.get("i", "-1"))
                with self.server.gates:
                    opened = self.server.gates.wait_for(lambda: (key, index) in self.server.opened, timeout=10)
                self.send_response(204 if opened else 408)
                self.send_header("Content-Length", "0")
                return self.end_headers()
            if path == "/token":
                self.read_body()
                key = query.get("key", "")
                if query.get("fail") == "1":
                    return self.send_json(503, {"error": "the token service is down"})
                with self.server.lock:
                    issued = self.server.tokens.get(key, (0, None))[0] + 1
                    self.server.tokens[key] = (issued, f"tok-{key}-{issued}")
                time.sleep(0.05)  # slow enough that concurrent 401s overlap the refresh
                return self.send_json(200, {"token": f"tok-{key}-{issued}", "issued": issued})
            if path == "/protected":
                self.read_body()
                key = query.get("key", "")
                with self.server.lock:
                    current = self.server.tokens.get(key, (0, None))[1]
                if current is not None and self.headers.get("Authorization") == f"Bearer {current}":
                    return self.send_json(200, {"key": key, "token": current})
                return self.send_json(401, {"error": "a fresh token is needed"},
                                      [("WWW-Authenticate", 'Bearer realm="test", error="invalid_token"')])
            if path == "/client-certificate":
                self.read_body()
                peer = self.connection.getpeercert() if hasattr(self.connection, "getpeercert") else None
                names = [value for kind, value in (peer or {}).get("subjectAltName", ()) if kind == "DNS"]
                return self.send_json(200, {"names": names})
            if path == "/digest":
                return self.digest(query)
            if path == "/set-cookies" or path.startswith("/set-cookies/"):
                self.read_body()
                flags = "" if query.get("nopath") == "1" else "; Path=/"
                flags += "; Secure" if query.get("secure") == "1" else ""
                flags += f"; SameSite={query['samesite']}" if "samesite" in query else ""
                cookies = [("Set-Cookie", f"c{i}={i}{flags}") for i in range(int(query.get("count", "0")))]
                if "bytes" in query:
                    cookies.append(("Set-Cookie", "big=" + "b" * int(query["bytes"]) + flags))
                return self.send_json(200, {"sent": len(cookies)}, cookies)
            if path == "/event-source-log":
                self.read_body()
                with self.server.lock:
                    ids = list(self.server.event_sources.get(query.get("key", ""), []))
                return self.send_json(200, {"lastEventIDs": ids})
            if path == "/gate":
                self.read_body()
                with self.server.gates:
                    self.server.opened.add((query.get("key", ""), int(query.get("i", "-1"))))
                    self.server.gates.notify_all()
                self.send_response(204)
                self.send_header("Content-Length", "0")
                return self.end_headers()
            self.read_body()
            self.send_json(404, {"error": f"no such path: {path}"})
        except ValueError as error:
            self.close_connection = True
            self.send_json(400, {"error": str(error)})

    # -- helpers

    def read_body(self, digest=None):
        """Reads the request body in large slices; returns (bytes read, whether chunked)."""
        buffer = self.server.buffers.get()
        try:
            if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
                total = 0
                while True:
                    line = self.rfile.readline(4096)
                    if not line:
                        raise ConnectionError("the request body ended inside a chunk header")
                    size = int(line.split(b";")[0].strip(), 16)
                    if size == 0:
                        while self.rfile.readline(4096) not in (b"\r\n", b"\n", b""):
                            pass  # trailers
                        return total, True
                    total += self.read_exactly(size, buffer, digest)
                    self.rfile.readline(4096)  # the CRLF after the chunk
            length = int(self.headers.get("Content-Length", "0") or "0")
            return self.read_exactly(length, buffer, digest), False
        finally:
            self.server.buffers.put(buffer)

    def read_exactly(self, count, buffer, digest):
        remaining = count
        while remaining:
            got = self.rfile.readinto(buffer[:min(remaining, len(buffer))])
            if not got:
                raise ConnectionError("the request body ended early")
            if digest is not None:
                digest.update(buffer[:got])
            remaining -= got
        return count

    def send_json(self, status, value, extra=()):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        for name, field in extra:
            self.send_header(name, field)
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    # -- endpoints

    def typed_as(self, query):
        """A JSON body (or `head` + `body` × `repeat` + `tail`) under the Content-Type `type`
        asks for (none when `type` is empty), with a Content-Length or, with chunked=1, chunked,
        so that sniffing, deferred decoding and large bodies can be tested."""
        self.read_body()
        if "body" in query:
            repeat = int(query.get("repeat", "1"))
            text = query.get("head", "") + query["body"] * repeat + query.get("tail", "")
            body = text.encode()
        else:
            body = json.dumps({"sniff": "me"}).encode()
        self.send_response(200)
        if query.get("type"):
            self.send_header("Content-Type", query["type"])
        if query.get("chunked") != "1":
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        if self.command != "HEAD":
            for start in range(0, len(body), 65536):
                data = body[start:start + 65536]
                self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.write(b"0\r\n\r\n")

    def discard(self, query):
        if self.command not in ("POST", "PUT", "PATCH"):
            self.read_body()
            return self.send_json(405, {"error": "use POST, PUT or PATCH"}, [("Allow", "POST, PUT, PATCH")])
        digest = hashlib.sha256() if query.get("hash") == "1" else None
        count, chunked = self.read_body(digest)
        answer = {"bytes": count, "chunked": chunked, "contentType": self.headers.get("Content-Type")}
        if digest is not None:
            answer["sha256"] = digest.hexdigest()
        self.send_json(200, answer)

    def large(self, size, query):
        self.read_body()
        if size < 0:
            raise ValueError("negative size")
        etag = '"%s"' % query.get("etag", f"large-{size}")
        last_modified = email.utils.formatdate(int(query.get("last_modified", DEFAULT_LAST_MODIFIED)), usegmt=True)
        start, end, status = 0, size, 200
        requested = self.headers.get("Range")
        if requested and self.range_applies(etag, last_modified):
            bounds = parse_range(requested)
            if bounds is not None:
                if bounds[0] >= size:
                    return self.send_json(416, {"error": "range not satisfiable"}, [("Content-Range", f"bytes */{size}")])
                start, end, status = bounds[0], min(size, bounds[1] + 1 if bounds[1] is not None else size), 206
        delay = int(query.get("delay_ms", "0"))
        if delay:
            time.sleep(delay / 1000)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(end - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", last_modified)
        if status == 206:
            self.send_header("Content-Range", f"bytes {start}-{end - 1}/{size}")
        self.end_headers()
        if self.command == "HEAD":
            return
        cut = int(query["cut"]) if "cut" in query else None
        pace = int(query.get("pace_ms", "0")) / 1000
        piece = max(1, min(SLICE, int(query.get("slice", SLICE))))
        sent, offset = 0, start
        while offset < end:
            count = min(piece, end - offset)
            if cut is not None:
                count = min(count, cut - sent)
                if count <= 0:
                    break
            phase = offset % PERIOD
            self.wfile.write(PATTERN[phase:phase + count])
            sent += count
            offset += count
            if pace and offset < end:
                time.sleep(pace)
        if offset < end:  # cut: the client sees the connection end before Content-Length
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)

    def range_applies(self, etag, last_modified):
        condition = self.headers.get("If-Range")
        if condition is None:
            return True
        if condition.startswith('"') or condition.startswith("W/"):
            return condition == etag  # strong comparison: a weak tag never matches
        return condition == last_modified

    def redirect_cross(self, query):
        self.read_body()
        status = int(query.get("status", "302"))
        if status not in (301, 302, 303, 307, 308) or "to" not in query:
            raise ValueError("needs ?to=URL and a status of 301, 302, 303, 307 or 308")
        self.send_json(status, {"location": query["to"]}, [("Location", query["to"])])

    def echo_headers(self, path):
        self.read_body()
        headers = {}
        for name, field in self.headers.items():
            key = name.lower()
            headers[key] = f"{headers[key]}, {field}" if key in headers else field
        self.send_json(200, {"method": self.command, "path": path, "headers": headers})

    def retry(self, query):
        self.read_body()
        key = query.get("key", "")
        with self.server.lock:
            attempt = self.server.attempts.get(key, 0) + 1
            self.server.attempts[key] = attempt
        if attempt <= int(query.get("fail", "1")):
            status = int(query.get("status", "503"))
            extra = [("Retry-After", query["retry_after"])] if "retry_after" in query else []
        else:
            status, extra = 200, []
        self.send_json(status, {"key": key, "attempt": attempt, "status": status}, extra)

    def cache_origin(self, query):
        self.read_body()
        key = query.get("key", "")
        conditional = "If-None-Match" in self.headers or "If-Modified-Since" in self.headers
        with self.server.lock:
            counts = self.server.cache_hits.setdefault(key, {})
            counts["hits"] = counts.get("hits", 0) + 1
            counts["conditional"] = counts.get("conditional", 0) + (1 if conditional else 0)
            hit = counts["hits"]
        if self.command != "GET":
            extra = [("Location", query["location"])] if "location" in query else []
            return self.send_json(200, {"key": key, "method": self.command}, extra)
        now = time.time()
        extra = [("Date", email.utils.formatdate(now + int(query.get("date", "0")), usegmt=True))]
        if "cc" in query:
            extra.append(("Cache-Control", query["cc"]))
        if "expires" in query:
            expires = query["expires"]
            extra.append(("Expires", "bad" if expires == "bad" else
                          email.utils.formatdate(now + int(expires), usegmt=True)))
        if "age" in query:
            extra.append(("Age", query["age"]))
        if "etag" in query:
            extra.append(("ETag", f'"{query["etag"]}"'))
        modified = None
        if "last_modified" in query:
            # Relative to the key's first request, so that it stays put while a test validates.
            with self.server.lock:
                first = counts.setdefault("first", now)
            modified = int(first + int(query["last_modified"]))
            extra.append(("Last-Modified", email.utils.formatdate(modified, usegmt=True)))
        vary = query.get("vary")
        if vary:
            extra.append(("Vary", vary))
        matches = "etag" in query and self.headers.get("If-None-Match") == f'"{query["etag"]}"'
        since = self.headers.get("If-Modified-Since")
        if not matches and since and modified is not None and "If-None-Match" not in self.headers:
            parsed = email.utils.parsedate_to_datetime(since)
            matches = parsed is not None and parsed.timestamp() >= modified
        if matches:
            with self.server.lock:
                counts["notModified"] = counts.get("notModified", 0) + 1
            self.send_response(304)
            if "cc304" in query:
                extra = [(name, field) for name, field in extra if name != "Cache-Control"]
                extra.append(("Cache-Control", query["cc304"]))
            for name, field in extra:
                self.send_header(name, field)
            self.end_headers()
            return
        value = {"key": key, "hit": hit, "varied": self.headers.get(vary) if vary else None}
        size = int(query.get("size", "0"))
        if size:
            value["padding"] = ""
            value["padding"] = "x" * max(0, size - len(json.dumps(value).encode()))
        self.send_json(int(query.get("status", "200")), value, extra)

    def digest(self, query):
        digest = hashlib.sha256()
        count, _ = self.read_body(digest)
        key = query.get("key", "")
        with self.server.lock:
            attempts = self.server.attempts.get(("digest", key), 0) + 1
            self.server.attempts[("digest", key)] = attempts
        algorithm = query.get("algorithm", "MD5")
        hash_name = {"MD5": "md5", "SHA-256": "sha256"}.get(algorithm, "md5")

        def h(text):
            return hashlib.new(hash_name, text.encode()).hexdigest()

        answer = self.headers.get("Authorization", "")
        if answer.startswith("Digest "):
            fields = dict((name.strip(), value.strip().strip('"')) for name, _, value in
                          (part.partition("=") for part in answer[len("Digest "):].split(",")))
            expected = h(":".join([h(f"user:satchel:passwd"), fields.get("nonce", ""), fields.get("nc", ""),
                                   fields.get("cnonce", ""), "auth", h(f"{self.command}:{fields.get('uri', '')}")]))
            if fields.get("username") == "user" and fields.get("response") == expected:
                return self.send_json(200, {"user": "user", "method": self.command, "bytes": count,
                                            "sha256": digest.hexdigest(), "attempts": attempts})
        if query.get("malformed") == "1":
            challenge = 'Digest realm="satchel, nonce=, qop=="auth'
        else:
            nonce = base64.b64encode(os.urandom(12)).decode()
            challenge = f'Digest realm="satchel", qop="auth", nonce="{nonce}", opaque="o", algorithm={algorithm}'
        return self.send_json(401, {"error": "digest credentials needed", "attempts": attempts},
                              [("WWW-Authenticate", challenge)])

    def wrong_length(self, query):
        self.read_body()
        declared, actual = int(query.get("declared", "10")), int(query.get("actual", "5"))
        lengths = query["length"].split(",") if "length" in query else [str(declared)]
        head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
        head += "".join(f"Content-Length: {length}\r\n" for length in lengths) + "\r\n"
        body = (b'"' + b"x" * max(0, actual - 2) + b'"')[:actual]
        self.wfile.write(head.encode("latin-1") + body)
        self.wfile.flush()
        if actual < declared:
            self.close_connection = True
            self.connection.shutdown(socket.SHUT_RDWR)

    # Each record's text, given its index and the count. A multipart part ends with the next
    # delimiter line (the closing one for the last), so the client can finish it at once.
    RECORD_FORMATS = {
        "sse": ("text/event-stream", lambda i, n: f'id: {i}\ndata: {{"i":{i}}}\n\n'),
        "ndjson": ("application/x-ndjson", lambda i, n: f'{{"i":{i}}}\n'),
        "json-seq": ("application/json-seq", lambda i, n: f'\x1e{{"i":{i}}}\n'),
        "multipart": ("multipart/mixed; boundary=rec",
                      lambda i, n: ("--rec\r\n" if i == 0 else "")
                      + f'Content-Type: application/json\r\n\r\n{{"i":{i}}}\r\n--rec'
                      + ("--\r\n" if i == n - 1 else "\r\n")),
        # One large document whose elements are the records (Session.records(for:each:)).
        "json-page": ("application/json",
                      lambda i, n: ('{"data":{"items":[' if i == 0 else ",") + f'{{"i":{i}}}'
                      + (']},"next":"cursor"}' if i == n - 1 else "")),
        "atom": ("application/atom+xml",
                 lambda i, n: ('<feed xmlns="http://www.w3.org/2005/Atom">' if i == 0 else "")
                 + f"<entry><i>{i}</i></entry>" + ("</feed>" if i == n - 1 else "")),
    }

    def records(self, format_name, query):
        self.read_body()
        if format_name not in self.RECORD_FORMATS:
            raise ValueError(f"no record format {format_name}")
        content_type, record = self.RECORD_FORMATS[format_name]
        count = int(query.get("count", "3"))
        gate = query.get("gate")
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        for index in range(count):
            if gate is not None and index > 0:
                with self.server.gates:
                    if not self.server.gates.wait_for(lambda: (gate, index - 1) in self.server.opened, timeout=30):
                        self.close_connection = True
                        return
            data = record(index, count).encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()
        self.wfile.write(b"0\r\n\r\n")

    def event_source(self, query):
        self.read_body()
        key = query.get("key", "")
        last_id = self.headers.get("Last-Event-ID")
        with self.server.lock:
            self.server.event_sources.setdefault(key, []).append(last_id or "")
        start = int(last_id) + 1 if last_id else 0
        total, per = int(query.get("total", "3")), int(query.get("per", "1"))
        if start >= total:
            then = query.get("then", "204")
            if then == "json":
                return self.send_json(200, {"events": "over"})
            self.send_response(int(then))
            self.send_header("Content-Length", "0")
            return self.end_headers()
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()

        def chunk(text):
            data = text.encode()
            self.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
            self.wfile.flush()

        if "retry" in query:
            chunk(f"retry: {query['retry']}\n")
        if "big" in query:  # one event whose data is `big` bytes, before the others
            chunk("data: " + "x" * int(query["big"]) + "\n\n")
        for index in range(start, min(start + per, total)):
            chunk(f'id: {index}\ndata: {{"i":{index}}}\n\n')
        if query.get("drop", "cut") == "cut":
            chunk('data: {"i":"cut off"')
            self.close_connection = True
            return
        self.wfile.write(b"0\r\n\r\n")

    def stall(self, query):
        self.read_body()
        body = int(query.get("body", "0"))
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(body + 1))
        self.end_headers()
        self.wfile.write(PATTERN[:min(body, SLICE)])
        self.close_connection = True
        self.connection.settimeout(float(query.get("max_s", "60")))
        try:
            while self.connection.recv(65536):
                pass
        except OSError:
            pass


class LineGate:
    """A digest for read_body that counts the body's lines and opens the gate (key, I) as line I
    arrives, so a client can wait until the server has a record before it writes the next."""

    def __init__(self, server, key):
        self.server, self.key, self.lines = server, key, 0
        self.digest = hashlib.sha256()

    def update(self, data):
        self.digest.update(data)
        count = bytes(data).count(b"\n")
        if count:
            with self.server.gates:
                for index in range(self.lines, self.lines + count):
                    self.server.opened.add((self.key, index))
                self.lines += count
                self.server.gates.notify_all()


def parse_range(field):
    """(start, end or None) of a single `bytes=S-` or `bytes=S-E` range; None otherwise."""
    unit, _, spec = field.partition("=")
    if unit.strip().lower() != "bytes" or "," in spec:
        return None
    first, dash, last = spec.strip().partition("-")
    if not dash or not first.isdigit() or (last and not last.isdigit()):
        return None
    if last and int(last) < int(first):
        return None
    return int(first), int(last) if last else None


class BufferPool:
    """Reusable 1 MiB receive buffers, one per request in progress."""

    def __init__(self):
        self.lock = threading.Lock()
        self.free = []

    def get(self):
        with self.lock:
            return self.free.pop() if self.free else memoryview(bytearray(SLICE))

    def put(self, buffer):
        with self.lock:
            self.free.append(buffer)


class FastServer(http.server.ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 1024

    def __init__(self, host="127.0.0.1"):
        super().__init__((host, 0), FastHandler)
        self.lock = threading.Lock()
        self.attempts = {}
        self.cache_hits = {}
        self.gates = threading.Condition()
        self.opened = set()
        self.event_sources = {}
        self.tokens = {}
        self.buffers = BufferPool()

    def server_bind(self):
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SOCKET_BUFFER)
        self.socket.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SOCKET_BUFFER)
        super().server_bind()

    def get_request(self):
        connection, address = super().get_request()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        return connection, address

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError, ssl.SSLError)):
            super().handle_error(request, client_address)


def start_fast_server(host="127.0.0.1", tls=None):
    server = FastServer(host)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True, do_handshake_on_connect=False)
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.5}, daemon=True).start()
    return server


# ----------------------------------------------------------------------------- main

def remove_stale_folders():
    """Deletes the folders of earlier runs that were killed (SIGKILL leaves no time to clean up)."""
    base = tempfile.gettempdir()
    for name in os.listdir(base):
        parts = name.split("-")
        if name.startswith(FOLDER_PREFIX) and len(parts) > 4 and parts[3].isdigit():
            try:
                os.kill(int(parts[3]), 0)
            except ProcessLookupError:
                shutil.rmtree(os.path.join(base, name), ignore_errors=True)
            except OSError:
                pass


def main():
    # A parent may start this script with signals blocked (Foundation's Process does): unblock
    # them here, and so for gunicorn, which inherits the mask and stops on SIGTERM.
    signal.pthread_sigmask(signal.SIG_SETMASK, [])
    adopt_orphans()
    remove_stale_folders()
    folder = tempfile.mkdtemp(prefix=f"{FOLDER_PREFIX}{os.getpid()}-")
    children = []

    def stop(*_):
        for child in children:
            try:
                os.killpg(child.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 2
        for child in children:
            try:
                child.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                pass
            try:
                os.killpg(child.pid, signal.SIGKILL)  # the workers too, even if the master is gone
            except ProcessLookupError:
                pass
            child.wait()
        reap_orphans()
        shutil.rmtree(folder, ignore_errors=True)

    def on_signal(number, _frame):
        stop()
        os._exit(128 + number)

    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, on_signal)

    try:
        paths, keys, pins = make_certificates(folder)
        servers = {"httpbin": (None, "http"), "httpbinTLS": ("good", "https"),
                   "expiredTLS": ("expired", "https"), "wrongHostTLS": ("wrongHost", "https")}
        urls = {}
        for name, (certificate, scheme) in servers.items():
            sock = listening_socket()
            port = sock.getsockname()[1]
            child = start_gunicorn(folder, sock, paths.get(certificate), keys.get(certificate))
            sock.close()  # gunicorn holds it now
            children.append(child)
            urls[name] = (f"{scheme}://127.0.0.1:{port}", child)
        fast, other = start_fast_server(), start_fast_server()
        # 127.0.0.2: loopback, but not a name libcurl (or a browser) counts as a secure context
        # (only localhost, 127.0.0.1 and ::1 are), for Secure-cookie tests.
        plain_host = start_fast_server("127.0.0.2")
        # TLS that requires a client certificate from CA A (the handshake happens in the
        # handler's thread, on its first read). TLS 1.2 at most, so that a refused certificate
        # fails the handshake itself: with TLS 1.3 the server's alert comes after the client's
        # side of the handshake, and the client may see its request's write fail first.
        mutual = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        mutual.maximum_version = ssl.TLSVersion.TLSv1_2
        mutual.load_cert_chain(paths["good"], keys["good"])
        mutual.verify_mode = ssl.CERT_REQUIRED
        mutual.load_verify_locations(paths["caA"])
        mutual_tls = start_fast_server(tls=mutual)
        deadline = time.monotonic() + STARTUP_SECONDS
        for url, child in urls.values():
            wait_until_serving(url, child, deadline)
        description = {name: url for name, (url, _) in urls.items()}
        description.update({
            "fast": f"http://127.0.0.1:{fast.server_address[1]}",
            "fastOtherOrigin": f"http://127.0.0.1:{other.server_address[1]}",
            "fastPlainHost": f"http://127.0.0.2:{plain_host.server_address[1]}",
            "fastMutualTLS": f"https://127.0.0.1:{mutual_tls.server_address[1]}",
            "clientKeyPassphrase": CLIENT_KEY_PASSPHRASE,
            "certificates": paths,
            "pins": pins,
            "directory": folder,
            "processGroups": [child.pid for child in children],
            "largeByte": f"(i * {MULTIPLIER}) % {PERIOD}",
        })
        print(json.dumps(description), flush=True)
        while sys.stdin.buffer.read(65536):
            pass
    except Exception as error:  # report, clean up, fail
        log(f"failed: {error}")
        stop()
        sys.exit(1)
    stop()


if __name__ == "__main__":
    main()
