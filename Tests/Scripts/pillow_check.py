#!/usr/bin/env python3
"""A decoder and an encoder that are not BlurKit's, for the tests (Pillow).

    pillow_check.py read FILE OUTDIR
        Decodes every frame of FILE (APNG, GIF, WebP, PNG, JPEG) with Pillow, composited as Pillow
        shows it, and writes OUTDIR/frame-N.rgba (straight RGBA, row after row) and OUTDIR/info.json
        (width, height, frame count, each frame's duration in ms, loop count, format).
    pillow_check.py cmyk OUT.jpg
        Writes a 48x32 CMYK JPEG (Pillow's encoder, which stores CMYK inverted with an Adobe marker):
        four blocks of pure inks. Prints the CMYK values of each block as JSON.
    pillow_check.py gif OUT.gif
        Writes a 40x30 animated GIF with frames that exercise disposal (none, background, previous),
        sub-rectangles and local palettes, through Pillow's encoder.
"""
import json
import os
import sys

from PIL import Image, ImageSequence


def read(path, outdir):
    os.makedirs(outdir, exist_ok=True)
    image = Image.open(path)
    durations = []
    count = 0
    for index, frame in enumerate(ImageSequence.Iterator(image)):
        rgba = frame.convert("RGBA")  # loads the frame; some formats set its duration only then
        durations.append(frame.info.get("duration", 0))
        with open(os.path.join(outdir, "frame-%d.rgba" % index), "wb") as f:
            f.write(rgba.tobytes())
        count += 1
    info = {
        "width": image.width, "height": image.height, "frames": count, "durations": durations,
        "loop": image.info.get("loop"), "format": image.format,
    }
    with open(os.path.join(outdir, "info.json"), "w") as f:
        json.dump(info, f)


def cmyk(path):
    blocks = [(255, 0, 0, 0), (0, 255, 0, 0), (0, 0, 255, 0), (0, 0, 0, 128), (64, 32, 0, 0), (0, 0, 0, 0)]
    image = Image.new("CMYK", (48, 32))
    for i, ink in enumerate(blocks):
        x, y = (i % 3) * 16, (i // 3) * 16
        image.paste(ink, (x, y, x + 16, y + 16))
    image.save(path, quality=100, subsampling=0)
    print(json.dumps(blocks))


def gif(path):
    # Frame 0: a full red canvas. Frame 1: a green square in a sub-rectangle, then restored to the
    # background. Frame 2: a blue square elsewhere, then restored to what was before. Frame 3: a
    # local palette of greys. Each frame's colours differ, so Pillow writes local colour tables.
    size = (40, 30)
    frames = []
    base = Image.new("RGB", size, (200, 30, 30))
    frames.append(base.copy())
    green = base.copy()
    green.paste((30, 200, 30), (5, 5, 20, 15))
    frames.append(green)
    blue = base.copy()
    blue.paste((30, 30, 200), (20, 10, 35, 25))
    frames.append(blue)
    grey = Image.linear_gradient("L").resize(size).convert("RGB")
    frames.append(grey)
    frames[0].save(path, save_all=True, append_images=frames[1:], duration=[100, 150, 70, 200], loop=3,
                   disposal=[1, 2, 3, 1], optimize=False)


if __name__ == "__main__":
    command = sys.argv[1] if len(sys.argv) > 1 else ""
    if command == "read" and len(sys.argv) == 4:
        read(sys.argv[2], sys.argv[3])
    elif command == "cmyk" and len(sys.argv) == 3:
        cmyk(sys.argv[2])
    elif command == "gif" and len(sys.argv) == 3:
        gif(sys.argv[2])
    else:
        sys.exit(__doc__)
