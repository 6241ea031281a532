"""The web components' cost in headless Chromium (Debian's chromium, Playwright), at an iPhone's 390×844
CSS px and device pixel ratio 3, printed for docs/benchmarks.md by `make bench`:

1. components.html with one element at a time (and none): 120 animation frames of scrolling, 9 px a
   frame (the page, or the card under <scroll-edge-effect>), and the p95 of the time between frames
   (target ≤ 16.7 ms on the compositor path).
2. The stacked-layer curve of <variable-blur-view>: for 2 to 16 layers, its PSNR against the engine's
   exact progressive blur (`blurkit progressive` of the same backdrop; maximum radius 20 pt, down and
   left, the two directions whose full edge lies on the element's edge) and the p95 frame while the
   page scrolls under it — what the element's LAYERS was chosen from.

    BLURKIT=.build/release/blurkit python3 Benchmarks/elements_frames.py demo-output/web
"""

import http.server
import io
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

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Tests", "Web"))
from test_elements import PROGRESSIVE_PAGE, PROGRESSIVE_REGION, SETTLE, device_photo, psnr, shot  # noqa: E402

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BLURKIT = os.environ.get("BLURKIT", ".build/release/blurkit")
SCALE = 3
FRAMES = 120
STEP = 9

# FRAMES animation frames, each scrolling `target` by STEP: the times between them.
SCROLL = """async ([selector, frames, step]) => {
  const target = selector ? document.querySelector(selector) : document.scrollingElement;
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  await frame();
  let last = await frame();
  const gaps = [];
  for (let i = 0; i < frames; i++) {
    target.scrollBy(0, step);
    const now = await frame();
    gaps.push(now - last);
    last = now;
    if (target.scrollTop + target.clientHeight >= target.scrollHeight - step) target.scrollTop = 0;
  }
  return gaps;
}"""


class Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".wasm": "application/wasm"}

    def log_message(self, *args):
        pass


def late(gaps):
    """Frames that missed their vsync (more than 1.5 intervals of 16.7 ms after the one before)."""
    return sum(1 for g in gaps if g > 25)


def p95(values):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]


def main():
    web = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web")
    work = tempfile.mkdtemp(prefix="blurkit-frames-")
    try:
        for name in os.listdir(web):
            source = os.path.join(web, name)
            if name != "package":
                (shutil.copytree if os.path.isdir(source) else shutil.copy)(source, os.path.join(work, name))
        device_photo(os.path.join(work, "device.png"))
        open(os.path.join(work, "progressive.html"), "w").write(PROGRESSIVE_PAGE.replace("height: 844px; overflow: hidden;", "height: 1688px;"))
        server = socketserver.TCPServer(("127.0.0.1", 0), partial(Quiet, directory=work))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base = f"http://127.0.0.1:{server.server_address[1]}"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--force-color-profile=srgb"])
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=SCALE)
                page = context.new_page()
                for only in ["none", "blur-material", "variable-blur-view", "scroll-edge-effect", "blur-up-image"]:
                    page.goto(f"{base}/components.html?only={only}")
                    page.evaluate("() => window.componentsReady")
                    page.evaluate(SETTLE)
                    selector = ".card .scroller" if only == "scroll-edge-effect" else None
                    gaps = page.evaluate(SCROLL, [selector, FRAMES, STEP])
                    print(f"in chromium: components.html with {only if only != 'none' else 'no element'}: {FRAMES} frames of scrolling, "
                          f"p95 frame {p95(gaps):.1f} ms, median {sorted(gaps)[len(gaps) // 2]:.1f} ms, {late(gaps)} of {FRAMES} late (target p95 ≤ 16.7 ms)", flush=True)

                # The layer curve: accuracy against the engine, and the frame while scrolling under it.
                page.goto(f"{base}/progressive.html")
                page.evaluate("() => window.ready")
                page.evaluate("() => import('./elements/gradient.mjs').then((g) => { window.gradient = g; })")
                page.evaluate("() => { const v = document.getElementById('v'); v.setAttribute('maximum-blur-radius', '20'); v.setAttribute('dimming-alpha', '0'); }")
                page.evaluate("() => document.getElementById('v').style.visibility = 'hidden'")
                page.evaluate(SETTLE)
                source = os.path.join(work, "backdrop.png")
                Image.fromarray(shot(page)).save(source)
                page.evaluate("() => document.getElementById('v').style.visibility = 'visible'")
                x, y, w, h = (v * SCALE for v in PROGRESSIVE_REGION)
                references = {}
                for direction in ["down", "left"]:
                    out = os.path.join(work, f"engine-{direction}.png")
                    subprocess.run([BLURKIT, "progressive", source, out, "--direction", direction, "--max-radius", "20", "--dimming", "0",
                                    "--region", ",".join(str(v) for v in PROGRESSIVE_REGION), "--scale", str(SCALE)], check=True)
                    references[direction] = np.asarray(Image.open(out).convert("RGB"))
                for layers in [int(n) for n in os.environ.get("LAYERS", "2,3,4,6,8,12,16").split(",")]:
                    figures = []
                    for direction in ["down", "left"]:
                        page.evaluate("([n, d]) => { window.gradient.settings.layers = n; const v = document.getElementById('v'); v.setAttribute('direction', d); v.redraw(); }", [layers, direction])
                        page.evaluate(SETTLE)
                        pixels = shot(page)
                        i = 24 * SCALE
                        figures.append((psnr(pixels[y:y + h, x:x + w], references[direction][y:y + h, x:x + w]),
                                        psnr(pixels[y + i:y + h - i, x + i:x + w - i], references[direction][y + i:y + h - i, x + i:x + w - i])))
                    gaps = page.evaluate(SCROLL, [None, FRAMES, STEP])
                    page.evaluate("() => window.scrollTo(0, 0)")
                    print(f"in chromium: <variable-blur-view> with {layers} layers, maximum radius 20 pt: "
                          f"{min(f[0] for f in figures):.1f} dB over the element, {min(f[1] for f in figures):.1f} dB inside (down and left, the lower); "
                          f"p95 frame {p95(gaps):.1f} ms while the page scrolls under it, {late(gaps)} of {FRAMES} frames late", flush=True)
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
