import http.server
import json
import threading
import time

import pytest

import satchel


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def reply(self, status, body, content_type="application/json"):
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        if self.path.startswith("/json"):
            self.reply(200, json.dumps({"path": self.path, "agent": self.headers.get("X-Test")}).encode())
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
