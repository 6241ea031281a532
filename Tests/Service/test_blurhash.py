"""BlurHash against Wolt's own encoder (`blurhash-python`, PyPI: its C encoder) on the same pixels.

The corpus: the six photos of ../shared/testdata at preview sizes 4, 10, 20, 32, 64 and 100 px; 120
synthetic images (flat colours, black, white, grey, gradients in every direction, noise, stripes,
checkers, a translucent half) at sizes from 1×1 to 100×37; and 60 crops of the photos at random
places and sizes (a fixed seed). `blurkit placeholder` writes each preview and its `blurHash`; the
reference encodes that preview PNG (RGB, 4×3 components, as `blurHash` is). The strings must agree
for at least 99 % of the corpus; each disagreement is printed (a tie of rounding: the same length,
one level apart in one term).

    BLURKIT=.build/release/blurkit python3 Tests/Service/test_blurhash.py
"""

import json
import os
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


def placeholders(inputs, out, size):
    run = subprocess.run([BLURKIT, "placeholder", inputs, "--out", out, "--size", str(size), "--quiet"], capture_output=True, text=True, timeout=300)
    if run.returncode != 0:
        raise RuntimeError(f"blurkit placeholder {inputs} --size {size}: exit {run.returncode}: {run.stderr.strip()}")
    with open(os.path.join(out, "manifest.json")) as f:
        return json.load(f)["images"]


def main():
    work = tempfile.mkdtemp(prefix="blurhash-")
    try:
        compared, agreed, differences = 0, 0, []

        def compare(out, entries, label):
            nonlocal compared, agreed
            for entry in entries:
                with Image.open(os.path.join(out, entry["preview"]["file"])) as preview:
                    reference = blurhash.encode(preview.convert("RGB"), 4, 3)
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
        ok = compared >= 390 and share >= 0.99
        print(f"{'ok  ' if ok else 'FAIL'} BlurHash equal to Wolt's encoder for {agreed} of {compared} previews ({share:.2%}; at least 99 %)")
        print(f"{1 if ok else 0} passed, {0 if ok else 1} failed")
        sys.exit(0 if ok else 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
