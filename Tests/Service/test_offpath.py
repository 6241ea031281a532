"""`blurkit serve` off the paths test_attacks.py walks: a server locked out by renders cut at their
time limit, phases of work the time limit did not reach, memory held by ICC profiles and by
clients that never read their responses, checks made before the target is decoded, slow bodies,
HTTP framing (RFC 9112), a path swapped between its check and its open, and what the docs promise.
Each test starts its own servers on 127.0.0.1 (port 0), makes its own bombs, reads the server's
peak resident size (VmHWM) from /proc and stops every server it started, by its PID.

    BLURKIT=.build/release/blurkit python3 Tests/Service/test_offpath.py [test …]

It ends with `N passed, M failed` and exits 1 when any check failed."""

import ctypes
import hashlib
import hmac
import http.client
import io
import json
import os
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
import time
import zlib
from contextlib import contextmanager

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import FIXTURE, Server  # noqa: E402
from test_attacks import peak_rss, png_chunk, raw  # noqa: E402

MB = 1 << 20
KEY = "00112233445566778899aabbccddeeff"
passed = []
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    (passed if condition else failures).append(message)


# Servers and requests ----------------------------------------------------------------------------

def stop(server, grace=6):
    """SIGTERM to the server's PID, SIGKILL to it after `grace` seconds; its exit status."""
    process = server.process
    if process.poll() is None:
        os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=grace)
        except subprocess.TimeoutExpired:
            os.kill(process.pid, signal.SIGKILL)
            process.wait()
    if not server.log.closed:
        server.log.close()
    return process.returncode


@contextmanager
def serving(root, *options):
    """`blurkit serve --root ROOT --port 0 OPTIONS`, stopped by its PID whatever happens."""
    server = Server(root, *options)
    try:
        yield server
    finally:
        stop(server)


def fetch(server, target, method="GET", body=None, headers=None, timeout=30):
    """(status, headers with lower-case names, body), or (None, {}, what went wrong)."""
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=timeout)
    try:
        connection.request(method, target, body=body, headers=headers or {})
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except (OSError, http.client.HTTPException) as error:
        return None, {}, repr(error).encode()
    finally:
        connection.close()


def until(server, target, wanted, seconds, **options):
    """Asks `target` until it answers `wanted` (a status) or `seconds` are up; the last answer
    and the seconds it took."""
    started = time.time()
    while True:
        answer = fetch(server, target, timeout=max(1.0, seconds), **options)
        if answer[0] == wanted or time.time() - started >= seconds:
            return answer, time.time() - started
        time.sleep(0.1)


def read_all(port, data, wait=3.0):
    """Sends `data` on a fresh connection; everything that comes back within `wait` seconds, and
    whether the server closed the connection by then."""
    with socket.create_connection(("127.0.0.1", port), timeout=wait) as s:
        reply, closed = b"", False
        deadline = time.time() + wait
        try:
            s.sendall(data)
            while time.time() < deadline:
                s.settimeout(max(0.05, deadline - time.time()))
                chunk = s.recv(65536)
                if not chunk:
                    closed = True
                    break
                reply += chunk
        except socket.timeout:
            pass
        except (ConnectionResetError, BrokenPipeError):
            closed = True
    return reply, closed


def status_of(reply):
    try:
        return int(reply.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def signed(target, key=KEY):
    """`target` signed under `key`, as docs/http-api.md says."""
    signature = hmac.new(bytes.fromhex(key), target.encode(), hashlib.sha256).hexdigest()
    return target + ("&" if "?" in target else "?") + "sig=" + signature


# Images made here ---------------------------------------------------------------------------------

def zero_png(path, width, height, colour_type=0):
    """A PNG of zeros (grey, or RGB with colour type 2) written row by row: a few hundred bytes a
    megapixel."""
    compressor = zlib.compressobj(1)
    row = b"\x00" * (1 + width * (3 if colour_type == 2 else 1))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)))
        data = b"".join(compressor.compress(row) for _ in range(height)) + compressor.flush()
        f.write(png_chunk(b"IDAT", data) + png_chunk(b"IEND", b""))


