#!/usr/bin/env python3
"""Times the same Gaussian blur in the peers installed here (Pillow, OpenCV, libvips) for BlurBench.

Reads raw RGBA files written by BlurBench, prints one JSON object per measurement on stdout, and
writes each peer's blur of the small accuracy image so BlurBench can compare it with its float64
reference. A peer that is not installed is reported as missing, never faked.

Install them with: pip install pillow opencv-python-headless pyvips pyvips-binary
"""
import argparse
import json
import statistics
import sys
import time

import numpy as np


def peers():
    found = {}
    try:
        from PIL import Image, ImageFilter

        def pillow(a, sigma):
            image = Image.frombuffer("RGBA", (a.shape[1], a.shape[0]), a, "raw", "RGBA", 0, 1)
            return lambda: np.asarray(image.filter(ImageFilter.GaussianBlur(sigma)))

        found["Pillow"] = pillow
    except ImportError:
        print(json.dumps({"missing": "Pillow"}), flush=True)
    try:
        import cv2

        def opencv(a, sigma):
            return lambda: cv2.GaussianBlur(a, (0, 0), sigma, borderType=cv2.BORDER_REPLICATE)

        found["OpenCV"] = opencv
    except ImportError:
        print(json.dumps({"missing": "OpenCV"}), flush=True)
    try:
        import pyvips

        def vips(a, sigma):
            h, w, _ = a.shape
            image = pyvips.Image.new_from_memory(a.tobytes(), w, h, 4, "uchar")
            return lambda: np.frombuffer(image.gaussblur(sigma).write_to_memory(), np.uint8).reshape(h, w, 4)

        found["libvips"] = vips
    except (ImportError, OSError):
        print(json.dumps({"missing": "libvips"}), flush=True)
    return found


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--image", action="append", required=True, help="PATH:WIDTHxHEIGHT of a raw RGBA file")
    p.add_argument("--accuracy", required=True, help="PATH:WIDTHxHEIGHT of the small accuracy image")
    p.add_argument("--sigmas", required=True)
    p.add_argument("--runs", type=int, default=3)
    p.add_argument("--out", required=True, help="folder for the accuracy outputs")
    args = p.parse_args()
    sigmas = [float(s) for s in args.sigmas.split(",")]
    found = peers()

    def load(spec):
        path, size = spec.rsplit(":", 1)
        w, h = (int(v) for v in size.split("x"))
        return np.fromfile(path, np.uint8).reshape(h, w, 4)

    small = load(args.accuracy)
    for name, make in found.items():
        for sigma in sigmas:
            out = np.ascontiguousarray(make(small, sigma)(), dtype=np.uint8)
            out.tofile(f"{args.out}/{name}-{sigma:g}.rgba")
        for spec in args.image:
            a = load(spec)
            for sigma in sigmas:
                run = make(a, sigma)
                run()  # warm up
                times = []
                for _ in range(args.runs):
                    t = time.perf_counter()
                    run()
                    times.append((time.perf_counter() - t) * 1000)
                print(json.dumps({"peer": name, "width": a.shape[1], "height": a.shape[0], "sigma": sigma,
                                  "ms": statistics.median(times)}), flush=True)


if __name__ == "__main__":
    sys.exit(main())
