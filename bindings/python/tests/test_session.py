# SPDX-License-Identifier: Apache-2.0
import http.server
import json
import threading
import time

import pytest

import satchel


#: The file the server offers at /file: byte i is (i * 7) % 251.
FILE = bytes((i * 7) % 251 for i in range(300_000))


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    #: The token /protected accepts.
    token = "first"
    #: Requests /cached answered.
    cached_hits = 0

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/file"):
            self.send_file()
        elif self.path == "/redirect":
            self.send_response(302)
            self.send_header("Location", "/json")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path.startswith("/json"):
            self.reply(200, json.dumps({"path": self.path, "agent": self.headers.get("X-Test")}).encode())
        elif self.path.startswith("/cached"):
            Handler.cached_hits += 1
            body = json.dumps({"hits": Handler.cached_hits}).encode()
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store" if "no-store" in self.path else "max-age=60")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/set-cookie":
            self.send_response(200)
            self.send_header("Set-Cookie", "flavour=oat; Path=/; SameSite=Lax")
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif self.path == "/echo-cookie":
            self.reply(200, json.dumps({"cookie": self.headers.get("Cookie")}).encode())
        elif self.path == "/protected":
            if self.headers.get("Authorization") == f"Bearer {Handler.token}":
                self.reply(200, json.dumps({"token": Handler.token}).encode())
            else:
                self.reply(401, b'{"error":"a fresh token is needed"}')
        elif self.path == "/missing":
            self.reply(404, b'{"error":"no such thing"}')
        elif self.path == "/xml":
            self.reply(200, b"<r><i>x</i></r>", "application/xml")
        elif self.path == "/slow":
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Length", str(1 << 20))
            self.end_headers()
            try:
                for _ in range(256):
                    self.wfile.write(b"x" * 4096)
                    self.wfile.flush()
                    time.sleep(0.02)
            except (BrokenPipeError, ConnectionResetError):
                pass
        else:
            self.reply(400, b"{}")

    def send_file(self):
        """FILE with a strong ETag and byte ranges; `?slow` sends it in 16 KiB pieces 20 ms apart."""
        start = 0
        match = self.headers.get("Range", "")
        if match.startswith("bytes=") and match.endswith("-") and self.headers.get("If-Range") == '"v1"':
            start = int(match[len("bytes="):-1])
        body = FILE[start:]
        self.send_response(206 if start else 200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("ETag", '"v1"')
        self.send_header("Content-Length", str(len(body)))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(FILE) - 1}/{len(FILE)}")
        self.end_headers()
        try:
            for offset in range(0, len(body), 16384):
                self.wfile.write(body[offset:offset + 16384])
                self.wfile.flush()
                if "slow" in self.path:
                    time.sleep(0.02)
        except (BrokenPipeError, ConnectionResetError):
            pass

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.reply(200, json.dumps({"type": self.headers.get("Content-Type"), "length": len(body),
                                    "body": body.decode("latin-1")}).encode())


@pytest.fixture(scope="module")
def base_url():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()


def test_get_decodes_by_content_type(base_url):
    with satchel.Session(base_url, headers={"X-Test": "py"}) as session:
        response = session.get("json", params={"q": "a b"})
        assert response.status == 200
        assert response.value == {"path": "/json?q=a%20b", "agent": "py"}
        assert response.header("content-type") == "application/json"
        assert json.loads(response.body) == response.value
        document = session.get("xml").value
    assert document.xpath("//i") == [{"name": "i", "namespace": None, "namespaces": {}, "attributes": {},
                                      "children": ["x"]}]  # outlives the session


def test_post_json_form_and_multipart(base_url):
    with satchel.Session(base_url) as session:
        echoed = session.post("echo", params={"a": [1, 2]}).value
        assert echoed["type"].startswith("application/json") and json.loads(echoed["body"]) == {"a": [1, 2]}
        form = session.post("echo", params={"a": "1"}, as_="form").value
        assert form["body"] == "a=1"
        upload = satchel.MultipartBody("pyboundary")
        upload.add_field("title", "t")
        length = len(upload)
        echoed = session.post("echo", body=upload).value
        assert echoed["type"] == "multipart/form-data; boundary=pyboundary" and echoed["length"] == length
        raw = session.post("echo", body=b"\x00\x01", content_type="application/octet-stream").value
        assert raw["length"] == 2


def test_a_status_outside_2xx_raises_with_the_response(base_url):
    with satchel.Session(base_url) as session:
        with pytest.raises(satchel.SatchelError) as raised:
            session.get("missing")
        assert raised.value.code == "unacceptableStatusCode"
        assert "404" in str(raised.value), str(raised.value)  # the send's message, not a later call's
        assert raised.value.response.status == 404 and raised.value.response.value == {"error": "no such thing"}
        assert session.get("missing", check_status=False).status == 404


