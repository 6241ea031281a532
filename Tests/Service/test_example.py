"""Examples/Server, a package of its own that mounts BlurServe's routes in its own server in under
30 lines: it builds (make test builds it first), starts on 127.0.0.1, and answers /blur — by path
and with the image as the body — with the same bytes as the command line; /openapi.json is the
registry's.

    EXAMPLE_SERVER=Examples/Server/.build/release/ExampleServer BLURKIT=.build/release/blurkit python3 Tests/Service/test_example.py
"""

import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

from harness import BLURKIT, PACKAGE, make_root

EXAMPLE = os.environ.get("EXAMPLE_SERVER", os.path.join(PACKAGE, "Examples", "Server", ".build", "release", "ExampleServer"))


def fetch(url, data=None):
    try:
        with urllib.request.urlopen(urllib.request.Request(url, data=data), timeout=60) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def main():
    lines = open(os.path.join(PACKAGE, "Examples", "Server", "Sources", "ExampleServer", "main.swift")).read().splitlines()
    assert len(lines) < 30, f"the example is {len(lines)} lines"
    root = make_root()
    server = subprocess.Popen([EXAMPLE, root, "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        line = server.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:\d+", line)
        assert found, f"the example did not start: {line!r} {server.stderr.read() if server.poll() is not None else ''}"
        url = found.group(0)
        folder = tempfile.mkdtemp(prefix="blurkit-example-")
        expected_path = os.path.join(folder, "cli.png")
        subprocess.run([BLURKIT, "blur", os.path.join(root, "photo.png"), expected_path, "--sigma", "3"], check=True)
        expected = open(expected_path, "rb").read()
        status, body = fetch(url + "/blur/photo.png?sigma=3&format=png")
        assert status == 200 and body == expected, f"/blur/photo.png: {status}, {len(body)} bytes against the CLI's {len(expected)}"
        status, body = fetch(url + "/blur?sigma=3&format=png", data=open(os.path.join(root, "photo.png"), "rb").read())
        assert status == 200 and body == expected, f"POST /blur: {status}, {len(body)} bytes against the CLI's {len(expected)}"
        status, body = fetch(url + "/blur/photo.png?sigma=3&sigma=4")
        assert status == 400 and json.loads(body)["parameter"] == "sigma", (status, body)
        status, body = fetch(url + "/openapi.json")
        routes = sorted(p for p in json.loads(body)["paths"] if p.endswith("/{path}"))
        # One route per operation of the registry, as the command line describes it.
        described = json.loads(subprocess.run([BLURKIT, "--describe"], check=True, capture_output=True).stdout)
        assert routes == sorted(f"/{op['flag']}/{{path}}" for op in described), routes
    finally:
        server.terminate()
        server.wait(timeout=10)
    print(f"example server: {len(lines)} lines; /blur answers the command line's bytes, by path and by body")


if __name__ == "__main__":
    sys.exit(main())
