"""The web components (issue 52) in Debian's chromium (headless, Playwright with executable_path), at
an iPhone's 390×844 CSS px and device pixel ratio 3, held to the engine.

<blur-material> over a photo and a block of HTML: for each of the five materials in light and dark,
the page's pixels under the element against `blurkit material` of the same backdrop (the page
screenshotted with the element hidden) at the same region and scale 3: ΔE2000 (CIE Lab from sRGB,
D65), p95 at most 2 more than two σ (48 px) inside the element's edges, where Chromium's edge
handling of the backdrop and the engine's clamp agree; the p95 over the whole element is printed. Then the element's promises: a bad attribute is a console error naming the
element and the attribute, and the element is drawn with the default (the same pixels as the default
given); without `appearance` it follows `prefers-color-scheme`, switching live; the modules import in
Node, where there is no DOM, without touching `window`.

    BLURKIT=.build/release/blurkit python3 Tests/Web/test_elements.py demo-output/web
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

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
BLURKIT = os.environ.get("BLURKIT", ".build/release/blurkit")
SCALE = 3
REGION = (20, 300, 350, 240)  # x, y, width, height in CSS px
MATERIALS = ["ultrathin", "thin", "regular", "thick", "chrome"]
TARGET = 2.0
INSET = 48  # CSS px: two σ of the material's blur (24 pt)

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<style>
  html, body { margin: 0; width: 390px; height: 844px; overflow: hidden; }
  img { position: absolute; left: 0; top: 0; width: 390px; height: 844px; object-fit: cover; }
  article { position: absolute; left: 24px; top: 330px; width: 330px; font: 17px/1.35 sans-serif; color: #111; }
  article b { color: #c0392b; } article i { color: #1565c0; }
  .swatch { display: inline-block; width: 60px; height: 30px; margin: 4px; }
  blur-material { position: absolute; left: %dpx; top: %dpx; width: %dpx; height: %dpx; }
</style></head><body>
<img src="photo.png" alt="">
<article><p>The quick <b>brown fox</b> jumps over the <i>lazy dog</i>; a block of HTML under the material,
text and colour as a page has them.</p>
<span class="swatch" style="background:#e53935"></span><span class="swatch" style="background:#43a047"></span>
<span class="swatch" style="background:#1e88e5"></span><span class="swatch" style="background:#fdd835"></span></article>
<blur-material id="m"></blur-material>
<script type="module">import './elements/index.mjs'; window.ready = customElements.whenDefined('blur-material');</script>
</body></html>""" % REGION


def srgb_to_lab(rgb):
    """CIE L*a*b* (D65) of sRGB bytes, shape (..., 3)."""
    c = rgb.astype(np.float64) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375], [0.2126729, 0.7151522, 0.0721750], [0.0193339, 0.1191920, 0.9503041]])
    xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], axis=-1)


