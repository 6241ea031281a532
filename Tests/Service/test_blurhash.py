"""BlurHash against Wolt's own encoder (`blurhash-python`, PyPI: its C encoder) on the same pixels.

The corpus: the six photos of ../shared/testdata at preview sizes 4, 10, 20, 32, 64 and 100 px (and
at 32 px with the components 1×1, 9×9, 6×5 and 2×7: `--blurhash XxY`); 120
synthetic images (flat colours, black, white, grey, gradients in every direction, noise, stripes,
checkers, a translucent half) at sizes from 1×1 to 100×37; and 60 crops of the photos at random
places and sizes (a fixed seed). `blurkit placeholder` writes each preview and its `blurHash`; the
reference encodes that preview PNG (RGB, 4×3 components, as `blurHash` is). The strings must agree
for at least 99 % of the corpus; each disagreement is printed (a tie of rounding: the same length,
one level apart in one term).

Then the placeholders a page draws without JavaScript, for every entry of the same runs: the WebP
data URL (the whole URL at most 1 KB, decoding to the preview within a mean of 16 levels for 95 % of
the previews and 40 for all), the SVG data URL (at most 1 KB, well-formed XML embedding that WebP URL, a Gaussian with its
edges duplicated) and the CSS (at most 500 bytes, up to 4 gradients of up to 4 colours, within 16
levels on average of the preview averaged over the same grid).

    BLURKIT=.build/release/blurkit python3 Tests/Service/test_blurhash.py
"""

import base64
import io
import json
import os
import re
import urllib.parse
import xml.etree.ElementTree as ElementTree
import random
import shutil
import subprocess
import sys
import tempfile

from PIL import Image

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import BLURKIT  # noqa: E402

try:
    import blurhash
except ImportError:
    print("FAIL blurhash-python is not installed: python3 -m pip install blurhash-python")
    sys.exit(1)

PHOTOS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "shared", "testdata")


