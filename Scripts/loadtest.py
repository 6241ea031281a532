#!/usr/bin/env python3
"""`make loadtest`: blurkit serve and thumbor under wrk on loopback, in the same run.

For each route (a σ 8 blur of a 1920×1080 JPEG, and its placeholder) and each concurrency (4, 8,
32, 128), wrk runs LOADTEST_SECONDS (default 30) against blurkit serve and against thumbor (one process
per core, the file loader on the same folder, filters:blur(24,8) and a 32-px fit-in). Reported:
requests/s, p50/p99 latency, statuses and socket errors, peak RSS. Then pages of 30 thumbnails as
browsers ask for them — one page over 6 connections, two pages at once, 30 requests at once (an
HTTP/2 page) — counting the images lost (not 200 after one retry that honours Retry-After), and a
SIGTERM in the middle of a run (the server exits 0; every answered request is a 200 or a 503). Prints a Markdown report; writes it
to docs/loadtest.md under one header line (the machine, the date, the commit)."""

import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request

from PIL import Image

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BLURKIT = os.path.join(PACKAGE, ".build", "release", "blurkit")
THUMBOR = os.path.join(PACKAGE, ".build", "thumbor-venv", "bin", "thumbor")
SECONDS = int(os.environ.get("LOADTEST_SECONDS", "30"))
CORES = os.cpu_count() or 2
BUDGET_MB = 1024

COUNTER = """
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) counts = {} end
function response(status, headers, body) counts[status] = (counts[status] or 0) + 1 end
function done(summary, latency, requests)
  local total = {}
  for _, t in ipairs(threads) do
    for k, v in pairs(t:get("counts")) do total[k] = (total[k] or 0) + v end
  end
  for k, v in pairs(total) do io.write(string.format("status %d %d\\n", k, v)) end
  io.write(string.format("p50 %f\\np99 %f\\n", latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
"""


def header():
    """The page's header line: the CPU's model and cores, today's date (UTC), the commit."""
    model = next((line.split(":", 1)[1].strip() for line in open("/proc/cpuinfo") if line.startswith("model name")), "unknown CPU") \
        if os.path.exists("/proc/cpuinfo") else "unknown CPU"
    commit = subprocess.run(["git", "-C", PACKAGE, "describe", "--always", "--dirty", "--abbrev=7"], capture_output=True, text=True)
    day = time.strftime("%Y-%m-%d", time.gmtime())
    return f"# Load test: {model}, {CORES} cores · {day} · commit {commit.stdout.strip() or 'unknown'}"


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(port, seconds=20):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"nothing listens on {port}")


def peak_rss_mb(pids):
    total = 0
    for pid in pids:
        try:
            for line in open(f"/proc/{pid}/status"):
                if line.startswith("VmHWM:"):
                    total += int(line.split()[1])
        except OSError:
            pass
    return total / 1024


def children(pid):
    found = [pid]
    try:
        for child in open(f"/proc/{pid}/task/{pid}/children").read().split():
            found += children(int(child))
    except OSError:
        pass
    return found


