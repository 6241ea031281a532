"""`blurkit serve` under attack: decompression bombs, outputs that amplify, uploads held open,
idle connections, renders past their time limit, malformed headers — each answered within the
memory budget (the peak resident size read from /proc of the server) and the time limit. Every
bomb is made here."""

import http.client
import io
import os
import signal
import socket
import struct
import sys
import threading
import time
import zlib

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import HANG, Server, make_root  # noqa: E402

MB = 1 << 20
failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def peak_rss(server):
    """The server's peak resident size so far, in bytes (VmHWM)."""
    with open(f"/proc/{server.process.pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


def cpu_seconds(server):
    """User and system CPU time the server has used."""
    with open(f"/proc/{server.process.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def raw(server, data, wait=5):
    """Sends `data` on a fresh connection and returns what comes back within `wait` seconds, until
    the server closes or resets it."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=wait) as s:
        reply = b""
        try:
            s.sendall(data)
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                reply += chunk
                if b"\r\n\r\n" in reply and b"Content-Length" in reply:
                    head, _, body = reply.partition(b"\r\n\r\n")
                    length = int(head.split(b"Content-Length: ")[1].split(b"\r\n")[0])
                    if len(body) >= length:
                        break
        except socket.timeout:
            pass
        except (ConnectionResetError, BrokenPipeError):
            pass  # closed by the server, with what came before
    return reply


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def text_bomb():
    """A 16×16 PNG with 100 zTXt chunks of 8 MB of text each, under 1 MB on disk."""
    header = png_chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
    pixels = png_chunk(b"IDAT", zlib.compress(b"".join(b"\x00" + b"\x80" * 48 for _ in range(16))))
    text = png_chunk(b"zTXt", b"Comment\x00\x00" + zlib.compress(b"A" * (8 * MB), 9))
    return b"\x89PNG\r\n\x1a\n" + header + text * 100 + pixels + png_chunk(b"IEND", b"")


def heavy_scene(layers):
    """A scene of `layers` backdrop blurs over a photo: seconds of work per frame."""
    blurs = ", ".join(
        '{"frame": [0, 0, 1600, 1200], "backdrop": {"blur": 40}}' for _ in range(layers))
    return ('{"width": 1600, "height": 1200, "layers": [{"frame": [0, 0, 1600, 1200], '
            '"content": {"image": "photo.png", "mode": "fill"}}, ' + blurs + "]}")


def bombs(root):
    """Decompression bombs (WebP, GIF, PNG text) on every route that decodes, under a 512 MB budget."""
    Image.new("RGB", (8192, 8192), (40, 90, 160)).save(os.path.join(root, "bomb.webp"), "WEBP", lossless=True, method=0)
    Image.new("RGB", (8192, 8192), (40, 90, 160)).convert("P").save(os.path.join(root, "bomb.gif"), "GIF")
    with open(os.path.join(root, "text.png"), "wb") as f:
        f.write(text_bomb())
    budget = 512
    with Server(root, "--memory-budget", str(budget), "--max-concurrent", "2") as server:
        webp = open(os.path.join(root, "bomb.webp"), "rb").read()
        for target in ["/blur?sigma=8", "/placeholder", "/blurup"]:
            status, _, body = server.get(target, data=webp, headers={"Content-Type": "image/webp"})
            check(status == 413, f"a {len(webp)}-byte WebP of 8192² POSTed to {target}: 413 ({status} {body[:120]!r})")
        for target in ["/blur/bomb.gif?sigma=8", "/placeholder/bomb.gif", "/blurup/bomb.gif", "/blur/bomb.webp?sigma=8"]:
            status, _, body = server.get(target)
            check(status == 413, f"{target}: 413 ({status} {body[:120]!r})")
        # Three at once.
        threads = [threading.Thread(target=server.get, args=("/blur?sigma=8", webp)) for _ in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        status, _, _ = server.get("/blur/text.png?sigma=2&format=png")
        check(status == 200, f"a PNG with 100 zTXt chunks of 8 MB: rendered ({status})")
        peak = peak_rss(server)
        check(peak <= budget * MB, f"peak RSS under the bombs {peak / MB:.0f} MB ≤ --memory-budget {budget} MB")
        # Refused from their headers: no bomb's pixels were ever allocated (a 8192² canvas is 256 MB).
        check(peak <= 128 * MB, f"peak RSS under the bombs {peak / MB:.0f} MB ≤ 128 MB: nothing was allocated for them")


def amplification(root):
    """A small PNG asking for an uncompressed output far over --max-output: 413 before rendering."""
    buffer = io.BytesIO()
    Image.new("RGB", (6000, 6000), (40, 90, 160)).save(buffer, "PNG", compress_level=1)
    small = buffer.getvalue()
    budget = 512
    with Server(root, "--memory-budget", str(budget), "--max-output", "32") as server:
        status, _, body = server.get("/blur?sigma=1&format=pam", data=small)
        check(status == 413 and b"max-output" in body, f"a {len(small) // 1024} KB PNG asking for a 108 MB PAM: 413 ({status} {body[:100]!r})")
        status, _, body = server.get("/blur?sigma=1&format=png", data=small)
        check(status == 200, f"the same as PNG: 200 ({status}, {len(body)} bytes)")
        peak = peak_rss(server)
        check(peak <= budget * MB, f"peak RSS {peak / MB:.0f} MB ≤ --memory-budget {budget} MB")


def held_uploads(root):
    """30 uploads of 16 MB, each holding back its last byte: the bodies held stay within a quarter of the budget."""
    budget = 256
    with Server(root, "--memory-budget", str(budget), "--max-body", "16") as server:
        size = 16 * MB
        sockets, answered = [], 0
        for _ in range(30):
            s = socket.create_connection(("127.0.0.1", server.port), timeout=10)
            s.sendall(b"POST /blur?sigma=2 HTTP/1.1\r\nHost: x\r\nContent-Type: image/png\r\nContent-Length: %d\r\n\r\n" % size)
            sockets.append(s)
        body = b"\x89PNG" + b"\0" * (size - 5)
        for s in sockets:
            s.settimeout(0.2)
            try:
                early = s.recv(4096)
            except socket.timeout:
                early = b""
            if early.startswith(b"HTTP/1.1 503"):
                answered += 1
                continue
            try:
                s.settimeout(10)
                s.sendall(body)
            except OSError:
                pass
        check(answered >= 20, f"{answered} of 30 uploads refused with 503 before their body was sent")
        time.sleep(0.5)
        peak = peak_rss(server)
        check(peak <= budget * MB, f"peak RSS with the uploads held {peak / MB:.0f} MB ≤ --memory-budget {budget} MB")
        status, _, _ = server.get("/healthz")
        check(status == 200, "/healthz while they are held")
        reply = raw(server, b"POST /blur?sigma=2 HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Length: %d\r\n\r\n" % size, wait=3)
        check(reply.startswith(b"HTTP/1.1 503"), f"one more asking for 100 Continue: 503, no 100 ({reply[:30]!r})")
        for s in sockets:
            s.close()


def signed_before_body(root):
    """Under --key an unsigned POST is refused before its body is read."""
    with Server(root, "--key", "00112233445566778899aabbccddeeff") as server:
        started = time.time()
        reply = raw(server, b"POST /blur?sigma=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 60000000\r\n\r\n", wait=5)
        check(reply.startswith(b"HTTP/1.1 403"), f"an unsigned 60 MB POST: 403 before any body ({reply[:40]!r}, {time.time() - started:.2f} s)")


def connections(root):
    """200 idle connections against --max-connections 40: a new client still gets /healthz."""
    with Server(root, "--max-connections", "40") as server:
        idle = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(200)]
        started = time.time()
        status = None
        while status != 200 and time.time() - started < 10:
            try:
                connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
                connection.request("GET", "/healthz")
                status = connection.getresponse().status
                connection.close()
            except OSError:
                time.sleep(0.1)
        check(status == 200, f"/healthz past 200 idle connections: {status} after {time.time() - started:.1f} s")
        for s in idle:
            s.close()
    with Server(root, "--max-connections-per-client", "5") as server:
        held = [socket.create_connection(("127.0.0.1", server.port)) for _ in range(5)]
        time.sleep(0.2)
        reply = raw(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n", wait=3)
        check(reply == b"", f"a sixth connection from one address under --max-connections-per-client 5 is closed ({reply[:30]!r})")
        for s in held:
            s.close()
        time.sleep(0.2)
        status, _, _ = server.get("/healthz")
        check(status == 200, "once they close, the address gets in again")


def time_limits(root):
    """The time limit inside a render (a scene of 1,000 backdrop blurs), a client that gives up, and the drain."""
    with open(os.path.join(root, "heavy.json"), "w") as f:
        f.write(heavy_scene(1000))
    with Server(root, "--timeout", "1") as server:
        started = time.time()
        status, _, body = server.get("/render/heavy.json?time=0&format=png")
        took = time.time() - started
        check(status == 503 and took < 1 + HANG, f"1,000 backdrop blurs under --timeout 1: {status} after {took:.1f} s ({body[:80]!r})")

    with Server(root, "--timeout", "60") as server:
        s = socket.create_connection(("127.0.0.1", server.port))
        s.sendall(b"GET /render/heavy.json?time=0&format=png HTTP/1.1\r\nHost: x\r\n\r\n")
        time.sleep(0.5)
        # Gone: the connection reset (a half-close alone is a client still waiting for its answer).
        s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        s.close()
        time.sleep(1.0)
        before = cpu_seconds(server)
        time.sleep(1.5)
        spent = cpu_seconds(server) - before
        check(spent < 0.3, f"after the client has reset its connection the render stops: {spent:.2f} s of CPU in 1.5 s")

    with Server(root, "--timeout", "2") as server:
        threading.Thread(target=server.get, args=("/render/heavy.json?time=0&format=png",), daemon=True).start()
        time.sleep(0.3)
        started = time.time()
        server.process.send_signal(signal.SIGTERM)
        try:
            server.process.wait(timeout=2 + HANG)
        except Exception:
            pass
        took = time.time() - started
        check(server.process.returncode == 0 and took <= 2 + HANG, f"SIGTERM mid-render under --timeout 2: exited {server.process.returncode} after {took:.1f} s")


def headers_and_caching(root):
    """Request smuggling, bare CRs, a file rewritten in place, a cache's leftovers, the drain's words."""
    cache = os.path.join(os.path.dirname(root), "cache")
    os.makedirs(cache, exist_ok=True)
    leftover = os.path.join(cache, ".0123.bkc.tmp-AbCdEf")
    with open(leftover, "wb") as f:
        f.write(b"x" * 1000)
    os.utime(leftover, (time.time() - 3600, time.time() - 3600))
    picture = os.path.join(root, "tiny.ppm")
    with open(picture, "wb") as f:
        f.write(b"P6\n4 4\n255\n" + bytes(range(48)))
    with Server(root, "--cache", cache) as server:
        check(not os.path.exists(leftover), "a write cut short in the cache is removed at start")
        reply = raw(server, b"POST /blur?sigma=2 HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcdefg")
        check(reply.startswith(b"HTTP/1.1 400"), f"two Content-Length headers: 400 ({reply[:40]!r})")
        reply = raw(server, b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Note: a\rb\r\n\r\n")
        check(reply.startswith(b"HTTP/1.1 400"), f"a bare CR in a header value: 400 ({reply[:40]!r})")

        _, first, _ = server.get("/blur/tiny.ppm?sigma=2&format=png")
        stat = os.stat(picture)
        with open(picture, "r+b") as f:
            f.seek(11)
            f.write(bytes(reversed(range(48))))
        os.utime(picture, ns=(stat.st_atime_ns, stat.st_mtime_ns))
        _, second, _ = server.get("/blur/tiny.ppm?sigma=2&format=png")
        check(first.get("ETag") != second.get("ETag"), "a file rewritten in place, size and mtime restored, gets a new ETag")

        # The drain: a kept-alive connection asking for a render hears that the server is stopping.
        with open(os.path.join(root, "heavy.json"), "w") as f:
            f.write(heavy_scene(60))
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        connection.request("GET", "/healthz")
        connection.getresponse().read()
        threading.Thread(target=server.get, args=("/render/heavy.json?time=0&format=png",), daemon=True).start()
        time.sleep(0.3)
        server.process.send_signal(signal.SIGTERM)
        time.sleep(0.2)
        connection.request("GET", "/blur/photo.png?sigma=3")
        response = connection.getresponse()
        text = response.read()
        check(response.status == 503 and b"shutting down" in text, f"a render asked during the drain: {response.status} {text[:80]!r}")


def fan_out(root):
    """30 placeholders at once, as an HTTP/2 page asks for them: none lost on the default settings."""
    for i in range(30):
        Image.new("RGB", (640, 480), (i * 8, 100, 200 - i * 5)).save(os.path.join(root, f"thumb{i}.jpg"), quality=85)
    with Server(root) as server:
        results = [None] * 30

        def fetch(i):
            results[i] = server.get(f"/placeholder/thumb{i}.jpg")[0]

        threads = [threading.Thread(target=fetch, args=(i,)) for i in range(30)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lost = sum(1 for r in results if r != 200)
        check(lost == 0, f"30 placeholders at once: {lost} lost ({sorted(set(results))})")


if __name__ == "__main__":
    only = sys.argv[1:]
    for test in [bombs, amplification, held_uploads, signed_before_body, connections, time_limits, headers_and_caching, fan_out]:
        if only and test.__name__ not in only:
            continue
        print(f"-- {test.__name__}")
        test(make_root())
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)
    print("all passed")