def test_progress_reports_and_cancels(base_url):
    seen = []

    def progress(uploaded, upload_total, downloaded, download_total):
        seen.append(downloaded)
        return downloaded >= 64 * 1024

    with satchel.Session(base_url) as session:
        with pytest.raises(satchel.SatchelError) as raised:
            session.get("slow", progress=progress)
        assert raised.value.code == "cancelled"
        assert seen and max(seen) < (1 << 20)
        # An exception in the callback cannot cross C: it cancels too.
        with pytest.raises(satchel.SatchelError) as raised:
            session.get("slow", progress=lambda *_: 1 / 0)
        assert raised.value.code == "cancelled"


def test_transport_failures_are_satchel_errors():
    with satchel.Session(connect_timeout=2) as session:
        with pytest.raises(satchel.SatchelError) as raised:
            session.get("http://127.0.0.1:1/")
        assert raised.value.code == "cannotConnect"
        with pytest.raises(satchel.SatchelError) as raised:
            session.get("not a url")
        assert raised.value.code in ("invalidArgument", "cannotConnect")
    with pytest.raises(ValueError):
        session.get("http://127.0.0.1:1/")


def test_download_is_saved_whole_and_resumes_after_a_cancel(base_url, tmp_path):
    target = tmp_path / "file.bin"
    with satchel.Session(base_url, retries=0) as session:
        with pytest.raises(satchel.SatchelError) as cancelled:
            session.download("file?slow", target, progress=lambda up, ut, down, dt: down >= 100_000)
        assert cancelled.value.code == "cancelled"
        partial = tmp_path / "file.bin.part"
        assert not target.exists() and 100_000 <= partial.stat().st_size < len(FILE)
        on_disk = partial.stat().st_size
        done = session.download("file?slow", target)
        assert done.response.status == 206 and done.resumed_from == on_disk and done.size == len(FILE)
        assert target.read_bytes() == FILE and not partial.exists()
        again = session.download("file", target, resume=False, sync=False)
        assert again.response.status == 200 and again.resumed_from == 0 and target.read_bytes() == FILE
        with pytest.raises(satchel.SatchelError) as missing:
            session.download("missing", tmp_path / "missing.bin")
        assert missing.value.code == "unacceptableStatusCode" and missing.value.response.status == 404
        assert not (tmp_path / "missing.bin").exists() and not (tmp_path / "missing.bin.part").exists()


def test_stream_yields_the_body_in_order_and_pauses_a_slow_consumer(base_url):
    with satchel.Session(base_url) as session:
        received = bytearray()
        with session.stream("GET", "file", buffered_chunks=2) as body:
            for chunk in body:
                received += chunk
                time.sleep(0.002)
        assert bytes(received) == FILE
        assert body.response.status == 200 and body.response.body == b""
        assert body.pauses >= 1  # the consumer fell behind: the transfer was paused


def test_stream_close_cancels_and_errors_are_raised(base_url):
    with satchel.Session(base_url) as session:
        with session.stream("GET", "slow") as body:
            first = next(body)
            assert first
        assert session.get("json").status == 200  # the session goes on
        with pytest.raises(satchel.SatchelError) as missing:
            list(session.stream("GET", "missing"))
        assert missing.value.code == "unacceptableStatusCode"


def test_events_and_metrics(base_url):
    events = []
    with satchel.Session(base_url, on_event=events.append) as session:
        response = session.get("redirect")
    assert response.status == 200 and response.value["path"] == "/json"
    kinds = [event.kind for event in events]
    assert kinds.count("start") == 2 and kinds.count("redirect") == 1 and kinds[-1] == "complete"
    redirect = next(event for event in events if event.kind == "redirect")
    assert redirect.status == 302 and redirect.location.endswith("/json") and redirect.method == "GET"
    metrics = [event.metrics for event in events if event.kind == "metrics"]
    assert metrics and metrics[-1].http_version == "1.1" and metrics[-1].total_ms > 0
    assert events[-1].status == 200 and events[-1].error is None
    assert response.metrics.redirect_count == 1 and response.metrics.bytes_received > 0
    assert response.metrics.http_version == "1.1"


def test_reachability_of_loopback_once_and_watched():
    status = satchel.check_reachability("127.0.0.1")
    assert status.is_reachable and status.interface == "lo" and status.kind == "loopback" and status.index > 0
    with pytest.raises(satchel.SatchelError) as bad:
        satchel.check_reachability("a b")
    assert bad.value.code == "invalidArgument"
    seen = []
    with satchel.ReachabilityMonitor("127.0.0.1", on_change=seen.append) as monitor:
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.01)
        assert seen and seen[0].is_reachable and monitor.status.is_reachable
        with pytest.raises(satchel.SatchelError) as twice:
            monitor.start()
        assert twice.value.code == "misuse"
        monitor.stop()
        assert monitor.status.status == "unknown"


