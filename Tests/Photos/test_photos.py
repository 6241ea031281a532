"""Photos as phones and cameras make them, held to the libraries that are not ours.

Every fixture is made here: a Display P3 profile built by lcms2 (through ctypes) from its published
primaries (D65 white, the sRGB curve); the project's photo tagged with it as JPEG and PNG by Pillow;
HEIC and AVIF files written by libheif's heif-enc (with alpha, and at 10 and 12 bits).

- A P3 photo through `blurkit blur --sigma 0.1` gives sRGB within ΔE2000 ≤ 1 at the 99th percentile
  of Pillow's ImageCms (its own lcms2) conversion, and its placeholder's average colour within ΔE ≤ 1
  of the converted image's; `--keep-profile` writes the input's profile byte for byte (PNG, JPEG,
  WebP, AVIF).
- HEIC and AVIF decode to what heif-convert writes for the same file (after the same conversion),
  within one level, alpha included.
- AVIF outputs open in Pillow and in headless Chromium, ≥ 35 dB PSNR of the pixels they encode at
  --quality 90.
- The service answers format=avif and Accept: image/avif with AVIF, Vary: Accept.
"""

import base64
import ctypes
import ctypes.util
import io
import json
import os
import shutil
import subprocess
import sys
import tempfile

import numpy as np
from PIL import Image, ImageCms

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "Service"))
from harness import BLURKIT, FIXTURE, Server  # noqa: E402

failures = []


def check(condition, message):
    print(("ok   " if condition else "FAIL ") + message)
    if not condition:
        failures.append(message)


def run(*arguments):
    result = subprocess.run([BLURKIT, *arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"blurkit {' '.join(arguments)}: {result.stderr}")
    return result.stdout


def display_p3():
    """Display P3 as lcms2 builds it from the primaries (0.680, 0.320), (0.265, 0.690),
    (0.150, 0.060), the D65 white (0.3127, 0.3290) and the sRGB curve (parametric type 4)."""
    lcms = ctypes.CDLL(ctypes.util.find_library("lcms2") or "liblcms2.so.2")

    class XYY(ctypes.Structure):
        _fields_ = [("x", ctypes.c_double), ("y", ctypes.c_double), ("Y", ctypes.c_double)]

    class Triple(ctypes.Structure):
        _fields_ = [("red", XYY), ("green", XYY), ("blue", XYY)]

    lcms.cmsBuildParametricToneCurve.restype = ctypes.c_void_p
    lcms.cmsBuildParametricToneCurve.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)]
    lcms.cmsCreateRGBProfile.restype = ctypes.c_void_p
    lcms.cmsCreateRGBProfile.argtypes = [ctypes.POINTER(XYY), ctypes.POINTER(Triple), ctypes.POINTER(ctypes.c_void_p)]
    lcms.cmsSaveProfileToMem.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    lcms.cmsCloseProfile.argtypes = [ctypes.c_void_p]
    parameters = (ctypes.c_double * 5)(2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045)
    curve = lcms.cmsBuildParametricToneCurve(None, 4, parameters)
    curves = (ctypes.c_void_p * 3)(curve, curve, curve)
    white = XYY(0.3127, 0.3290, 1.0)
    primaries = Triple(XYY(0.680, 0.320, 1), XYY(0.265, 0.690, 1), XYY(0.150, 0.060, 1))
    profile = lcms.cmsCreateRGBProfile(ctypes.byref(white), ctypes.byref(primaries), curves)
    size = ctypes.c_uint32(0)
    lcms.cmsSaveProfileToMem(profile, None, ctypes.byref(size))
    data = ctypes.create_string_buffer(size.value)
    lcms.cmsSaveProfileToMem(profile, data, ctypes.byref(size))
    lcms.cmsCloseProfile(profile)
    return data.raw


def to_srgb(image, profile):
    """`image` (RGB or RGBA) from `profile` to sRGB by Pillow's ImageCms: relative colorimetric
    with black-point compensation, BlurKit's intent."""
    source = ImageCms.ImageCmsProfile(io.BytesIO(profile))
    return ImageCms.profileToProfile(image, source, ImageCms.createProfile("sRGB"), renderingIntent=1, flags=0x2000)


