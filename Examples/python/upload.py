#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Build a multipart/form-data body from files and upload it with progress, through libsatchel.

    upload.py URL FILE...

Each FILE becomes a part "file1", "file2", ... streamed from disk; progress goes to stderr and
the decoded response is printed as JSON. Exit status 0, or 1 with libsatchel's message.
"""
import ctypes
import sys

from satchel_ctypes import NTS, PROGRESS, Handle, SatchelError, check, lib, to_json


def main(arguments):
    if len(arguments) < 2:
        print("usage: upload.py URL FILE...", file=sys.stderr)
        return 64
    url, paths = arguments[0], arguments[1:]
    multipart, session, request, response = Handle(), Handle(), Handle(), Handle()
    reports = []

    @PROGRESS
    def progress(userdata, uploaded, upload_total, downloaded, download_total):
        reports.append(uploaded)
        print(f"\rupload.py: {uploaded} of {upload_total} bytes", end="", file=sys.stderr)
        return 0

    try:
        check(lib.satchel_multipart_create(ctypes.byref(multipart), None, 0), "multipart")
        check(lib.satchel_multipart_add_field(multipart, b"note", NTS, b"uploaded by Examples/python/upload.py", NTS), "field")
        for index, path in enumerate(paths, start=1):
            check(lib.satchel_multipart_add_file(multipart, f"file{index}".encode(), NTS, path.encode(), None, 0, None, 0), path)
        length = ctypes.c_int64()
        check(lib.satchel_multipart_content_length(ctypes.byref(length), multipart), "length")
        print(f"upload.py: {length.value} bytes in {len(paths) + 1} parts", file=sys.stderr)
        check(lib.satchel_session_create(ctypes.byref(session), None, 0, None), "session")
        check(lib.satchel_request_create(ctypes.byref(request), b"POST", NTS, url.encode(), NTS), "request")
        check(lib.satchel_request_set_body_multipart(request, multipart), "body")
        multipart = Handle()  # the request owns the builder now
        check(lib.satchel_request_set_progress(request, progress, None), "progress")
        status = lib.satchel_session_send(ctypes.byref(response), session, request)
        print(file=sys.stderr)
        check(status, url)
        print(f"upload.py: HTTP {lib.satchel_response_status(response)} after {len(reports)} progress reports", file=sys.stderr)
        value = lib.satchel_response_value(response)
        if value:
            print(to_json(value, pretty=True))
    except SatchelError as error:
        print(f"upload.py: {error}", file=sys.stderr)
        return 1
    finally:
        lib.satchel_response_free(response)
        lib.satchel_request_free(request)
        lib.satchel_multipart_free(multipart)
        lib.satchel_session_free(session)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