def synthetic(folder):
    """120 images of known content, named by what they hold."""
    rng = random.Random(51)
    made = 0
    sizes = [(1, 1), (2, 1), (1, 3), (5, 5), (10, 7), (32, 32), (64, 20), (100, 37), (17, 99), (48, 48)]
    for w, h in sizes:
        for kind in range(12):
            image = Image.new("RGBA", (w, h))
            px = image.load()
            for y in range(h):
                for x in range(w):
                    if kind == 0:
                        c = (255, 255, 255, 255)
                    elif kind == 1:
                        c = (0, 0, 0, 255)
                    elif kind == 2:
                        c = (128, 128, 128, 255)
                    elif kind == 3:
                        c = (x * 255 // max(1, w - 1), 40, 200, 255)
                    elif kind == 4:
                        c = (30, y * 255 // max(1, h - 1), 90, 255)
                    elif kind == 5:
                        c = ((x + y) * 255 // max(1, w + h - 2), 255 - (x + y) * 255 // max(1, w + h - 2), 120, 255)
                    elif kind == 6:
                        c = (rng.randrange(256), rng.randrange(256), rng.randrange(256), 255)
                    elif kind == 7:
                        c = (255, 0, 0, 255) if x % 2 == 0 else (0, 0, 255, 255)
                    elif kind == 8:
                        c = (250, 250, 250, 255) if (x // 2 + y // 2) % 2 == 0 else (5, 5, 5, 255)
                    elif kind == 9:
                        c = (200, 120, 40, 255 if x < w // 2 else 128)
                    elif kind == 10:
                        c = (rng.randrange(100, 140), rng.randrange(60, 80), rng.randrange(180, 200), 255)
                    else:
                        c = (255, 255, 0, 255) if y < h // 3 else (0, 128, 255, 255)
                    px[x, y] = c
            image.save(os.path.join(folder, f"s{w}x{h}-{kind}.png"))
            made += 1
    return made


def crops(folder):
    """60 crops of the photos, from a fixed seed."""
    rng = random.Random(53)
    photos = sorted(f for f in os.listdir(PHOTOS) if f.endswith((".png", ".jpg")))
    for n in range(60):
        image = Image.open(os.path.join(PHOTOS, photos[n % len(photos)])).convert("RGB")
        w, h = image.size
        cw, ch = rng.randrange(8, min(400, w)), rng.randrange(8, min(400, h))
        x, y = rng.randrange(0, w - cw), rng.randrange(0, h - ch)
        image.crop((x, y, x + cw, y + ch)).save(os.path.join(folder, f"c{n:02d}.png"))
    return 60


def placeholders(inputs, out, size, components=None):
    extra = ["--blurhash", components] if components else []
    run = subprocess.run([BLURKIT, "placeholder", inputs, "--out", out, "--size", str(size), "--quiet", *extra],
                         capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"blurkit placeholder {inputs} --size {size}: exit {run.returncode}: {run.stderr.strip()}")
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)["images"]


def main():
    work = tempfile.mkdtemp(prefix="blurhash-")
    try:
        compared, agreed, differences = 0, 0, []
        web = {"checked": 0, "failures": [], "largest": [0, 0, 0]}

        def page_placeholders(out, entry, label):
            """The WebP data URL, the SVG and the CSS of one entry, against its preview."""
            name = f"{label} {entry['file']}"
            with Image.open(os.path.join(out, entry["preview"]["file"])) as preview:
                preview = preview.convert("RGBA")
            small = preview.copy()
            small.thumbnail((16, 16), Image.Resampling.BOX)
            lossy = entry.get("webpDataURI") or ""
            web["checked"] += 1
            if not lossy.startswith("data:image/webp;base64,") or len(lossy) > 1024:
                web["failures"].append(f"{name}: webpDataURI is not a WebP data URL of at most 1 KB ({len(lossy)} bytes: {lossy[:40]})")
                return
            with Image.open(io.BytesIO(base64.b64decode(lossy.split(",", 1)[1]))) as decoded:
                decoded = decoded.convert("RGBA")
            if decoded.size != preview.size and max(decoded.size) > 16:
                web["failures"].append(f"{name}: the WebP preview is {decoded.size}, the preview {preview.size}")
                return
            reference = preview.resize(decoded.size, Image.Resampling.BOX)
            pairs = list(zip(decoded.getdata(), reference.getdata()))
            mean = sum(abs(a[c] - b[c]) for a, b in pairs for c in range(3)) / (3 * len(pairs))
            web.setdefault("lossy", []).append((mean, name))
            if mean > 40:
                web["failures"].append(f"{name}: the WebP preview is {mean:.1f} levels from the preview on average")
            svg = entry.get("svg") or ""
            web["largest"] = [max(web["largest"][0], len(lossy)), max(web["largest"][1], len(svg)), max(web["largest"][2], len(entry.get("css") or ""))]
            if not svg.startswith("data:image/svg+xml,") or len(svg) > 1024:
                web["failures"].append(f"{name}: svg is not an SVG data URL of at most 1 KB ({len(svg)} bytes)")
                return
            markup = urllib.parse.unquote(svg.split(",", 1)[1])
            try:
                root = ElementTree.fromstring(markup)
            except ElementTree.ParseError as error:
                web["failures"].append(f"{name}: the SVG is not well-formed ({error}): {markup[:80]}")
                return
            image = root.find("{http://www.w3.org/2000/svg}image")
            blur = root.find(".//{http://www.w3.org/2000/svg}feGaussianBlur")
            if image is None or image.get("href") != lossy or blur is None or blur.get("edgeMode") != "duplicate":
                web["failures"].append(f"{name}: the SVG does not blur the lossy preview with duplicated edges: {markup[:160]}")
            css = entry.get("css") or ""
            gradients = re.findall(r"linear-gradient\(90deg,([^)]*)\)", css)
            columns = max((len(g.split(",")) for g in gradients), default=0)
            if len(css) > 500 or not 1 <= len(gradients) <= 4 or not 1 <= columns <= 4 or "background-repeat:no-repeat" not in css:
                web["failures"].append(f"{name}: css is not up to 4 gradients of up to 4 colours in at most 500 bytes ({len(css)}: {css[:100]})")
                return
            # Each row's colours against the preview averaged over the same grid (a single colour
            # is written twice).
            grid = preview.resize((columns, len(gradients)), Image.Resampling.BOX)
            for y, stops in enumerate(gradients):
                colours = [tuple(int(stop[i:i + 2], 16) for i in (1, 3, 5)) for stop in stops.split(",")]
                wanted = [grid.getpixel((x, y))[:3] for x in range(columns)]
                if len(colours) != len(wanted):
                    web["failures"].append(f"{name}: css row {y} has {len(colours)} colours, the others {columns}")
                    continue
                web.setdefault("css", []).extend(abs(a - b) for c, w in zip(colours, wanted) for a, b in zip(c, w))

        def compare(out, entries, label, x=4, y=3):
            nonlocal compared, agreed
            for entry in entries:
                if (x, y) == (4, 3):
                    page_placeholders(out, entry, label)
                with Image.open(os.path.join(out, entry["preview"]["file"])) as preview:
                    reference = blurhash.encode(preview.convert("RGB"), x, y)
                compared += 1
                if entry.get("blurHash") == reference:
                    agreed += 1
                else:
                    differences.append(f"{label} {entry['file']}: {entry.get('blurHash')} against {reference}")

        photos = os.path.join(work, "photos")
        shutil.copytree(PHOTOS, photos, ignore=shutil.ignore_patterns("*.md"))
        for size in (4, 10, 20, 32, 64, 100):
            out = os.path.join(work, f"photos-{size}")
            compare(out, placeholders(photos, out, size), f"--size {size}")
        # Other components (`--blurhash XxY`), over the photos at 32 px.
        for x, y in ((1, 1), (9, 9), (6, 5), (2, 7)):
            out = os.path.join(work, f"photos-{x}x{y}")
            compare(out, placeholders(photos, out, 32, f"{x}x{y}"), f"--blurhash {x}x{y}", x, y)
        made = os.path.join(work, "made")
        os.makedirs(made)
        synthetic(made)
        crops(made)
        for size in (10, 32):
            out = os.path.join(work, f"made-{size}")
            compare(out, placeholders(made, out, size), f"--size {size}")
        for line in differences:
            print("tie  " + line)
        share = agreed / max(1, compared)
        ok = compared >= 410 and share >= 0.99
        print(f"{'ok  ' if ok else 'FAIL'} BlurHash equal to Wolt's encoder for {agreed} of {compared} previews ({share:.2%}; at least 99 %)")
        for line in web["failures"][:20]:
            print("FAIL " + line)
        lossy = sorted(m for m, _ in web.get("lossy", []))
        typical = lossy[int(0.95 * (len(lossy) - 1))] if lossy else 99
        css_mean = sum(web.get("css", [99])) / max(1, len(web.get("css", [])))
        if typical > 16:
            web["failures"].append(f"the lossy previews' 95th percentile is {typical:.1f} levels from the preview (at most 16)")
        if css_mean > 16:
            web["failures"].append(f"the CSS colours are {css_mean:.1f} levels from the preview's boxes on average (at most 16)")
        print(f"     WebP preview: mean error p95 {typical:.1f} levels, worst {lossy[-1] if lossy else 0:.1f}; CSS colours {css_mean:.1f} levels on average")
        page = not web["failures"] and web["checked"] == compared - 24
        print(f"{'ok  ' if page else 'FAIL'} page placeholders of {web['checked']} previews: WebP data URL, SVG and CSS within their sizes "
              f"and like the preview (largest {web['largest'][0]}, {web['largest'][1]} and {web['largest'][2]} bytes; "
              f"{len(web['failures'])} failures)")
        passed = int(ok) + int(page)
        print(f"{passed} passed, {2 - passed} failed")
        sys.exit(0 if passed == 2 else 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
