"""The playground in a real browser: Debian's chromium, headless, driven by Playwright (launched with
executable_path: nothing is downloaded). The page loads with no console error, a slider brings a new
image from the server, a dropped file (and a chosen one) is processed, and the blur-up comes into focus. Screenshots go
to docs/images/ when BLURKIT_SCREENSHOTS is set."""

import os
import shutil
import sys

from playwright.sync_api import sync_playwright

from harness import FIXTURE, PACKAGE, Server, make_root

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

        # A slider: a new request with the new value, a new image.
        page.select_option("#effect", "progressive")
        page.wait_for_function("document.getElementById('result').dataset.version === '2'")
        slider = page.locator('#controls input[type=range][name="max-radius"]')
        with page.expect_response(lambda r: "/progressive/" in r.url and "max-radius=" in r.url and r.status == 200) as answer:
            slider.evaluate("(el) => { el.value = 12; el.dispatchEvent(new Event('input', { bubbles: true })); }")
        assert "max-radius=12" in answer.value.url, answer.value.url
        page.wait_for_function("document.getElementById('result').dataset.version === '3'")
        assert "--max-radius 12" in page.text_content("#command")

        # The engine in the page (--web): a slider change repaints the preview at once, and the
        # preview holds the server's bytes.
        page.wait_for_function("window.playgroundPreview.ready && window.playgroundPreview.kit !== null")
        before = page.evaluate("window.playgroundPreview.renders")
        slider.evaluate("(el) => { el.value = 9; el.dispatchEvent(new Event('input', { bubbles: true })); }")
        page.wait_for_function(f"window.playgroundPreview.renders > {before}")
        page.wait_for_function("document.getElementById('result').dataset.version === '4'")
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
        page.wait_for_function("document.getElementById('result').dataset.version === '5'")
        assert "dropped.png" in page.text_content("#command")
        with page.expect_response(lambda r: r.request.method == "POST" and "/progressive?" in r.url and r.status == 200):
            page.set_input_files("#file", FIXTURE)
        page.wait_for_function("document.getElementById('result').dataset.version === '6'")

        # Seed 000's blur-up: the preview, then the image in focus.
        page.select_option("#image", "photo.png")
        page.click("#play")
        page.wait_for_function("document.getElementById('blurup').dataset.state === 'done'", timeout=10000)

        if os.environ.get("BLURKIT_SCREENSHOTS"):
            page.screenshot(path=os.path.join(PACKAGE, "docs", "images", "playground.png"))
        browser.close()
        assert not problems, "console errors: " + "; ".join(problems)
    print("playground: loads cleanly, slider and drop re-render, the in-page preview has the server's bytes, blur-up completes")


if __name__ == "__main__":
    sys.exit(main())