def wrk(url, connections, seconds, script):
    threads = min(connections, 2 * CORES)
    out = subprocess.run(["wrk", "-t", str(threads), "-c", str(connections), "-d", f"{seconds}s", "--timeout", "30s",
                          "-s", script, url], capture_output=True, text=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    statuses = {int(k): int(v) for k, v in re.findall(r"status (\d+) (\d+)", out)}
    p50 = float(re.search(r"p50 ([\d.]+)", out).group(1))
    p99 = float(re.search(r"p99 ([\d.]+)", out).group(1))
    errors = re.search(r"Socket errors: (.*)", out)
    return {"rate": rate, "statuses": statuses, "p50": p50, "p99": p99, "errors": errors.group(1) if errors else "none"}


def fetch_page(port, paths, connections):
    """Asks for `paths` over `connections` at a time, as a browser does; one retry after Retry-After.
    Returns the number not served with 200 and the seconds the page took."""
    lost, lock, queue = [0], threading.Lock(), list(paths)

    def worker():
        while True:
            with lock:
                if not queue:
                    return
                path = queue.pop()
            for attempt in range(2):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=60) as response:
                        response.read()
                        break
                except urllib.error.HTTPError as error:
                    if attempt == 1 or error.code != 503:
                        with lock:
                            lost[0] += 1
                        break
                    time.sleep(float(error.headers.get("Retry-After", "1")))
                except OSError:
                    with lock:
                        lost[0] += 1
                    break

    started = time.time()
    threads = [threading.Thread(target=worker) for _ in range(connections)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return lost[0], time.time() - started


def pages(port, root):
    """The page tests: 30 thumbnails (σ 8 blurs of 640×480 JPEGs) once over 6 connections, two such
    pages at once, and 30 at once. Returns report lines and the images lost."""
    paths = [f"/blur/thumbs/t{i}.jpg?sigma=8&format=jpeg" for i in range(30)]
    lines, total = ["", "| page test | images | lost | seconds |", "|---|---|---|---|"], 0
    for name, runs, connections in [("one page, 6 connections", 1, 6), ("two pages at once, 6 connections each", 2, 6),
                                    ("30 requests at once (an HTTP/2 page)", 1, 30)]:
        results = [None] * runs

        def page(k):
            results[k] = fetch_page(port, paths, connections)

        threads = [threading.Thread(target=page, args=(k,)) for k in range(runs)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        lost = sum(r[0] for r in results)
        total += lost
        lines.append(f"| {name} | {30 * runs} | {lost} | {max(r[1] for r in results):.1f} |")
        print(lines[-1], flush=True)
    return lines, total


def main():
    work = tempfile.mkdtemp(prefix="blurkit-loadtest-")
    root = os.path.join(work, "photos")
    os.makedirs(root)
    source = os.path.join(os.path.dirname(PACKAGE), "shared", "testdata", "motorcycle_right.png")
    if not os.path.exists(source):
        source = os.path.join(PACKAGE, "Tests", "Fixtures", "chelsea.png")
    photo = Image.open(source).convert("RGB")
    photo.resize((1920, 1080), Image.LANCZOS).save(os.path.join(root, "photo.jpg"), quality=90)
    os.makedirs(os.path.join(root, "thumbs"))
    for i in range(30):
        # Thirty different pictures: no two share a cache entry or an ETag.
        left = (i * 37) % (photo.width // 3)
        photo.crop((left, 0, left + photo.width * 2 // 3, photo.height)).resize((640, 480), Image.LANCZOS).save(
            os.path.join(root, "thumbs", f"t{i}.jpg"), quality=85)
    script = os.path.join(work, "count.lua")
    open(script, "w").write(COUNTER)

    port = free_port()
    log = open(os.path.join(work, "blurkit.log"), "w")
    server = subprocess.Popen([BLURKIT, "serve", "--root", root, "--port", str(port), "--memory-budget", str(BUDGET_MB), "--quiet"],
                              stderr=log)
    wait_for(port)
    conf = os.path.join(work, "thumbor.conf")
    open(conf, "w").write(f"LOADER = 'thumbor.loaders.file_loader'\nFILE_LOADER_ROOT_PATH = '{root}'\n"
                          "STORAGE = 'thumbor.storages.no_storage'\nRESULT_STORAGE = None\nQUALITY = 90\n"
                          "ALLOW_UNSAFE_URL = True\nMAX_AGE = 0\n")

    def start_thumbor():
        """A fresh thumbor for each run: one left with a backlog would answer the next run late."""
        tport = free_port()
        process = subprocess.Popen([THUMBOR, "--port", str(tport), "--ip", "127.0.0.1", "--conf", conf, "--processes", str(CORES),
                                    "--log-level", "error"], stderr=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                                   start_new_session=True)
        wait_for(tport, 60)
        return process, tport

    def idle():
        """Until blurkit has no render running or waiting (wrk's last requests finish after it stops)."""
        for _ in range(600):
            metrics = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics").read().decode()
            if "blurkit_in_flight 0" in metrics and "blurkit_queued 0" in metrics:
                return
            time.sleep(0.1)

    routes = [
        ("blur σ 8, JPEG out", f"/blur/photo.jpg?sigma=8&format=jpeg", "/unsafe/filters:blur(24,8)/photo.jpg"),
        ("placeholder (JSON with ThumbHash) · 32-px fit-in", "/placeholder/photo.jpg", "/unsafe/fit-in/32x32/photo.jpg"),
    ]
    lines = [f"Loopback, {CORES} cores, {SECONDS} s a run, a 1920×1080 JPEG (q90); blurkit serve with its defaults "
             f"({CORES} renders at once, others queued while their deadline allows, --memory-budget {BUDGET_MB}), thumbor {CORES} processes "
             "(no result storage, restarted for each run). Responses/s count 200s only.", "",
             "| route | connections | blurkit 200/s | p50 ms | p99 ms | statuses | thumbor 200/s | p50 ms | p99 ms | ratio |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    peak_thumbor = 0
    for name, ours, theirs in routes:
        for connections in (4, 8, 32, 128):
            idle()
            a = wrk(f"http://127.0.0.1:{port}{ours}", connections, SECONDS, script)
            thumbor, tport = start_thumbor()
            b = wrk(f"http://127.0.0.1:{tport}{theirs}", connections, SECONDS, script)
            peak_thumbor = max(peak_thumbor, peak_rss_mb(children(thumbor.pid)))
            # Its worker processes too: they are in its session.
            os.killpg(thumbor.pid, signal.SIGKILL)
            thumbor.wait()
            ok_a, ok_b = a["statuses"].get(200, 0) / SECONDS, b["statuses"].get(200, 0) / SECONDS
            statuses = ", ".join(f"{k}: {v}" for k, v in sorted(a["statuses"].items()))
            lines.append(f"| {name} | {connections} | {ok_a:.1f} | {a['p50']:.1f} | {a['p99']:.1f} | {statuses} | "
                         f"{ok_b:.1f} | {b['p50']:.1f} | {b['p99']:.1f} | {ok_a / ok_b:.1f}× |" if ok_b > 0 else
                         f"| {name} | {connections} | {ok_a:.1f} | {a['p50']:.1f} | {a['p99']:.1f} | {statuses} | "
                         f"0 | – | – | – |")
            print(lines[-1], flush=True)
            assert set(a["statuses"]) <= {200, 503}, f"blurkit answered {a['statuses']}"
    idle()
    page_lines, lost = pages(port, root)
    lines += page_lines
    rss = peak_rss_mb([server.pid])
    lines += ["", f"Peak RSS: blurkit serve {rss:.0f} MB (budget {BUDGET_MB} MB); thumbor, all processes, {peak_thumbor:.0f} MB."]
    assert rss < BUDGET_MB, "over the memory budget"
    assert lost == 0, f"{lost} images of the page tests lost"

    # SIGTERM in the middle of a run: the server drains and exits 0; wrk sees only 200 and 503.
    result = {}
    runner = subprocess.Popen(["wrk", "-t", "4", "-c", "32", "-d", "10s", "--timeout", "30s", "-s", script,
                               f"http://127.0.0.1:{port}/blur/photo.jpg?sigma=8&format=jpeg"], stdout=subprocess.PIPE, text=True)
    time.sleep(5)
    server.send_signal(signal.SIGTERM)
    status = server.wait(timeout=60)
    out = runner.communicate()[0]
    statuses = {int(k): int(v) for k, v in re.findall(r"status (\d+) (\d+)", out)}
    errors = re.search(r"Socket errors: (.*)", out)
    lines += ["", f"SIGTERM after 5 s of a 10-s run at 32 connections: exit status {status}; answered {statuses}; "
              f"socket errors after the drain: {errors.group(1) if errors else 'none'} (connections refused once it stopped)."]
    assert status == 0 and set(statuses) <= {200, 503}
    report = "\n".join([header(), "", "Written by `make loadtest`; each run replaces it.", ""] + lines) + "\n"
    with open(os.path.join(PACKAGE, "docs", "loadtest.md"), "w") as page:
        page.write(report)
    print(report)


if __name__ == "__main__":
    sys.exit(main())
