"""glass.html, the page `make wasm` writes beside index.html: Liquid Glass (a 350×220-pt card and a
300×64-pt tab bar's capsule) over a scrolling feed of photos, each re-rendered through blurkit.wasm on
every scroll frame, in Debian's chromium (headless, Playwright with executable_path) at an iPhone's
390×844 pt and scale 3.

It scrolls the page 120 animation frames, 9 px each, and at three stops checks that each glass is the
native `blurkit glass` of its own input byte for byte (the page's options turned into the command
line's flags by `blurkit --describe`), that the glass changed what it covers and that it changes as the
feed moves; then the same in dark appearance. It prints (never asserts) the frame time and the two
glasses' render time together, median and p95.

    BLURKIT=.build/release/blurkit python3 Tests/Web/test_glass.py demo-output/web
"""

import base64
import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
from functools import partial

import numpy as np
from playwright.sync_api import sync_playwright

from test_scroll import flags, mean_difference, read_pam, write_pam

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BLURKIT = os.environ.get("BLURKIT", ".build/release/blurkit")
SCALE = 3
STEP = 9

SCROLL = """async (steps) => {
  const s = window.blurkitGlass, frame = () => new Promise((r) => requestAnimationFrame(r));
  for (let i = 0; i < steps; i++) {
    await frame();
    const before = s.renders;
    window.scrollBy(0, %d);
    while (s.renders === before) await frame();
  }
}""" % STEP

# Each glass's canvas and input (RGBA, base64) and options.
STATE = """() => {
  const s = window.blurkitGlass;
  const base64 = (bytes) => { let text = '';
    for (let i = 0; i < bytes.length; i += 32768) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
    return btoa(text); };
  return [...document.querySelectorAll('.glass canvas')].map((c, n) => {
    const out = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    return { width: c.width, height: c.height, glass: base64(out.data), source: base64(s.sources[n].data), options: s.options[n] };
  });
}"""


def main():
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)
            print("FAIL", message)

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), partial(Quiet, directory=WEB))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/glass.html"
    folder = tempfile.mkdtemp(prefix="blurkit-glass-")
    described = json.loads(subprocess.run([BLURKIT, "--describe"], check=True, capture_output=True, text=True).stdout)
    errors = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--force-color-profile=srgb"])
            page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=SCALE)
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_function("window.blurkitGlass && window.blurkitGlass.ready", timeout=60_000)

            def stop(label):
                outs = []
                for n, state in enumerate(page.evaluate(STATE)):
                    shape = (state["height"], state["width"], 4)
                    glass = np.frombuffer(base64.b64decode(state["glass"]), np.uint8).reshape(shape)
                    source = np.frombuffer(base64.b64decode(state["source"]), np.uint8).reshape(shape)
                    args = flags(state["options"], described, "glass")
                    source_path, out_path = os.path.join(folder, "in.pam"), os.path.join(folder, "out.pam")
                    write_pam(source_path, source)
                    subprocess.run([BLURKIT, "glass", source_path, out_path, *args], check=True)
                    expected = read_pam(out_path)
                    differ = int((expected != glass).sum()) if expected.shape == glass.shape else -1
                    check(differ == 0, f"{label}, glass {n}: against native `blurkit glass {' '.join(args)}` of its input: {differ} bytes differ")
                    changed = mean_difference(glass, source)
                    check(changed > 2, f"{label}, glass {n}: the glass hardly changed what it covers: {changed:.2f} levels on average")
                    outs.append(glass)
                print(f"{label}: both glasses are the native render of their input")
                return outs

            stops = []
            for n in range(3):
                page.evaluate(SCROLL, 40)
                stops.append(stop(f"after {40 * (n + 1)} frames"))
            for a, b in zip(stops, stops[1:]):
                moved = mean_difference(a[0], b[0])
                check(moved > 3, f"the card hardly changed as the feed scrolled 360 px: {moved:.2f} levels on average")
            timings = page.evaluate("() => ({ frame: window.blurkitGlass.frameMs, glass: window.blurkitGlass.glassMs })")

            before = page.evaluate("window.blurkitGlass.renders")
            page.emulate_media(color_scheme="dark")
            page.wait_for_function(f"window.blurkitGlass.renders > {before}")
            check(all(s["options"].get("appearance") == "dark" for s in page.evaluate(STATE)), "dark appearance was not passed on")
            stop("dark")
            check(not errors, f"console errors: {errors}")
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)

    def summary(xs):
        xs = sorted(xs)
        return f"median {xs[len(xs) // 2]:.1f} ms, p95 {xs[min(len(xs) - 1, int(0.95 * len(xs)))]:.1f} ms" if xs else "none"

    print(f"in chromium, one thread, 390×844 pt at scale {SCALE}: {len(timings['frame'])} scroll frames, frame time {summary(timings['frame'])}; "
          f"blurkit.wasm's glass, card and capsule together, {summary(timings['glass'])} (targets: p95 frame ≤ 16.7 ms, glass ≤ 16 ms)")
    if failures:
        sys.exit(1)
    print("test_glass: all checks passed")


if __name__ == "__main__":
    WEB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web")
    main()