def lab(rgb):
    """sRGB bytes (…, 3) → CIELAB (D65)."""
    c = np.asarray(rgb, dtype=np.float64) / 255
    linear = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]])
    xyz = linear @ m.T / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def delta_e2000(a, b):
    """CIEDE2000 between two arrays of CIELAB colours (Sharma, Wu and Dalal's formulation)."""
    L1, a1, b1 = a[..., 0], a[..., 1], a[..., 2]
    L2, a2, b2 = b[..., 0], b[..., 1], b[..., 2]
    C = (np.hypot(a1, b1) + np.hypot(a2, b2)) / 2
    G = 0.5 * (1 - np.sqrt(C**7 / (C**7 + 25.0**7)))
    a1p, a2p = a1 * (1 + G), a2 * (1 + G)
    C1p, C2p = np.hypot(a1p, b1), np.hypot(a2p, b2)
    h1p, h2p = np.degrees(np.arctan2(b1, a1p)) % 360, np.degrees(np.arctan2(b2, a2p)) % 360
    dLp, dCp = L2 - L1, C2p - C1p
    dh = h2p - h1p
    dh = np.where(C1p * C2p == 0, 0, np.where(dh > 180, dh - 360, np.where(dh < -180, dh + 360, dh)))
    dHp = 2 * np.sqrt(C1p * C2p) * np.sin(np.radians(dh / 2))
    Lp, Cp = (L1 + L2) / 2, (C1p + C2p) / 2
    hsum = h1p + h2p
    hp = np.where(C1p * C2p == 0, hsum, np.where(np.abs(h1p - h2p) > 180, np.where(hsum < 360, hsum + 360, hsum - 360), hsum) / 2)
    T = 1 - 0.17 * np.cos(np.radians(hp - 30)) + 0.24 * np.cos(np.radians(2 * hp)) + 0.32 * np.cos(np.radians(3 * hp + 6)) \
        - 0.20 * np.cos(np.radians(4 * hp - 63))
    SL = 1 + 0.015 * (Lp - 50) ** 2 / np.sqrt(20 + (Lp - 50) ** 2)
    SC, SH = 1 + 0.045 * Cp, 1 + 0.015 * Cp * T
    RT = -2 * np.sqrt(Cp**7 / (Cp**7 + 25.0**7)) * np.sin(np.radians(60 * np.exp(-(((hp - 275) / 25) ** 2))))
    return np.sqrt((dLp / SL) ** 2 + (dCp / SC) ** 2 + (dHp / SH) ** 2 + RT * (dCp / SC) * (dHp / SH))


def pixels(path, mode="RGB"):
    return np.asarray(Image.open(path).convert(mode)).astype(np.int64)


def psnr(a, b):
    mse = np.mean((a.astype(np.float64) - b.astype(np.float64)) ** 2)
    return float("inf") if mse == 0 else 10 * np.log10(255 * 255 / mse)


