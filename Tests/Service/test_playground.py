"""The playground in a real browser: Debian's chromium, headless, driven by Playwright (launched with
executable_path: nothing is downloaded). The page loads with no console error, a slider brings a new
image from the server, a dropped file (and a chosen one) is processed, and the blur-up comes into focus. The
controls offer only what the server takes (scale beside radius, not σ; each format once), the command
line shown writes the chosen format under its own suffix, small results give their size, and the
blur-up's blurred preview has no dark fringe. Screenshots go to docs/images/ when BLURKIT_SCREENSHOTS is set."""

import io
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

from PIL import Image
from playwright.sync_api import sync_playwright

from harness import BLURKIT, FIXTURE, PACKAGE, Server, make_root

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def main():
    root = make_root()
    web = os.environ.get("BLURKIT_WEB", os.path.join(PACKAGE, "demo-output", "web"))
    with Server(root, "--web", web) as server, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1280, "height": 900})
        problems = []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: problems.append(str(e)))

        # The first result arrives on its own.
        with page.expect_response(lambda r: r.url.startswith(server.url + "/blur/") and r.status == 200):
            page.goto(server.url + "/")
        page.wait_for_function("document.getElementById('result').dataset.version === '1'")

        # The controls show the values in use: σ starts where the registry suggests (8) on a log
        # scale, and the command line shown runs as it is.
        shown = page.evaluate("""() => [...document.querySelectorAll('#controls [name=sigma]')].map((e) => [e.type, e.value])""")
        assert ["number", "8"] in shown and any(t == "range" and abs(float(v) - 289) < 2 for t, v in shown), shown
        commands = [page.text_content("#command")]

        # σ and radius are one control with a switch: changing to radius then moving it renders.
        with page.expect_response(lambda r: "/blur/" in r.url and "radius=8" in r.url and "sigma" not in r.url) as answer:
            page.select_option('#controls select[name="unit-sigma-radius"]', "radius")
        assert answer.value.status == 200, answer.value.status
        radius = page.locator('#controls input[type=number][name="radius"]')
        with page.expect_response(lambda r: "/blur/" in r.url and "radius=3" in r.url) as answer:
            radius.evaluate("(el) => { el.value = 3; el.dispatchEvent(new Event('input', { bubbles: true })); }")
        assert answer.value.status == 200, answer.value.status
        page.wait_for_function("document.getElementById('result').dataset.version === '3'")
        commands.append(page.text_content("#command"))

        # The progressive blur's dimming shows BlurUIKit's default for each appearance.
        page.select_option("#effect", "progressive")
        page.wait_for_function("document.getElementById('result').dataset.version === '4'")
        dimming = lambda: page.eval_on_selector('#controls input[type=number][name="dimming"]', "(e) => e.value")
        assert dimming() == "0.5", dimming()
        page.select_option('#controls select[name="appearance"]', "dark")
        page.wait_for_function("document.getElementById('result').dataset.version === '5'")
        assert dimming() == "0.25", dimming()
        page.fill('#controls input[name="tint"]', "#FF8800")
        page.wait_for_function("document.getElementById('result').dataset.version === '6'")
        commands.append(page.text_content("#command"))
        page.select_option("#effect", "placeholder")
        page.wait_for_function("document.getElementById('result').dataset.version === '7'")
        commands.append(page.text_content("#command"))
        work = tempfile.mkdtemp(prefix="blurkit-commands-")
        for command in commands:
            words = shlex.split(command)
            assert words[0] == "blurkit", command
            ran = subprocess.run([BLURKIT, *words[1:]], cwd=root, capture_output=True, text=True, env={**os.environ, "TMPDIR": work})
            assert ran.returncode == 0, f"the playground shows '{command}', which fails: {ran.stderr}"
        for name in ("out.png", "previews"):
            path = os.path.join(root, name)
            shutil.rmtree(path, ignore_errors=True) if os.path.isdir(path) else (os.path.exists(path) and os.remove(path))

        page.select_option("#effect", "blur")
        page.wait_for_function("document.getElementById('result').dataset.version === '8'")

        # A slider: a new request with the new value, a new image.
        page.select_option("#effect", "progressive")
        page.wait_for_function("document.getElementById('result').dataset.version === '9'")
        slider = page.locator('#controls input[type=number][name="max-radius"]')
        with page.expect_response(lambda r: "/progressive/" in r.url and "max-radius=" in r.url and r.status == 200) as answer:
            slider.evaluate("(el) => { el.value = 12; el.dispatchEvent(new Event('input', { bubbles: true })); }")
        assert "max-radius=12" in answer.value.url, answer.value.url
        page.wait_for_function("document.getElementById('result').dataset.version === '10'")
        assert "--max-radius 12" in page.text_content("#command")

        # The engine in the page (--web): a slider change repaints the preview at once, and the
        # preview holds the server's bytes.
        page.wait_for_function("window.playgroundPreview.ready && window.playgroundPreview.kit !== null")
        before = page.evaluate("window.playgroundPreview.renders")
        slider.evaluate("(el) => { el.value = 9; el.dispatchEvent(new Event('input', { bubbles: true })); }")
        page.wait_for_function(f"window.playgroundPreview.renders > {before}")
        page.wait_for_function("document.getElementById('result').dataset.version === '11'")
        page.wait_for_function("document.getElementById('result').complete")
        differ = page.evaluate("""() => {
            const img = document.getElementById('result'), preview = document.getElementById('preview');
            const c = new OffscreenCanvas(img.naturalWidth, img.naturalHeight), ctx = c.getContext('2d');
            ctx.drawImage(img, 0, 0);
            const a = ctx.getImageData(0, 0, c.width, c.height).data;
            const b = preview.getContext('2d').getImageData(0, 0, preview.width, preview.height).data;
            if (a.length !== b.length) return -1;
            let n = 0; for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) n++;
            return n;
        }""")
        assert differ == 0, f"the page's preview and the server's result differ in {differ} bytes"

        # A file dropped on the drop zone goes up as the body (a real drop event carrying a File),
        # and so does one chosen with the file input.
        dropped = page.evaluate_handle("""async () => {
            const bytes = await (await fetch('/blur/photo.png?sigma=0&format=png')).blob();
            const transfer = new DataTransfer();
            transfer.items.add(new File([bytes], 'dropped.png', { type: 'image/png' }));
            return transfer;
        }""")
        with page.expect_response(lambda r: r.request.method == "POST" and "/progressive?" in r.url and r.status == 200):
            page.dispatch_event("#drop", "drop", {"dataTransfer": dropped})
        page.wait_for_function("document.getElementById('result').dataset.version === '12'")
        assert "dropped.png" in page.text_content("#command")
        with page.expect_response(lambda r: r.request.method == "POST" and "/progressive?" in r.url and r.status == 200):
            page.set_input_files("#file", FIXTURE)
        page.wait_for_function("document.getElementById('result').dataset.version === '13'")

        # Seed 000's blur-up: the preview, then the image in focus.
        page.select_option("#image", "photo.png")
        page.click("#play")
        page.wait_for_function("document.getElementById('blurup').dataset.state === 'done'", timeout=10000)

        if os.environ.get("BLURKIT_SCREENSHOTS"):
            page.screenshot(path=os.path.join(PACKAGE, "docs", "images", "playground.png"))
        controls(server, browser, root)
        browser.close()
        assert not problems, "console errors: " + "; ".join(problems)
    keyed(root)
    print("playground: loads cleanly, slider and drop re-render, the in-page preview has the server's bytes, blur-up completes")


