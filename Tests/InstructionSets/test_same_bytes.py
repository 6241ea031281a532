"""The same bytes whatever the instruction set: `blurkit` built with `-Xcc -mavx2` (the fixed-point
kernels' AVX2 intrinsics) against `blurkit` built with no flags (the portable Swift SIMD blocks a
package depending on BlurKit compiles), over every σ of the direct schedule and around it, both
edge modes, widths that leave every length of tail, the progressive blur in all four directions,
the materials, the scroll-edge effect and Liquid Glass. The WebAssembly module (SIMD128 intrinsics)
is held to the AVX2 binary by Tests/Web/test_wasm.mjs, so all three agree.

    python3 Tests/InstructionSets/test_same_bytes.py AVX2_BLURKIT PORTABLE_BLURKIT

It ends with `N passed, M failed` and exits 1 when any output differs or a binary fails."""

import hashlib
import os
import subprocess
import sys
import tempfile

from PIL import Image

PACKAGE = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURE = os.path.join(PACKAGE, "Tests", "Fixtures", "chelsea.png")


def digest(binary, arguments, folder, name):
    """The SHA-256 of what `binary ARGUMENTS` writes to `name` in `folder`, or the failure."""
    out = os.path.join(folder, name)
    run = subprocess.run([binary, *[out if a == "OUT" else a for a in arguments]], capture_output=True, timeout=300)
    if run.returncode != 0:
        return f"exit {run.returncode}: {run.stderr.decode(errors='replace')[:200]}"
    with open(out, "rb") as f:
        return hashlib.sha256(f.read()).hexdigest()


def main():
    avx2, portable = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory(prefix="blurkit-same-bytes-") as folder:
        photo = Image.open(FIXTURE).convert("RGBA")
        inputs = {}
        # 451 px: 1,804 values a row, so the 32-lane blocks leave a tail of 12; 97 and 33 leave others.
        for width in (451, 97, 33):
            path = os.path.join(folder, f"w{width}.png")
            photo.crop((0, 0, width, 180)).save(path)
            inputs[width] = path
        translucent = os.path.join(folder, "translucent.png")
        faded = photo.crop((0, 0, 300, 200))
        faded.putalpha(Image.linear_gradient("L").resize((300, 200)))
        faded.save(translucent)

        cases = []
        for sigma in ("0.3", "0.5", "0.8", "1", "1.5", "2", "2.5", "3", "3.7", "4", "5", "5.9", "6", "8", "24"):
            for width, path in inputs.items():
                cases.append((f"blur σ {sigma} w {width}", ["blur", path, "OUT", "--sigma", sigma, "--format", "png"]))
            cases.append((f"blur σ {sigma} transparent edges, translucent", ["blur", translucent, "OUT", "--sigma", sigma, "--edges", "transparent"]))
        for direction in ("down", "up", "left", "right"):
            for radius in ("2", "5", "24"):
                cases.append((f"progressive {direction} {radius}", ["progressive", translucent, "OUT", "--direction", direction, "--max-radius", radius]))
        cases.append(("progressive over a band", ["progressive", inputs[451], "OUT", "--region", "10,20,300,64", "--max-radius", "4"]))
        for style in ("regular", "thin", "ultrathin", "chrome"):
            cases.append((f"material {style}", ["material", inputs[451], "OUT", "--style", style]))
        for style in ("soft", "hard"):
            cases.append((f"scroll-edge {style}", ["scroll-edge", inputs[451], "OUT", "--style", style]))
        cases.append(("glass", ["glass", inputs[451], "OUT"]))

        passed, failed = 0, []
        for index, (label, arguments) in enumerate(cases):
            a = digest(avx2, arguments, folder, f"a{index}.png")
            b = digest(portable, arguments, folder, f"b{index}.png")
            same = a == b and len(a) == 64
            print(("ok   " if same else "FAIL ") + label + ("" if same else f": {a[:80]} against {b[:80]}"), flush=True)
            if same:
                passed += 1
            else:
                failed.append(label)
    print(f"{passed} passed, {len(failed)} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
