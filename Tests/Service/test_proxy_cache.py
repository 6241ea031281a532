"""Behind a real cache (issue 51): Debian's nginx with `proxy_cache` in front of two replicas of
`blurkit serve --key`, all on 127.0.0.1, started and stopped here by PID.

- Accept negotiation through the cache: a client that takes WebP and one that takes only PNG each get
  their format, the second time from nginx's cache too (`Vary: Accept` keeps the variants apart).
- An expiring signed URL is cached only until it expires: once past `expires=`, nginx no longer
  serves it from its cache and the replica refuses it (403).
- Revalidation: a second nginx site keeps answers one second whatever they say, then asks the
  replica again with `If-None-Match` (`proxy_cache_revalidate`): the replica answers 304, nginx
  serves the body it kept (`REVALIDATED`), and a client's own `If-None-Match` gets 304 through it.

No check asserts how fast anything is: waits are for an expiry to pass.

    BLURKIT=.build/release/blurkit python3 Tests/Service/test_proxy_cache.py

It ends with `N passed, M failed` and exits 1 when any check failed."""

import hashlib
import hmac
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HANG, Server, free_port, make_root, nginx_head  # noqa: E402

KEY = "00112233445566778899aabbccddeeff"
passed, failures = [], []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message, flush=True)
    (passed if condition else failures).append(message)


def signed(target):
    signature = hmac.new(bytes.fromhex(KEY), target.encode(), hashlib.sha256).hexdigest()
    return target + ("&" if "?" in target else "?") + "sig=" + signature


def fetch(port, target, headers=None):
    """(status, headers with lower-case names, body) of GET `target` on 127.0.0.1:`port`."""
    request = urllib.request.Request(f"http://127.0.0.1:{port}{target}", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=HANG) as response:
            return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except urllib.error.HTTPError as error:
        return error.code, {k.lower(): v for k, v in error.headers.items()}, error.read()


def metric(server, status):
    """How many /blur requests the replica answered with `status`."""
    text = server.get("/metrics")[2].decode()
    for line in text.splitlines():
        if line.startswith(f'blurkit_requests_total{{route="blur",status="{status}"}}'):
            return int(float(line.split()[-1]))
    return 0


def nginx_config(work, replicas, honest, forced):
    upstream = "".join(f"        server 127.0.0.1:{r.port};\n" for r in replicas)
    common = """            proxy_pass http://blurkit;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            add_header X-Proxy-Cache $upstream_cache_status always;"""
    return f"""
{nginx_head(work)}
    proxy_cache_path {work}/honest keys_zone=honest:1m;
    proxy_cache_path {work}/forced keys_zone=forced:1m;
    upstream blurkit {{
{upstream}        keepalive 8;
    }}
    # What the replicas say is what nginx keeps.
    server {{
        listen 127.0.0.1:{honest};
        location / {{
            proxy_cache honest;
{common}
        }}
    }}
    # Kept a second whatever the replicas say, then revalidated with If-None-Match.
    server {{
        listen 127.0.0.1:{forced};
        location / {{
            proxy_cache forced;
            proxy_ignore_headers Cache-Control Expires;
            proxy_cache_valid 200 1s;
            proxy_cache_revalidate on;
{common}
        }}
    }}
}}
"""


def main():
    root = make_root()
    work = tempfile.mkdtemp(prefix="blurkit-proxy-cache-")
    os.chmod(work, 0o777)  # nginx's workers (nobody when started as root) write its caches here
    replicas = [Server(root, "--key", KEY), Server(root, "--key", KEY)]
    honest, forced = free_port(), free_port()
    config = os.path.join(work, "nginx.conf")
    with open(config, "w") as f:
        f.write(nginx_config(work, replicas, honest, forced))
    nginx = subprocess.Popen([shutil.which("nginx") or "/usr/sbin/nginx", "-c", config, "-p", work], stderr=subprocess.PIPE)
    try:
        for _ in range(200):
            try:
                socket.create_connection(("127.0.0.1", honest), timeout=0.2).close()
                socket.create_connection(("127.0.0.1", forced), timeout=0.2).close()
                break
            except OSError:
                time.sleep(0.05)

        # 1. Accept negotiation through the cache.
        target = signed("/blur/photo.png?sigma=3")
        for round_ in ("first", "second"):
            for accept, wanted in (("image/webp,image/*", "image/webp"), ("image/png", "image/png")):
                status, headers, body = fetch(honest, target, {"Accept": accept})
                check(status == 200 and headers.get("content-type") == wanted and "accept" in headers.get("vary", "").lower(),
                      f"{round_} ask with Accept: {accept}: {wanted} with Vary: Accept ({status} {headers.get('content-type')}, "
                      f"Vary {headers.get('vary')}, nginx {headers.get('x-proxy-cache')})")
                if round_ == "second":
                    check(headers.get("x-proxy-cache") == "HIT", f"the second ask with Accept: {accept} comes from nginx's cache ({headers.get('x-proxy-cache')})")

        # 2. An expiring URL: cached until it expires, never after.
        expires = int(time.time()) + 4
        target = signed(f"/blur/photo.png?sigma=4&format=png&expires={expires}")
        status, headers, _ = fetch(honest, target)
        control = headers.get("cache-control", "")
        check(status == 200 and "immutable" not in control and "max-age=" in control,
              f"a URL expiring in 4 s: 200, cacheable until then at most ({control})")
        left = int(control.split("max-age=")[-1].split(",")[0]) if "max-age=" in control else -1
        check(0 <= left <= 4, f"its max-age is the seconds left, at most 4 ({left})")
        while time.time() < expires + 2.5:  # past the second nginx counts it fresh in
            time.sleep(0.2)
        status, headers, _ = fetch(honest, target)
        check(status == 403 and headers.get("x-proxy-cache") != "HIT",
              f"once expired, through the same cache: 403 from a replica, not the kept 200 ({status}, nginx {headers.get('x-proxy-cache')})")

        # 3. Revalidation through the proxy.
        target = signed("/blur/photo.png?sigma=5&format=png")
        status, headers, body = fetch(forced, target)
        etag = headers.get("etag")
        check(status == 200 and etag, f"through the revalidating site: 200 with an ETag ({status} {etag})")
        before = sum(metric(r, 304) for r in replicas)
        # nginx keeps an entry "1 s" in whole seconds (fresh for one to two): ask until it stops
        # answering from its cache alone.
        started = time.time()
        while True:
            time.sleep(0.5)
            status, headers, again = fetch(forced, target)
            if headers.get("x-proxy-cache") != "HIT" or time.time() - started > HANG:
                break
        after = sum(metric(r, 304) for r in replicas)
        check(status == 200 and again == body and headers.get("x-proxy-cache") == "REVALIDATED" and after == before + 1,
              f"after a second nginx asks the replica with If-None-Match: a 304 there, the kept body here "
              f"({status}, nginx {headers.get('x-proxy-cache')}, replicas' 304s {before} → {after})")
        status, headers, body = fetch(forced, target, {"If-None-Match": etag})
        check(status == 304 and not body and headers.get("content-length") in (None, "0"),
              f"a client's If-None-Match through nginx: 304 ({status}, Content-Length {headers.get('content-length')})")
    finally:
        nginx.send_signal(signal.SIGQUIT)
        try:
            nginx.wait(timeout=HANG)
        except subprocess.TimeoutExpired:
            nginx.kill()
            nginx.wait()
        for server in replicas:
            if server.process.poll() is None:
                server.stop()
        if not failures:
            shutil.rmtree(work, ignore_errors=True)
    print(f"{len(passed)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