def premultiplied(rgba):
    return np.concatenate([(rgba[..., :3] * rgba[..., 3:] + 127) // 255, rgba[..., 3:]], -1)


def profiles(folder, p3):
    photo = Image.open(FIXTURE).convert("RGB")
    jpeg, png = os.path.join(folder, "p3.jpg"), os.path.join(folder, "p3.png")
    photo.save(jpeg, quality=95, icc_profile=p3)
    photo.save(png, icc_profile=p3)
    for source in (jpeg, png):
        name = os.path.basename(source)
        out = os.path.join(folder, name + ".out.png")
        run("blur", source, out, "--sigma", "0.1")
        check(Image.open(out).info.get("icc_profile") is None, f"{name} → PNG: no profile in the sRGB output")
        reference = to_srgb(Image.open(source).convert("RGB"), p3)
        ours = pixels(out)
        de = delta_e2000(lab(ours), lab(np.asarray(reference)))
        p99, unconverted = np.percentile(de, 99), np.percentile(delta_e2000(lab(pixels(source)), lab(np.asarray(reference))), 99)
        print(f"     {name}: ΔE2000 against ImageCms p99 {p99:.3f}, max {de.max():.3f} (left unconverted: p99 {unconverted:.2f})")
        check(p99 <= 1, f"{name}: within ΔE2000 1 of lcms2's conversion at the 99th percentile")
        check(unconverted > 1, f"{name}: the conversion moves colours (unconverted p99 {unconverted:.2f})")

        manifest = os.path.join(folder, "placeholders-" + name)
        run("placeholder", source, "--out", manifest, "--quiet")
        entries = json.load(open(os.path.join(manifest, "manifest.json")))
        entry = entries["images"][0] if isinstance(entries, dict) else entries[0]
        colour = entry["averageColor"].lstrip("#")
        average = np.array([int(colour[i:i + 2], 16) for i in (0, 2, 4)], dtype=np.float64)
        expected = np.asarray(reference).reshape(-1, 3).mean(0)
        de = float(delta_e2000(lab(average), lab(expected)))
        print(f"     {name}: placeholder average #{colour} against the converted image's mean {expected.round(1)}: ΔE2000 {de:.3f}")
        check(de <= 1, f"{name}: the placeholder's average colour is the converted image's (ΔE2000 ≤ 1)")

        for suffix in ("png", "jpg", "webp", "avif"):
            kept = os.path.join(folder, f"{name}.kept.{suffix}")
            run("blur", source, kept, "--sigma", "2", "--keep-profile")
            check(Image.open(kept).info.get("icc_profile") == p3, f"{name} --keep-profile → .{suffix}: the input's profile byte for byte")
        kept = pixels(os.path.join(folder, f"{name}.kept.png"))
        converted = os.path.join(folder, name + ".blur2.png")
        run("blur", source, converted, "--sigma", "2")
        check(np.abs(kept - pixels(converted)).max() > 5, f"{name}: --keep-profile keeps the P3 values (not converted)")


def every_colour(folder, p3):
    """All 16.7 million 8-bit colours, tagged Display P3, through blurkit (BlurKit's own matrix
    shaper when it agrees with lcms2 on a grid): each channel within one level of ImageCms."""
    v = np.arange(256, dtype=np.uint8)
    cube = np.stack(np.meshgrid(v, v, v, indexing="ij"), -1).reshape(4096, 4096, 3)
    source, out = os.path.join(folder, "cube.png"), os.path.join(folder, "cube.out.png")
    Image.fromarray(cube).save(source, icc_profile=p3, compress_level=1)
    run("blur", source, out, "--sigma", "0.1")
    difference = np.abs(pixels(out).astype(int) - np.asarray(to_srgb(Image.fromarray(cube), p3)).astype(int)).max(-1)
    print(f"     every colour: {np.mean(difference > 0) * 100:.1f} % of colours differ from ImageCms, by at most {difference.max()}")
    check(difference.max() <= 1, "every 8-bit colour of a Display P3 image within one level of lcms2's conversion")


def heif(folder, p3):
    # A photo with alpha, tagged P3: heif-enc copies the PNG's profile into colr.
    photo = Image.open(FIXTURE).convert("RGBA")
    alpha = np.asarray(photo).copy()
    h, w = alpha.shape[:2]
    alpha[..., 3] = np.clip(np.add.outer(np.arange(h) * 0, np.arange(w) * 255 // (w - 1)) + 60, 0, 255)
    source = os.path.join(folder, "alpha.png")
    Image.fromarray(alpha.astype(np.uint8), "RGBA").save(source, icc_profile=p3)
    for suffix in ("heic", "avif"):
        encoded = os.path.join(folder, "photo." + suffix)
        subprocess.run(["heif-enc", "-q", "90", "-o", encoded, source], check=True, capture_output=True)
        theirs_path = os.path.join(folder, suffix + ".heif-convert.png")
        subprocess.run(["heif-convert", encoded, theirs_path], check=True, capture_output=True)
        theirs_image = Image.open(theirs_path)
        profile = theirs_image.info.get("icc_profile")
        check(profile == p3, f"{suffix}: heif-convert finds the P3 profile heif-enc wrote")
        theirs = np.asarray(to_srgb(theirs_image.convert("RGBA"), p3)).astype(np.int64)
        ours_path = os.path.join(folder, suffix + ".ours.png")
        run("blur", encoded, ours_path, "--sigma", "0.1")
        ours = pixels(ours_path, "RGBA")
        check(ours.shape == theirs.shape, f"{suffix}: the size heif-convert gives {theirs.shape[1]}×{theirs.shape[0]}")
        difference = np.abs(premultiplied(ours) - premultiplied(theirs)).max()
        print(f"     {suffix}: premultiplied RGBA against heif-convert + ImageCms: max difference {difference}")
        check(difference <= 1, f"{suffix}: decodes to heif-convert's pixels within one level, alpha included")
        kept = os.path.join(folder, suffix + ".kept.png")
        run("blur", encoded, kept, "--sigma", "0.1", "--keep-profile")
        check(Image.open(kept).info.get("icc_profile") == p3, f"{suffix} --keep-profile: the colr profile carried into PNG")

    # Deep samples: a 16-bit gradient as 10-bit HEIC and 12-bit AVIF (libheif 1.15 with aom 3.6
    # cannot write 10-bit AV1), rounded to 8 bits as heif-convert rounds them.
    ramp = np.linspace(0, 65535, 256).astype(np.uint16)
    deep = np.stack([np.tile(ramp, (64, 1)), np.tile(ramp[::-1], (64, 1)), np.full((64, 256), 30000, np.uint16)], -1)
    deep_png = os.path.join(folder, "deep.png")
    write_png16(deep_png, deep)
    for bits, suffix in ((10, "heic"), (12, "avif")):
        encoded = os.path.join(folder, f"deep{bits}.{suffix}")
        subprocess.run(["heif-enc", "-b", str(bits), "-q", "95", "-o", encoded, deep_png], check=True, capture_output=True)
        theirs_path = os.path.join(folder, f"deep{bits}.heif-convert.png")
        subprocess.run(["heif-convert", encoded, theirs_path], check=True, capture_output=True)
        ours_path = os.path.join(folder, f"deep{bits}.ours.png")
        run("blur", encoded, ours_path, "--sigma", "0.1")
        theirs = np.asarray(Image.open(theirs_path)).astype(np.int64)
        if theirs.dtype != np.uint8 and theirs.max() > 255:
            theirs = (theirs * 255 + 32767) // 65535
        difference = np.abs(pixels(ours_path) - theirs[..., :3]).max()
        check(difference <= 1, f"{bits}-bit {suffix}: within one level of heif-convert (max {difference})")


def write_png16(path, rgb):
    """A 16-bit RGB PNG (Pillow writes no 16-bit colour)."""
    import struct
    import zlib
    h, w, _ = rgb.shape
    raw = b"".join(b"\0" + rgb[y].astype(">u2").tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 16, 2, 0, 0, 0)
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def avif_out(folder):
    source = os.path.join(folder, "photo.png")
    shutil.copy(FIXTURE, source)
    encoded, plain = os.path.join(folder, "out.avif"), os.path.join(folder, "out.png")
    run("blur", source, encoded, "--sigma", "1.5", "--quality", "90")
    run("blur", source, plain, "--sigma", "1.5")
    target = pixels(plain)
    opened = Image.open(encoded)
    check(opened.format == "AVIF", f"Pillow {Image.__version__ if hasattr(Image, '__version__') else ''} opens our AVIF as AVIF")
    in_pillow = psnr(np.asarray(opened.convert("RGB")), target)
    print(f"     AVIF at --quality 90 ({os.path.getsize(encoded)} bytes): {in_pillow:.2f} dB in Pillow")
    check(in_pillow >= 35, "AVIF in Pillow: ≥ 35 dB PSNR of the pixels it encodes")
    in_chromium = chromium_psnr(encoded, target)
    if in_chromium is not None:
        print(f"     in headless Chromium: {in_chromium:.2f} dB")
        check(in_chromium >= 35, "AVIF in Chromium: ≥ 35 dB PSNR of the pixels it encodes")
    # The encoder's memory (24 bytes a pixel) is in the budget: 1920×1080 to AVIF needs about 67 MB.
    large, budgeted = os.path.join(folder, "large.png"), os.path.join(folder, "budgeted.avif")
    Image.open(FIXTURE).convert("RGB").resize((1920, 1080)).save(large)
    result = subprocess.run([BLURKIT, "blur", large, budgeted, "--sigma", "2", "--memory-budget", "40"], capture_output=True, text=True)
    check(result.returncode != 0 and "memory budget" in result.stderr and not os.path.exists(budgeted),
          f"AVIF's encoder counted against --memory-budget 40: {result.stderr.strip()}")
    run("blur", large, os.path.join(folder, "budgeted.png"), "--sigma", "2", "--memory-budget", "40")


def chromium_psnr(path, target):
    """The AVIF drawn by Debian's chromium (headless, Playwright) onto a canvas, against `target`."""
    from playwright.sync_api import sync_playwright

    chromium = shutil.which("chromium") or "/usr/bin/chromium"
    data = base64.b64encode(open(path, "rb").read()).decode()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, headless=True, args=["--no-sandbox", "--force-color-profile=srgb"])
        try:
            page = browser.new_page()
            page.set_content("<html><body></body></html>")
            result = page.evaluate(
                """async (data) => {
                    const image = new Image();
                    image.src = "data:image/avif;base64," + data;
                    try { await image.decode(); } catch (e) { return { error: String(e) }; }
                    const canvas = document.createElement("canvas");
                    canvas.width = image.naturalWidth; canvas.height = image.naturalHeight;
                    const context = canvas.getContext("2d");
                    context.drawImage(image, 0, 0);
                    const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
                    return { width: canvas.width, height: canvas.height, pixels: Array.from(pixels) };
                }""",
                data,
            )
        finally:
            browser.close()
    if "error" in result:
        check(False, f"Chromium decodes our AVIF: {result['error']}")
        return None
    check((result["height"], result["width"]) == target.shape[:2], "Chromium reads the AVIF's size")
    if (result["height"], result["width"]) != target.shape[:2]:
        return None
    drawn = np.array(result["pixels"], dtype=np.uint8).reshape(result["height"], result["width"], 4)[..., :3]
    return psnr(drawn, target)


def service(folder):
    root = os.path.join(folder, "root")
    os.makedirs(root)
    shutil.copy(FIXTURE, os.path.join(root, "photo.png"))
    with Server(root) as server:
        status, headers, body = server.get("/blur/photo.png?sigma=2&format=avif")
        check(status == 200 and headers.get("Content-Type") == "image/avif", f"format=avif: {status} {headers.get('Content-Type')}")
        check(Image.open(io.BytesIO(body)).format == "AVIF", "format=avif: the body is an AVIF Pillow opens")
        status, headers, body = server.get("/blur/photo.png?sigma=2", headers={"Accept": "image/avif"})
        check(headers.get("Content-Type") == "image/avif", f"Accept: image/avif → {headers.get('Content-Type')}")
        check("Accept" in headers.get("Vary", ""), f"Vary names Accept ({headers.get('Vary')})")
        status, headers, _ = server.get("/blur/photo.png?sigma=2", headers={"Accept": "image/avif,image/webp,*/*"})
        check(headers.get("Content-Type") == "image/webp", f"a browser's Accept (AVIF and WebP alike) → {headers.get('Content-Type')}")
        status, headers, _ = server.get("/blur/photo.png?sigma=2", headers={"Accept": "image/avif,image/webp;q=0.8"})
        check(headers.get("Content-Type") == "image/avif", f"AVIF ranked higher → {headers.get('Content-Type')}")
        status, headers, body = server.get("/blur/photo.png?sigma=2&format=png&keep-profile=true")
        check(status == 200, f"keep-profile=true is a parameter of the route ({status})")


def main():
    for tool in ("heif-enc", "heif-convert"):
        if shutil.which(tool) is None:
            print(f"FAIL {tool} is missing: run sudo apt-get install -y libheif-examples")
            sys.exit(1)
    # The parts to run (all without arguments): profiles, heif, avif, service.
    parts = sys.argv[1:] or ["profiles", "heif", "avif", "service"]
    folder = tempfile.mkdtemp(prefix="blurkit-photos-")
    try:
        p3 = display_p3()
        if "profiles" in parts:
            profiles(folder, p3)
            every_colour(folder, p3)
        if "heif" in parts:
            heif(folder, p3)
        if "avif" in parts:
            avif_out(folder)
        if "service" in parts:
            service(folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    if failures:
        print(f"{len(failures)} failed")
        sys.exit(1)
    print("photos: all checks passed")


if __name__ == "__main__":
    main()