def delta_e2000(lab1, lab2):
    """CIEDE2000 (Sharma, Wu and Dalal's formulation), per pixel."""
    L1, a1, b1 = lab1[..., 0], lab1[..., 1], lab1[..., 2]
    L2, a2, b2 = lab2[..., 0], lab2[..., 1], lab2[..., 2]
    C1, C2 = np.hypot(a1, b1), np.hypot(a2, b2)
    Cm = (C1 + C2) / 2
    G = 0.5 * (1 - np.sqrt(Cm**7 / (Cm**7 + 25.0**7)))
    a1p, a2p = (1 + G) * a1, (1 + G) * a2
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p = np.degrees(np.arctan2(b1, a1p)) % 360
    h2p = np.degrees(np.arctan2(b2, a2p)) % 360
    dL, dC = L2 - L1, C2p - C1p
    dh = h2p - h1p
    dh = np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh))
    dh = np.where(C1p * C2p == 0, 0, dh)
    dH = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lm, Cpm = (L1 + L2) / 2, (C1p + C2p) / 2
    hsum = h1p + h2p
    hm = np.where(np.abs(h1p - h2p) > 180, np.where(hsum < 360, (hsum + 360) / 2, (hsum - 360) / 2), hsum / 2)
    hm = np.where(C1p * C2p == 0, hsum, hm)
    T = 1 - 0.17 * np.cos(np.radians(hm - 30)) + 0.24 * np.cos(np.radians(2 * hm)) + 0.32 * np.cos(np.radians(3 * hm + 6)) - 0.20 * np.cos(np.radians(4 * hm - 63))
    dtheta = 30 * np.exp(-(((hm - 275) / 25) ** 2))
    RC = 2 * np.sqrt(Cpm**7 / (Cpm**7 + 25.0**7))
    SL = 1 + 0.015 * (Lm - 50) ** 2 / np.sqrt(20 + (Lm - 50) ** 2)
    SC, SH = 1 + 0.045 * Cpm, 1 + 0.015 * Cpm * T
    RT = -np.sin(np.radians(2 * dtheta)) * RC
    return np.sqrt((dL / SL) ** 2 + (dC / SC) ** 2 + (dH / SH) ** 2 + RT * (dC / SC) * (dH / SH))


def check_delta_e2000():
    """Sharma et al.'s published pairs: the formula as they give it."""
    pairs = [((50, 2.6772, -79.7751), (50, 0, -82.7485), 2.0425), ((50, -1.3802, -84.2814), (50, 0, -82.7485), 1.0000),
             ((50, 2.5, 0), (73, 25, -18), 27.1492), ((50, 2.5, 0), (50, 3.1736, 0.5854), 1.0000),
             ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644)]
    for a, b, expected in pairs:
        got = float(delta_e2000(np.array(a, float), np.array(b, float)))
        assert abs(got - expected) < 1e-4, (a, b, got, expected)


def shot(page):
    return np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB"))