def controls(server, browser, root):
    """What a control offers is what the server takes, and what the page says is so."""
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(str(message))
            print("FAIL", message)

    page.goto(server.url + "/")
    page.wait_for_function("document.getElementById('result').dataset.version === '1'")

    # Scale goes with radius: while σ is the unit its control is off, and switching back to σ
    # after a scale was set sends none (no 400).
    scale = lambda: page.eval_on_selector_all("#controls [name=scale]", "(els) => els.map((e) => e.disabled)")
    check(scale() and all(scale()), f"the scale control is live while the unit is σ: disabled {scale()}")
    page.select_option('#controls select[name="unit-sigma-radius"]', "radius")
    page.wait_for_function("document.getElementById('result').dataset.version === '2'")
    check(scale() and not any(scale()), f"the scale control is off beside radius: disabled {scale()}")
    with page.expect_response(lambda r: "/blur/" in r.url and "scale=2" in r.url) as answer:
        page.eval_on_selector('#controls input[type=number][name="scale"]',
                              "(el) => { el.value = 2; el.dispatchEvent(new Event('input', { bubbles: true })); }")
    check(answer.value.status == 200, answer.value.status)
    with page.expect_response(lambda r: "/blur/" in r.url and "sigma=" in r.url) as answer:
        page.select_option('#controls select[name="unit-sigma-radius"]', "sigma")
    check(answer.value.status == 200 and "scale" not in answer.value.url, (answer.value.status, answer.value.url))
    check("--scale" not in page.text_content("#command"), page.text_content("#command"))

    # The format menu names each format once, and the command line shown writes WebP as .webp.
    formats = page.eval_on_selector_all('#controls select[name="format"] option', "(os) => os.map((o) => o.value).filter((v) => v)")
    check(formats == ["png", "jpeg", "webp", "avif", "heic", "gif", "pam", "ppm"], f"the format menu offers {formats}")
    with page.expect_response(lambda r: "/blur/" in r.url and "format=webp" in r.url) as answer:
        page.select_option('#controls select[name="format"]', "webp")
    check(answer.value.status == 200, answer.value.status)
    command = page.text_content("#command")
    words = shlex.split(command)
    check(words[3] == "out.webp", f"the playground shows '{command}'")
    ran = subprocess.run([BLURKIT, *words[1:]], cwd=root, capture_output=True, text=True)
    check(ran.returncode == 0, f"'{command}' fails: {ran.stderr}")
    if ran.returncode == 0:
        with open(os.path.join(root, words[3]), "rb") as f:
            head = f.read(12)
        os.remove(os.path.join(root, words[3]))
        check(head[:4] == b"RIFF" and head[8:] == b"WEBP", f"'{command}' writes {head}")

    # Every image route is an effect to pick, hyphenated names too (before: blur-areas and
    # scroll-edge were missing); and switching the progressive blur's direction for an angle keeps
    # the angle picked and carries no word into it (before: it snapped back, or sent angle=left).
    effects = page.eval_on_selector_all("#effect option", "(os) => os.map((o) => o.value)")
    check("blur-areas" in effects and "scroll-edge" in effects, f"the effects offered: {effects}")
    page.select_option("#effect", "progressive")
    page.wait_for_selector('#controls select[name="unit-direction-angle"]')
    with page.expect_response(lambda r: "/progressive/" in r.url and "direction=left" in r.url) as answer:
        page.select_option('#controls select[name="direction"]', "left")
    check(answer.value.status == 200, answer.value.status)
    with page.expect_response(lambda r: "/progressive/" in r.url and "direction=" not in r.url and "angle=" not in r.url) as answer:
        page.select_option('#controls select[name="unit-direction-angle"]', "angle")
    check(answer.value.status == 200, answer.value.status)
    unit = page.eval_on_selector('#controls select[name="unit-direction-angle"]', "(s) => s.value")
    check(unit == "angle", f"the menu went back to {unit}")
    check("left" not in page.text_content("#command"), page.text_content("#command"))
    with page.expect_response(lambda r: "/progressive/" in r.url and "angle=30" in r.url) as answer:
        page.eval_on_selector('#controls input[type=number][name="angle"]',
                              "(el) => { el.value = 30; el.dispatchEvent(new Event('input', { bubbles: true })); }")
    check(answer.value.status == 200, answer.value.status)
    check(page.eval_on_selector('#controls select[name="unit-direction-angle"]', "(s) => s.value") == "angle", "the angle stays picked")

    # A small result gives its size in bytes, not "0 KB"; and the blur-up of a plain-coloured
    # image shows that colour to its edges while the preview alone is up (the full image held back).
    page.goto(server.url + "/")
    page.wait_for_function("document.getElementById('result').dataset.version === '1'")
    transfer = page.evaluate_handle("""async () => {
        const canvas = new OffscreenCanvas(48, 32), ctx = canvas.getContext('2d');
        ctx.fillStyle = 'rgb(200, 170, 140)'; ctx.fillRect(0, 0, 48, 32);
        const transfer = new DataTransfer();
        transfer.items.add(new File([await canvas.convertToBlob({ type: 'image/png' })], 'plain.png', { type: 'image/png' }));
        return transfer;
    }""")
    with page.expect_response(lambda r: r.request.method == "POST" and "/blur?" in r.url and r.status == 200) as answer:
        page.dispatch_event("#drop", "drop", {"dataTransfer": transfer})
    size = int(answer.value.headers.get("content-length", "-1"))
    page.wait_for_function("document.getElementById('status').textContent.includes('rendered')")
    said = page.text_content("#status")
    check(size < 1024 and f"{size} bytes" in said, f"a {size}-byte result: '{said}'")

    held = []
    page.route(re.compile(r".*/blur\?sigma=0$"), lambda route: held.append(route))
    page.click("#play")
    page.wait_for_function("""() => { const p = document.querySelector('#blurup .preview');
        return p && p.complete && p.naturalWidth > 0; }""")
    page.wait_for_timeout(100)
    shot = Image.open(io.BytesIO(page.locator("#blurup").screenshot())).convert("RGB")
    w, h = shot.size
    centre = shot.getpixel((w // 2, h // 2))
    edges = {(x, y): shot.getpixel((x, y)) for x, y in [(w // 2, 1), (w // 2, h - 2), (1, h // 2), (w - 2, h // 2), (14, 14), (w - 15, h - 15)]}
    off = {at: c for at, c in edges.items() if max(abs(a - b) for a, b in zip(c, centre)) > 12}
    check(not off, f"the blurred preview of a plain {centre} image has a fringe: {off}")
    for route in held:
        route.continue_()
    page.unroute(re.compile(r".*/blur\?sigma=0$"))
    page.wait_for_function("document.getElementById('blurup').dataset.state === 'done'", timeout=10000)
    page.close()
    check(not problems, "console errors: " + "; ".join(problems))
    assert not failures, "; ".join(failures)


def keyed(root):
    """Under --key and without --web: `/` and `/images` refuse what is not signed; the signed link
    the server prints opens a playground that renders with the token it was given, and the page asks
    nothing of /web/ (no 404 in the console)."""
    key = "00112233445566778899aabbccddeeff"
    with Server(root, "--key", key) as server, sync_playwright() as p:
        deadline = time.time() + 10
        while time.time() < deadline and "playground for 24 h" not in open(server.log_path).read():
            time.sleep(0.05)
        link = re.search(r"playground for 24 h: (\S+)", open(server.log_path).read()).group(1)
        assert server.get("/")[0] == 403 and server.get("/images")[0] == 403
        assert server.get("/?expires=99999999999&sig=" + "0" * 64)[0] == 403
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
        page = browser.new_page()
        problems, asked = [], []
        page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
        page.on("request", lambda r: asked.append(r.url))
        page.goto(link)
        page.wait_for_function("document.getElementById('result').dataset.version === '1'", timeout=30000)
        page.select_option("#effect", "material")
        page.wait_for_function("document.getElementById('result').dataset.version === '2'", timeout=30000)
        browser.close()
        assert not problems, "console errors under --key: " + "; ".join(problems)
        assert not any("/web/" in url for url in asked), [u for u in asked if "/web/" in u]


if __name__ == "__main__":
    sys.exit(main())
