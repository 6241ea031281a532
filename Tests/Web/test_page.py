"""The static page `make wasm` writes (demo-output/web), from a plain static file server with no
BlurKit server behind it, in Debian's chromium (headless, Playwright with executable_path): it loads
with no console error; the canvas holds the native command line's bytes for the sample picture, for
the blur at its default σ, after a slider change, for seed 004's progressive header (a band along the
top: the rest of the picture untouched) and seed 003's material card; seed 000's blur-up runs to its
end. The controls show the values in use (σ shows nothing once the radius replaces it; a length's
unit is points or %), and none reaches past the sidebar. Then it prints (never asserts) what the engine
costs in the page, one thread, against the canvas's own `ctx.filter = "blur(8px)"`.

    BLURKIT=.build/release/blurkit python3 Tests/Web/test_page.py demo-output/web
"""

import http.server
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
from functools import partial

from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BLURKIT = os.environ.get("BLURKIT", ".build/release/blurkit")


def read_pam(path):
    data = open(path, "rb").read()
    end = data.index(b"ENDHDR\n") + 7
    fields = data[:end].decode().split()
    width, height = int(fields[fields.index("WIDTH") + 1]), int(fields[fields.index("HEIGHT") + 1])
    return width, height, data[end:]


def native(folder, args):
    """The native command on the page's sample picture: (width, height, RGBA bytes)."""
    out = os.path.join(folder, "native.pam")
    subprocess.run([BLURKIT, args[0], os.path.join(WEB, "sample.png"), out, *args[1:]], check=True)
    return read_pam(out)


def canvas(page):
    return page.evaluate(
        """() => { const c = document.getElementById('canvas');
        const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
        return [c.width, c.height, Array.from(d)]; }"""
    )


def wait_for_render(page, before):
    page.wait_for_function(f"window.blurkitPage.renders > {before}")


