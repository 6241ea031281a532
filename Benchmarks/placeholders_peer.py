#!/usr/bin/env python3
"""Times Pillow + thumbhash making the same placeholders as `blurkit placeholder` for BlurBench.

For each JPEG in the folder: open it, let libjpeg decode at reduced size (Pillow's draft mode, the
same DCT scaling BlurKit uses), apply EXIF orientation, make a preview whose longest side is 32 px
(box filter) as PNG and its data URI, the ThumbHash of a ≤ 100 px copy, and the average colour.
Prints one JSON object: seconds for the whole folder (best of N runs), or {"missing": ...}.

Install with: pip install pillow thumbhash
"""
import base64
import io
import json
import os
import sys
import time

try:
    from PIL import Image, ImageOps, ImageStat
    import thumbhash
except ImportError as error:
    print(json.dumps({"missing": str(error.name)}))
    sys.exit(0)


def placeholder(path, size=32):
    with Image.open(path) as image:
        image.draft("RGB", (100, 100))
        image = ImageOps.exif_transpose(image).convert("RGB")
        small = image.copy()
        small.thumbnail((100, 100), Image.BOX)
        preview = small.copy()
        preview.thumbnail((size, size), Image.BOX)
        buffer = io.BytesIO()
        preview.save(buffer, "PNG")
        uri = "data:image/png;base64," + base64.b64encode(buffer.getvalue()).decode()
        rgba = small.convert("RGBA")
        hash_bytes = thumbhash.rgba_to_thumb_hash(rgba.width, rgba.height, list(rgba.tobytes()))
        mean = ImageStat.Stat(preview).mean
        return len(uri), len(hash_bytes), mean


def main():
    folder, runs = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3
    files = sorted(os.path.join(folder, f) for f in os.listdir(folder) if f.lower().endswith((".jpg", ".jpeg")))
    best = float("inf")
    for _ in range(runs):
        start = time.perf_counter()
        for path in files:
            placeholder(path)
        best = min(best, time.perf_counter() - start)
    print(json.dumps({"peer": "Pillow + thumbhash", "files": len(files), "seconds": best}))


if __name__ == "__main__":
    main()
