"""scroll.html, the page `make wasm` writes beside index.html (seed 004: BlurUIKit's progressive blur
as a sticky header over a list of photos, re-rendered through blurkit.wasm on every scroll frame), in
Debian's chromium (headless, Playwright with executable_path) at an iPhone's 390×844 pt and scale 3.

It scrolls the page 9 px in every animation frame, 40 frames at a time, and at three stops checks that
the header is the blurred content beneath it: the page's own input to the blur (`source`) is what the
browser shows under the header (a screenshot with the header hidden: close, and closer than the same
content 4 px off); the header's pixels are the native `blurkit progressive` of that input byte for
byte, with the page's options turned into the command line's flags by `blurkit --describe`; the
native render of the screenshot itself is close to the header; the header's fully blurred top is
smoother than the content, and it changes as the list moves. While scrolling the page draws only the
rows that came into view (the rest moved within the module's input: at each stop, byte for byte what
drawing every row gives), and a frame where nothing moved draws nothing. Then the same in
dark appearance. It prints (never asserts: the machine decides) the frame time (between two frames
that drew the header) and the header's render time, the page's and the module's, median and p95.

    BLURKIT=.build/release/blurkit python3 Tests/Web/test_scroll.py demo-output/web
"""

import base64
import http.server
import io
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
from PIL import Image
from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BLURKIT = os.environ.get("BLURKIT", ".build/release/blurkit")
SCALE = 3
STEP = 9

# One scroll of `steps` frames: each animation frame scrolls by STEP, as a finger or a wheel would (the
# page draws in the same frame: its scroll handler asks for the frame the scroll lands in); then it
# waits for the last position to be drawn.
SCROLL = """async (steps) => {
  const s = window.blurkitScroll, frame = () => new Promise((r) => requestAnimationFrame(r));
  for (let i = 0; i < steps; i++) {
    await frame();
    window.scrollBy(0, %d);
  }
  while (s.scrollY !== window.scrollY) await frame();
}""" % STEP

# A scroll event where nothing moved, and three frames after it: what the page drew.
STILL = """async () => {
  const s = window.blurkitScroll, frame = () => new Promise((r) => requestAnimationFrame(r));
  const renders = s.renders, skipped = s.skipped;
  window.dispatchEvent(new Event('scroll'));
  for (let i = 0; i < 3; i++) await frame();
  return { renders: s.renders - renders, skipped: s.skipped - skipped };
}"""

# The header's canvas and the blur's input (RGBA, base64) and the options.
STATE = """() => {
  const s = window.blurkitScroll, c = document.getElementById('backdrop');
  const out = c.getContext('2d').getImageData(0, 0, c.width, c.height);
  const base64 = (bytes) => { let text = '';
    for (let i = 0; i < bytes.length; i += 32768) text += String.fromCharCode.apply(null, bytes.subarray(i, i + 32768));
    return btoa(text); };
  return { width: c.width, height: c.height, header: base64(out.data), source: base64(s.source.data),
           options: s.options, cssHeight: c.getBoundingClientRect().height, renders: s.renders, scrollY: window.scrollY };
}"""


def write_pam(path, pixels):
    h, w, _ = pixels.shape
    header = f"P7\nWIDTH {w}\nHEIGHT {h}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode()
    open(path, "wb").write(header + pixels.astype(np.uint8).tobytes())


def read_pam(path):
    data = open(path, "rb").read()
    end = data.index(b"ENDHDR\n") + 7
    fields = data[:end].decode().split()
    width, height = int(fields[fields.index("WIDTH") + 1]), int(fields[fields.index("HEIGHT") + 1])
    return np.frombuffer(data[end:], np.uint8).reshape(height, width, 4)


def flags(options, described, operation="progressive"):
    """The page's options as the native command's flags, named by the registry (`blurkit --describe`)."""
    parameters = {p["name"]: p for p in next(o for o in described if o["name"] == operation)["parameters"]}
    args = []
    for name, value in options.items():
        if isinstance(value, dict):
            value = ",".join(repr(float(value[k])).removesuffix(".0") for k in ("x", "y", "width", "height"))
        args += ["--" + parameters[name]["flag"], str(value)]
    return args


def native(folder, pixels, args):
    source, out = os.path.join(folder, "in.pam"), os.path.join(folder, "out.pam")
    write_pam(source, pixels)
    subprocess.run([BLURKIT, "progressive", source, out, *args], check=True)
    return read_pam(out)


def mean_difference(a, b):
    return float(np.abs(a[..., :3].astype(np.int16) - b[..., :3].astype(np.int16)).mean())


