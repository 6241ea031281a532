"""What the service tests share: the blurkit binary, a root folder of test images, and a server
started on 127.0.0.1 (a free port) and stopped by the test."""

import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = os.path.dirname(os.path.dirname(HERE))
BLURKIT = os.environ.get("BLURKIT", os.path.join(PACKAGE, ".build", "release", "blurkit"))
FIXTURE = os.path.join(PACKAGE, "Tests", "Fixtures", "chelsea.png")
TESTDATA = os.path.join(os.path.dirname(PACKAGE), "shared", "testdata")
# Seconds past a time limit after which an answer counts as never given. No test asserts how fast
# the server is (issue 51: the suite passes on a busy laptop and a fast idle machine alike); this
# bound only tells a server that stopped at its limit from one that hung or ran the work to its end.
HANG = 15


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def nginx_head(work):
    """The start of an nginx.conf for a test: one worker in the foreground, its pid, log and temporary
    files in `work`, and an `http {` block left open for the test's upstreams and servers."""
    return f"""
worker_processes 1;
daemon off;
pid {work}/nginx.pid;
error_log {work}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {work}/body; proxy_temp_path {work}/proxy; fastcgi_temp_path {work}/fastcgi;
    uwsgi_temp_path {work}/uwsgi; scgi_temp_path {work}/scgi;
"""


def make_root():
    """A temporary root with photo.png, sub/cat.png and a scene over photo.png."""
    folder = tempfile.mkdtemp(prefix="blurkit-service-")
    root = os.path.join(folder, "root")
    os.makedirs(os.path.join(root, "sub"))
    shutil.copy(FIXTURE, os.path.join(root, "photo.png"))
    shutil.copy(FIXTURE, os.path.join(root, "sub", "cat.png"))
    with open(os.path.join(root, "scene.json"), "w") as f:
        f.write('{"width": 120, "height": 80, "layers": [{"name": "photo", "frame": [0, 0, 120, 80],'
                ' "content": {"image": "photo.png", "mode": "fill"}}]}')
    return root


class Server:
    """`blurkit serve --root ROOT --port 0 …`, as a context manager."""

    def __init__(self, root, *options):
        self.log_path = tempfile.mktemp(suffix=".log")
        self.log = open(self.log_path, "w")
        self.process = subprocess.Popen([BLURKIT, "serve", "--root", root, "--port", "0", *options],
                                        stdout=subprocess.DEVNULL, stderr=self.log)
        deadline = time.time() + 10
        self.url = None
        while time.time() < deadline and self.url is None:
            time.sleep(0.02)
            found = re.search(r"http://127\.0\.0\.1:(\d+)", open(self.log_path).read())
            if found:
                self.url = found.group(0)
                self.port = int(found.group(1))
            if self.process.poll() is not None:
                break
        if self.url is None:
            raise RuntimeError("blurkit serve did not start: " + open(self.log_path).read())

    def get(self, target, data=None, headers=None):
        """(status, headers, body) for `target`; HTTP errors are answers too."""
        request = urllib.request.Request(self.url + target, data=data, headers=headers or {})
        try:
            with urllib.request.urlopen(request, timeout=60) as response:
                return response.status, dict(response.headers), response.read()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read()

    def stop(self, sig=signal.SIGTERM):
        if self.process.poll() is None:
            self.process.send_signal(sig)
        status = self.process.wait(timeout=30)
        self.log.close()
        return status

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
