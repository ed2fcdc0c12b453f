#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Asks a real nginx for several byte ranges of a file and saves its multipart/byteranges answer.

    fetch-byteranges.py FILE RANGE OUT_BODY

Starts nginx (installed by scripts/setup) on a free 127.0.0.1 port serving FILE's folder, sends
`Range: RANGE` (such as `bytes=0-9,100-149`) with Python's urllib, writes the response body to
OUT_BODY and prints the status and the Content-Type on two lines. nginx is stopped on exit.
"""
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    path, ranges, out = sys.argv[1:4]
    root = os.path.dirname(os.path.abspath(path))
    port = free_port()
    with tempfile.TemporaryDirectory() as prefix:
        conf = os.path.join(prefix, "nginx.conf")
        with open(conf, "w") as f:
            f.write(f"""
daemon off; master_process off; worker_processes 1;
pid {prefix}/nginx.pid; error_log {prefix}/error.log;
events {{ worker_connections 16; }}
http {{
  access_log off;
  client_body_temp_path {prefix}/body; proxy_temp_path {prefix}/proxy; fastcgi_temp_path {prefix}/fastcgi;
  uwsgi_temp_path {prefix}/uwsgi; scgi_temp_path {prefix}/scgi;
  types {{ application/octet-stream bin; }}
  server {{ listen 127.0.0.1:{port}; root {root}; }}
}}
""")
        nginx = subprocess.Popen(
            ["nginx", "-p", prefix, "-c", conf], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        try:
            url = f"http://127.0.0.1:{port}/{os.path.basename(path)}"
            for _ in range(100):
                try:
                    with urllib.request.urlopen(urllib.request.Request(url, headers={"Range": ranges})) as response:
                        with open(out, "wb") as f:
                            f.write(response.read())
                        print(response.status)
                        print(response.headers["Content-Type"])
                        return
                except (ConnectionRefusedError, urllib.error.URLError) as error:
                    if nginx.poll() is not None:
                        sys.exit(f"nginx exited: {nginx.stderr.read().decode()}")
                    time.sleep(0.05)
            sys.exit(f"nginx did not answer on port {port}")
        finally:
            # nginx in single-process mode does not always act on SIGTERM; nothing of it is needed.
            nginx.kill()
            nginx.wait(timeout=10)


if __name__ == "__main__":
    main()