def main():
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)
            print("FAIL", message)

    def same(name, got, expected):
        (gw, gh, gb), (ew, eh, eb) = got, expected
        differ = sum(1 for a, b in zip(gb, eb) if a != b) if (gw, gh) == (ew, eh) else -1
        check(differ == 0, f"{name}: {gw}×{gh} against {ew}×{eh}, {differ} bytes differ")

    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = partial(Quiet, directory=WEB)
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}/index.html"
    folder = tempfile.mkdtemp(prefix="blurkit-page-")
    errors = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--force-color-profile=srgb"])
            page = browser.new_page()
            page.on("console", lambda m: m.type == "error" and errors.append(m.text))
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url)
            page.wait_for_function("window.blurkitPage && window.blurkitPage.ready && window.blurkitPage.renders > 0", timeout=60_000)

            same("blur σ 8 (the default)", canvas(page), native(folder, ["blur", "--sigma", "8"]))

            before = page.evaluate("window.blurkitPage.renders")
            page.eval_on_selector("#control-sigma", "(e) => { e.value = '2'; e.dispatchEvent(new Event('input')); }")
            wait_for_render(page, before)
            same("blur σ 2 after the slider", canvas(page), native(folder, ["blur", "--sigma", "2"]))

            # The radius slider replaces σ: σ no longer shows a value in use.
            before = page.evaluate("window.blurkitPage.renders")
            page.eval_on_selector("#slider-radius", "(e) => { e.value = '300'; e.dispatchEvent(new Event('input')); }")
            wait_for_render(page, before)
            radius = str(page.evaluate("window.blurkitPage.values.radius"))
            same(f"blur radius {radius} after its slider", canvas(page), native(folder, ["blur", "--radius", radius]))
            sigma = page.evaluate("document.getElementById('control-sigma').value")
            check(sigma == "", f"σ shows {sigma!r} while the radius is in use")

            # Every control stays inside the sidebar (the effect menu's long summaries included).
            wide = page.evaluate("""() => { const aside = document.querySelector('aside').getBoundingClientRect();
                return [...document.querySelectorAll('aside select, aside input')]
                  .filter((e) => e.getBoundingClientRect().right > aside.right + 0.5).map((e) => e.id || e.type); }""")
            check(not wide, f"controls reach past the sidebar: {wide}")

            before = page.evaluate("window.blurkitPage.renders")
            page.click("#demo-header")
            wait_for_render(page, before)
            region = page.evaluate("window.blurkitPage.values.region") or ""
            header = ["progressive", "--max-radius", "3.5", "--scale", "3", "--dimming", "0.5", "--region", region]
            same("seed 004's header", canvas(page), native(folder, header if region else header[:-2]))
            # A header band: the top quarter is blurred; the lower half (past the band and the reach of
            # its dimming, 25 % of the band beyond it) is the picture as it was.
            band = page.evaluate("""() => { const c = document.getElementById('canvas'), source = window.blurkitPage.source;
                const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, row = c.width * 4;
                let top = 0, lower = 0;
                for (let i = 0; i < d.length; i++) if (d[i] !== source.data[i]) {
                  if (i < row * Math.floor(c.height / 4)) top++; else if (i >= row * Math.ceil(c.height / 2)) lower++;
                }
                return [top, lower]; }""")
            check(band[0] > 0 and band[1] == 0, f"the header demo changes {band[0]} bytes in the top quarter and {band[1]} in the lower half")

            # The controls show the values in use: the demo's scale, not the one before it.
            shown = page.evaluate("[document.getElementById('control-scale').value, document.getElementById('slider-scale').value]")
            check(shown[0] == "3" and abs(float(shown[1]) - 3) < 0.02, f"the scale control after the header demo shows {shown}")

            # Dark appearance takes BlurUIKit's dark default dimming (0.25), and the control shows it.
            before = page.evaluate("window.blurkitPage.renders")
            page.select_option("#control-appearance", "dark")
            wait_for_render(page, before)
            same("seed 004's header, dark", canvas(page), native(folder, [*(header if region else header[:-2]), "--appearance", "dark"]))
            page.select_option("#effect", "progressive")
            before = page.evaluate("window.blurkitPage.renders")
            page.select_option("#control-appearance", "dark")
            wait_for_render(page, before)
            same("progressive, dark, defaults", canvas(page), native(folder, ["progressive", "--appearance", "dark"]))
            dimming = page.evaluate("document.getElementById('control-dimmingAlpha').value")
            check(dimming == "0.25", f"the dimming control in dark appearance shows {dimming!r}, not the dark default 0.25")
            # A length's label names the forms it shows: 25% is not in points.
            extension = page.evaluate("""() => { const e = document.getElementById('control-dimmingClearExtension');
                return [e.closest('label').firstChild.textContent, e.value]; }""")
            check(not (extension[1].endswith("%") and "(pt)" in extension[0]), f"the label '{extension[0].strip()}' over the value {extension[1]!r}")

            before = page.evaluate("window.blurkitPage.renders")
            page.click("#demo-material")
            wait_for_render(page, before)
            same("seed 003's material card", canvas(page),
                 native(folder, ["material", "--style", "regular", "--region", "40,40,371,220", "--corner-radius", "24"]))

            page.click("#demo-blurup")
            page.wait_for_function("document.getElementById('status').textContent === 'blur-up done'", timeout=30_000)

            bad = page.evaluate("() => { try { window.blurkitPage.kit.blur(window.blurkitPage.source, { sigma: -3 }); return ''; } catch (e) { return e.message; } }")
            check("sigma" in bad, f"an invalid σ: '{bad}'")
            check(not errors, f"console errors: {errors}")

            timings = page.evaluate(
                """() => {
                const kit = window.blurkitPage.kit;
                const photo = (w, h) => { const d = new Uint8ClampedArray(w * h * 4); let s = 7;
                  for (let i = 0; i < d.length; i++) { s = (s * 1103515245 + 12345) >>> 0; d[i] = (i & 3) === 3 ? 255 : (s >>> 24); }
                  return new ImageData(d, w, h); };
                const best = (f) => { let b = Infinity; for (let i = 0; i < 7; i++) { const t = performance.now(); f(); b = Math.min(b, performance.now() - t); } return b; };
                const hd = photo(1920, 1080), screen = photo(1170, 2532);
                const source = new OffscreenCanvas(1920, 1080); source.getContext('2d').putImageData(hd, 0, 0);
                const target = new OffscreenCanvas(1920, 1080), tctx = target.getContext('2d', { willReadFrequently: true });
                const filter = best(() => { tctx.filter = 'blur(8px)'; tctx.drawImage(source, 0, 0); tctx.getImageData(0, 0, 1, 1); });
                const header = (() => { let b = Infinity; for (let i = 0; i < 7; i++) { const t = performance.now();
                  kit.progressive(new ImageData(screen.data.slice(0, 1170 * 360 * 4), 1170, 360), { scale: 3 }); b = Math.min(b, performance.now() - t); } return b; })();
                return { blur8: best(() => kit.blur(hd, { sigma: 8 })), filter, header };
              }"""
            )
            print(f"in chromium, one thread: Gaussian σ 8 of 1920×1080 {timings['blur8']:.1f} ms "
                  f"(ctx.filter blur(8px): {timings['filter']:.1f} ms); progressive header 1170×360 at BlurUIKit's defaults "
                  f"{timings['header']:.1f} ms; blurkit.wasm {os.path.getsize(os.path.join(WEB, 'blurkit.wasm'))} bytes")
            browser.close()
    finally:
        server.shutdown()
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        sys.exit(1)
    print("test_page: all checks passed")


if __name__ == "__main__":
    WEB = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web")
    main()