def test_bearer_token_refreshed_once_for_concurrent_401s(base_url):
    refreshes = []

    def refresh():
        refreshes.append(1)
        Handler.token = f"token-{len(refreshes)}"
        return Handler.token

    with satchel.Session(base_url, bearer_token="stale", refresh_token=refresh) as session:
        results = []
        threads = [threading.Thread(target=lambda: results.append(session.get("/protected").value)) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert results == [{"token": "token-1"}] * 8
        assert len(refreshes) == 1


def test_a_refresh_that_raises_fails_the_request(base_url):
    def refresh():
        raise RuntimeError("the token service is down")

    with satchel.Session(base_url, bearer_token="refused", refresh_token=refresh) as session:
        with pytest.raises(satchel.SatchelError) as caught:
            session.get("/protected")
        assert caught.value.code == "invalidArgument"
        assert "refresh callback failed" in str(caught.value)
    with pytest.raises(satchel.SatchelError):
        satchel.Session(base_url, bearer_token="has space")


def test_cookies_are_kept_listed_set_cleared_and_saved(base_url, tmp_path):
    jar = tmp_path / "jar.txt"
    with satchel.Session(base_url, cookie_jar=jar) as session:
        session.get("/set-cookie", as_="raw")
        [cookie] = session.cookies()
        assert cookie["name"] == "flavour" and cookie["value"] == "oat" and cookie["same_site"] == "Lax"
        session.set_cookie("extra", "1", "127.0.0.1", path="/", secure=False)
        assert session.get("/echo-cookie").value == {"cookie": "flavour=oat; extra=1"}
        assert [c["name"] for c in session.cookies(base_url + "/echo-cookie")] == ["flavour", "extra"]
        with pytest.raises(satchel.SatchelError):
            session.set_cookie("bad;name", "1", "127.0.0.1")
    assert (jar.stat().st_mode & 0o777) == 0o600
    with satchel.Session(base_url, cookie_jar=jar) as again:
        assert sorted(c["name"] for c in again.cookies()) == ["extra", "flavour"]
        again.clear_cookies("127.0.0.1")
        assert again.cookies() == []


class UnixHTTPServer(__import__("socketserver").ThreadingUnixStreamServer):
    """The test handler on a unix domain socket (its client address is a path, not a pair)."""

    daemon_threads = True

    def get_request(self):
        request, _ = super().get_request()
        return request, ("unix", 0)


def test_unix_socket_resolve_and_proxy_settings(base_url, tmp_path):
    path = str(tmp_path / "satchel.sock")
    server = UnixHTTPServer(path, Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with satchel.Session("http://localhost/", unix_socket=path) as session:
            assert session.get("json").value["path"] == "/json"
    finally:
        server.shutdown()
    port = base_url.rsplit(":", 1)[1].rstrip("/")
    with satchel.Session(f"http://satchel.test:{port}/", resolve=(f"satchel.test:{port}:127.0.0.1",),
                         rate_limit=(None, 50_000_000), max_connections_per_host=2, http_version="1.1") as session:
        assert session.get("json").value["path"] == "/json"
    with satchel.Session(base_url, proxy="http://127.0.0.1:1", proxy_user=("ann", "pw"), retries=0) as session:
        with pytest.raises(satchel.SatchelError) as caught:
            session.get("json")
        assert caught.value.code == "cannotConnect"
    with satchel.Session(base_url, proxy="http://127.0.0.1:1", noproxy=("127.0.0.1",)) as session:
        assert session.get("json").status == 200
    for bad in ({"http_version": "3"}, {"resolve": ("nohost",)}, {"proxy": "ftp://p:1"},
                {"client_certificate": ("c.pem", None), "certificate_type": "JKS"}):
        with pytest.raises(satchel.SatchelError):
            satchel.Session(base_url, **bad)


def test_a_cache_directory_answers_fresh_responses(base_url, tmp_path):
    directory = tmp_path / "cache"
    with satchel.Session(base_url, cache=directory) as session:
        first = session.get("cached")
        assert first.cache == "stored"
        again = session.get("cached")
        assert again.cache == "hit" and again.value == first.value
        assert session.get("cached", cache_policy="reload").value["hits"] == first.value["hits"] + 1
        assert session.get("cached-no-store").cache == "not-stored (no-store)"
        with pytest.raises(satchel.SatchelError) as caught:
            session.get("cached-elsewhere", cache_policy="only-cache")
        assert caught.value.code == "unacceptableStatusCode" and "only-cache" in str(caught.value)
        with pytest.raises(ValueError):
            session.get("cached", cache_policy="sometimes")
    assert oct(directory.stat().st_mode & 0o777) == "0o700"
    # The next session (another process would do the same) finds what the first stored.
    with satchel.Session(base_url, cache=str(directory)) as later:
        assert later.get("cached", cache_policy="only-cache").cache == "hit"
    with satchel.Session(base_url) as plain:
        assert plain.get("cached").cache is None
    with pytest.raises(satchel.SatchelError):
        satchel.Session(base_url, cache="/dev/null/cache")