def png_bytes(image):
    buffer = io.BytesIO()
    image.save(buffer, "PNG")
    return buffer.getvalue()


def folder_with(**files):
    """A temporary folder holding `root/` with `small.png` (64×48); the folder."""
    folder = tempfile.mkdtemp(prefix="blurkit-offpath-")
    os.makedirs(os.path.join(folder, "root"))
    Image.new("RGB", (64, 48), (30, 140, 220)).save(os.path.join(folder, "root", "small.png"))
    return folder


# 1. No lockout -------------------------------------------------------------------------------------

def lockout():
    """Renders cut at the time limit do not lock the server out; /healthz says when renders cannot
    be admitted."""
    folder = folder_with()
    root = os.path.join(folder, "root")
    zero_png(os.path.join(root, "b.png"), 16384, 16384)
    big, small = "/blur/b.png?sigma=8", "/blur/small.png?sigma=2"
    with serving(root, "--timeout", "3") as server:
        started = time.time()
        status, _, body = fetch(server, big)
        took = time.time() - started
        check(status in (503, 413) and took <= 4, f"a {os.path.getsize(os.path.join(root, 'b.png')) // 1024} KB PNG of 16384² under --timeout 3: cut ({status} after {took:.1f} s)")
        (status, headers, body), took = until(server, small, 200, 5)
        check(status == 200, f"then a small render: 200 within --timeout + 2 s ({status} after {took:.1f} s, {body[:90]!r})")
        status, headers, _ = fetch(server, small)
        check(status == 200, f"and again: 200 ({status})")
        status, _, body = fetch(server, small, headers={"If-None-Match": headers.get("etag", '"none"')})
        check(status == 304, f"and with If-None-Match: 304 ({status} {body[:90]!r})")

    with serving(root, "--timeout", "2") as server:
        statuses = set()
        for _ in range(6):
            answers = [None, None]

            def ask(i):
                answers[i] = fetch(server, big)[0]

            threads = [threading.Thread(target=ask, args=(i,)) for i in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            statuses.update(answers)
        check(statuses <= {503, 413}, f"6 rounds of two renders cut at --timeout 2: {sorted(statuses, key=str)}")
        (status, _, body), took = until(server, small, 200, 4)
        check(status == 200, f"then a small render: 200 within --timeout + 2 s ({status} after {took:.1f} s, {body[:90]!r})")

    with serving(root, "--timeout", "3", "--max-concurrent", "1", "--max-queue", "0") as server:
        status, _, body = fetch(server, "/healthz")
        check(status == 200 and body.strip() == b"ok", f"/healthz while idle: 200 ok ({status} {body[:60]!r})")
        worker = threading.Thread(target=fetch, args=(server, big))
        worker.start()
        time.sleep(1)
        status, _, body = fetch(server, "/healthz")
        check(status == 503 and len(body.strip()) > 0,
              f"/healthz while the one slot is busy under --max-concurrent 1 --max-queue 0: 503 with a reason ({status} {body[:90]!r})")
        worker.join()
        (status, _, body), took = until(server, "/healthz", 200, 5)
        check(status == 200 and body.strip() == b"ok", f"/healthz after the render ends: 200 ok ({status} after {took:.1f} s)")
    shutil.rmtree(folder, ignore_errors=True)


TESTS = [lockout]

if __name__ == "__main__":
    only = sys.argv[1:]
    began = time.time()
    for test in TESTS:
        if only and test.__name__ not in only:
            continue
        print(f"-- {test.__name__}", flush=True)
        try:
            test()
        except Exception as error:  # a test that breaks is a failure, and the others still run
            check(False, f"{test.__name__} raised {error!r}")
    print(f"({time.time() - began:.0f} s)")
    print(f"{len(passed)} passed, {len(failures)} failed")
    sys.exit(1 if failures else 0)