def roughness(pixels):
    """Mean absolute difference between horizontal neighbours: how much detail is left."""
    rgb = pixels[..., :3].astype(np.int16)
    return float(np.abs(np.diff(rgb, axis=1)).mean())


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
    url = f"http://127.0.0.1:{server.server_address[1]}/scroll.html"
    folder = tempfile.mkdtemp(prefix="blurkit-scroll-")
    described = json.loads(subprocess.run([BLURKIT, "--describe"], check=True, capture_output=True, text=True).stdout)
    errors = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--force-color-profile=srgb"])
            page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=SCALE)
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_function("window.blurkitScroll && window.blurkitScroll.ready", timeout=60_000)

            def stop(label):
                # The rows moved in place and the few drawn anew are what drawing every row gives.
                moved = page.evaluate(STATE)
                page.evaluate("window.blurkitScroll.redraw()")
                state = page.evaluate(STATE)
                check(moved["source"] == state["source"] and moved["header"] == state["header"],
                      f"{label}: the input kept from frame to frame differs from every row drawn anew")
                shape = (state["height"], state["width"], 4)
                header = np.frombuffer(base64.b64decode(state["header"]), np.uint8).reshape(shape)
                source = np.frombuffer(base64.b64decode(state["source"]), np.uint8).reshape(shape)
                args = flags(state["options"], described)
                expected = native(folder, source, args)
                differ = int((expected != header).sum()) if expected.shape == header.shape else -1
                check(differ == 0, f"{label}: the header against native `blurkit progressive {' '.join(args)}` of its input: {differ} bytes differ")

                # What the browser shows under the header, in device pixels.
                page.eval_on_selector("#header", "(e) => { e.style.visibility = 'hidden'; }")
                shot = page.screenshot(clip={"x": 0, "y": 0, "width": 390, "height": state["cssHeight"] + 8})
                page.eval_on_selector("#header", "(e) => { e.style.visibility = ''; }")
                beneath = np.array(Image.open(io.BytesIO(shot)).convert("RGBA"))
                check(beneath.shape[1] == header.shape[1], f"{label}: the screenshot is {beneath.shape[1]} px wide, the header {header.shape[1]}")
                h = header.shape[0]
                here = mean_difference(source, beneath[:h])
                offset = 4 * SCALE
                off = mean_difference(source[: h - offset], beneath[offset:h])
                check(here < 4 and here * 3 < off,
                      f"{label}: the blur's input against the content beneath: {here:.2f} levels on average (4 px off: {off:.2f})")
                seen = native(folder, beneath[:h], args)
                through = mean_difference(seen, header)
                check(through < 3, f"{label}: the header against the native render of the screenshot: {through:.2f} levels on average")

                top = slice(0, h // 6)
                smooth, raw = roughness(header[top]), roughness(source[top])
                check(smooth < 0.5 * raw, f"{label}: the header's top is not smoother than the content: {smooth:.2f} against {raw:.2f}")
                print(f"{label}: scrolled to {state['scrollY']} px; input against beneath {here:.2f} (4 px off {off:.2f}), "
                      f"header against native of beneath {through:.2f}; top roughness {smooth:.2f} (content {raw:.2f})")
                return header

            headers = []
            for n in range(3):
                page.evaluate(SCROLL, 40)
                headers.append(stop(f"after {40 * (n + 1)} frames"))
            for a, b in zip(headers, headers[1:]):
                moved = mean_difference(a, b)
                check(moved > 5, f"the header hardly changed as the list scrolled 360 px: {moved:.2f} levels on average")

            timings = page.evaluate(
                "() => ({ frame: window.blurkitScroll.frameMs, header: window.blurkitScroll.headerMs, blur: window.blurkitScroll.blurMs,"
                " rows: window.blurkitScroll.rowsDrawn })")
            # The first render draws every row; the scroll frames after it only the rows that came into
            # view: the 360 px scrolled, and never a whole canvas (the first frame of a scroll draws two
            # steps: the scroll it is told of and the one made in its frame before it draws).
            scrolled = timings["rows"][1:]
            check(sum(scrolled) == 3 * 40 * STEP * SCALE and max(scrolled) <= 2 * STEP * SCALE,
                  f"rows drawn in the {len(scrolled)} scroll frames: {sum(scrolled)} in all (expected {3 * 40 * STEP * SCALE}), "
                  f"at most {max(scrolled)} in one")
            still = page.evaluate(STILL)
            check(still == {"renders": 0, "skipped": 1}, f"a frame where nothing moved drew the header: {still}")
            readout = page.evaluate("document.getElementById('readout').textContent")
            check("median" in readout and "p95" in readout, f"the readout says {readout!r}")

            before = page.evaluate("window.blurkitScroll.renders")
            page.emulate_media(color_scheme="dark")
            page.wait_for_function(f"window.blurkitScroll.renders > {before}")
            state = page.evaluate(STATE)
            check(state["options"].get("appearance") == "dark", f"dark appearance: options {state['options']}")
            stop("dark")
            check(not errors, f"console errors: {errors}")
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)

    def summary(xs):
        xs = sorted(xs)
        return f"median {xs[len(xs) // 2]:.1f} ms, p95 {xs[min(len(xs) - 1, int(0.95 * len(xs)))]:.1f} ms" if xs else "none"

    print(f"in chromium, one thread, 390×844 pt at scale {SCALE}: {len(timings['frame'])} scroll frames of {STEP} px, "
          f"frame time {summary(timings['frame'])} (target: p95 ≤ 16.7 ms); header {SCALE * 390}×{headers[0].shape[0]} px "
          f"(drawing the {STEP * SCALE} new rows, blur and dimming, putting it in the canvas) {summary(timings['header'])}; "
          f"of which blurkit.wasm's progressive blur and dimming {summary(timings['blur'])}")
    if failures:
        sys.exit(1)
    print("test_scroll: all checks passed")


if __name__ == "__main__":
    WEB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web")
    main()
