#!/usr/bin/env python3
"""Times the same reduce in the peers installed here for BlurBench's resize table, in process:
Pillow's `resize(LANCZOS)`, OpenCV's `INTER_AREA` and libvips's `resize` (Lanczos-3 by default).

Reads a raw RGBA file written by BlurBench (an opaque photo), reduces it to the width asked (the
height from the aspect, rounded), prints one JSON object per peer on stdout (median milliseconds
of the runs after one warm-up) and writes each peer's output as raw RGBA so that BlurBench can hold
it to its float64 reference. A peer that is not installed is reported as missing, never faked.
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def peers(width, height):
    found = {}
    try:
        from PIL import Image

        def pillow(a):
            image = Image.frombuffer("RGBA", (a.shape[1], a.shape[0]), a, "raw", "RGBA", 0, 1)
            return lambda: np.asarray(image.resize((width, height), Image.LANCZOS))

        found["Pillow LANCZOS"] = pillow
    except ImportError:
        print(json.dumps({"missing": "Pillow"}), flush=True)
    try:
        import cv2

        def opencv(a):
            return lambda: cv2.resize(a, (width, height), interpolation=cv2.INTER_AREA)

        found["OpenCV INTER_AREA"] = opencv
    except ImportError:
        print(json.dumps({"missing": "OpenCV"}), flush=True)
    try:
        import pyvips

        def vips(a):
            h, w, _ = a.shape
            image = pyvips.Image.new_from_memory(a.tobytes(), w, h, 4, "uchar")
            scale, vscale = width / w, height / h

            def run():
                out = image.resize(scale, vscale=vscale)
                return np.frombuffer(out.write_to_memory(), np.uint8).reshape(out.height, out.width, 4)

            return run

        found["libvips resize"] = vips
    except (ImportError, OSError):
        print(json.dumps({"missing": "libvips"}), flush=True)
    return found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--image", required=True, help="PATH:WIDTHxHEIGHT of a raw RGBA file")
    p.add_argument("--width", type=int, required=True)
    p.add_argument("--height", type=int, required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--out", required=True, help="folder for the outputs")
    args = p.parse_args()
    path, size = args.image.rsplit(":", 1)
    w, h = (int(v) for v in size.split("x"))
    a = np.fromfile(path, np.uint8).reshape(h, w, 4)
    for name, make in peers(args.width, args.height).items():
        run = make(a)
        out = np.ascontiguousarray(run(), dtype=np.uint8)  # warm-up, and the output to compare
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            run()
            times.append((time.perf_counter() - t) * 1000)
        file = f"{args.out}/{name.split()[0]}.rgba"
        out.tofile(file)
        print(json.dumps({"peer": name, "ms": statistics.median(times), "file": file, "width": out.shape[1], "height": out.shape[0]}),
              flush=True)


if __name__ == "__main__":
    sys.exit(main())