def main():
    web = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web")
    check_delta_e2000()
    failures = []
    work = tempfile.mkdtemp(prefix="blurkit-elements-")
    try:
        shutil.copytree(os.path.join(web, "elements"), os.path.join(work, "elements"))
        shutil.copy("Tests/Fixtures/chelsea.png", os.path.join(work, "photo.png"))
        open(os.path.join(work, "page.html"), "w").write(PAGE)

        # The modules import where there is no DOM (a server rendering the page), defining nothing.
        node = subprocess.run(
            ["node", "--input-type=module", "-e",
             "const m = await import(process.argv[1]); if (typeof window !== 'undefined') throw new Error('window');"
             " console.log(Object.keys(m).sort().join(','));", "--", os.path.join(work, "elements", "index.mjs")],
            capture_output=True, text=True)
        print(f"import in Node: {node.stdout.strip() or node.stderr.strip()}")
        if node.returncode != 0 or "BlurMaterialElement" not in node.stdout:
            failures.append(f"the elements do not import in Node: {node.stderr.strip()}")

        handler = partial(http.server.SimpleHTTPRequestHandler, directory=work)
        handler.log_message = lambda *args: None
        server = socketserver.TCPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/page.html"
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=SCALE, color_scheme="light")
                page = context.new_page()
                messages = []
                page.on("console", lambda m: messages.append((m.type, m.text)))
                page.goto(url)
                page.evaluate("() => window.ready")
                page.evaluate("() => document.fonts.ready")
                settle = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"

                page.evaluate("() => { document.getElementById('m').style.visibility = 'hidden'; }")
                page.evaluate(settle)
                backdrop = shot(page)
                Image.fromarray(backdrop).save(os.path.join(work, "backdrop.png"))
                page.evaluate("() => { document.getElementById('m').style.visibility = 'visible'; }")

                x, y, w, h = (v * SCALE for v in REGION)
                rows = []
                for appearance in ["light", "dark"]:
                    for material in MATERIALS:
                        page.evaluate("([m, a]) => { const e = document.getElementById('m'); e.setAttribute('material', m); e.setAttribute('appearance', a); }",
                                      [material, appearance])
                        page.evaluate(settle)
                        drawn = shot(page)[y:y + h, x:x + w]
                        out = os.path.join(work, f"engine-{material}-{appearance}.png")
                        subprocess.run([BLURKIT, "material", os.path.join(work, "backdrop.png"), out, "--style", material, "--appearance", appearance,
                                        "--region", ",".join(str(v) for v in REGION), "--scale", str(SCALE)], check=True)
                        engine = np.asarray(Image.open(out).convert("RGB"))[y:y + h, x:x + w]
                        if os.environ.get("KEEP"):
                            Image.fromarray(drawn).save(os.path.join(work, f"chromium-{material}-{appearance}.png"))
                        de = delta_e2000(srgb_to_lab(drawn), srgb_to_lab(engine))
                        p95, mean = float(np.percentile(de, 95)), float(de.mean())
                        # Chromium reads the backdrop inside the element only and extends it past the
                        # edges its own way; the engine clamps: within INSET CSS px of an edge they differ.
                        inner = float(np.percentile(de[INSET * SCALE:-INSET * SCALE, INSET * SCALE:-INSET * SCALE], 95))
                        rows.append((material, appearance, p95, mean, inner))
                        print(f"in chromium: <blur-material material={material} appearance={appearance}> ΔE2000 p95 {p95:.2f} over the element, "
                              f"{inner:.2f} more than {INSET} px inside its edges (target p95 ≤ {TARGET:g}); mean {mean:.2f}")
                        if inner > TARGET:
                            failures.append(f"{material} {appearance}: ΔE2000 p95 {inner:.2f} > {TARGET:g} inside the edges")

                # A bad attribute: a console error naming it, and the default drawn.
                page.evaluate("() => { const e = document.getElementById('m'); e.setAttribute('appearance', 'light'); e.setAttribute('material', 'regular'); e.setAttribute('corner-radius', '0'); }")
                page.evaluate(settle)
                regular = shot(page)
                for attribute, value in [("material", "purple"), ("corner-radius", "-4"), ("corner-radius", "lots"), ("appearance", "sepia")]:
                    messages.clear()
                    page.evaluate("([a, v]) => document.getElementById('m').setAttribute(a, v)", [attribute, value])
                    page.evaluate(settle)
                    errors = [t for kind, t in messages if kind == "error"]
                    named = any(f"<blur-material> {attribute}" in t for t in errors)
                    same = np.array_equal(shot(page), regular)
                    print(f"bad {attribute}={value!r}: console error naming it: {named}; drawn with the default: {same}")
                    if not named:
                        failures.append(f"{attribute}={value!r}: no console error naming it ({errors})")
                    if not same:
                        failures.append(f"{attribute}={value!r}: not drawn with the default")
                    page.evaluate("([a, v]) => document.getElementById('m').setAttribute(a, v)",
                                  [attribute, {"material": "regular", "corner-radius": "0", "appearance": "light"}[attribute]])

                # No appearance: the page's colour scheme, followed live.
                page.evaluate("() => document.getElementById('m').setAttribute('appearance', 'dark')")
                page.evaluate(settle)
                dark = shot(page)
                page.evaluate("() => document.getElementById('m').removeAttribute('appearance')")
                page.evaluate(settle)
                follows_light = np.array_equal(shot(page), regular)
                page.emulate_media(color_scheme="dark")
                page.evaluate(settle)
                follows_dark = np.array_equal(shot(page), dark) and page.evaluate("() => document.getElementById('m').dataset.appearance") == "dark"
                print(f"prefers-color-scheme: light drawn as light: {follows_light}; switched live to dark: {follows_dark}")
                if not (follows_light and follows_dark):
                    failures.append("the material does not follow prefers-color-scheme live")
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
    finally:
        if os.environ.get("KEEP"):
            print(f"kept {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print("FAIL", failure)
    print("ok" if not failures else f"{len(failures)} failures")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
