"""The DocC site in a real browser: docs-site/ (from `make docs`) served by a static file server on
127.0.0.1, opened in Debian's Chromium through Playwright. The landing page and an article render
their content with no console error. With BLURKIT_SCREENSHOTS set, a screenshot goes to
docs/images/docs.png."""

import functools
import http.server
import os
import shutil
import sys
import threading

from playwright.sync_api import sync_playwright

from harness import PACKAGE

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"


def main():
    site = os.path.join(PACKAGE, "docs-site")
    assert os.path.isdir(site), "no docs-site/: run make docs"
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    handler = functools.partial(Quiet, directory=site)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            problems = []
            page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: problems.append(str(e)))
            for path, expected in [("/documentation/blurcore", "GaussianBlur"),
                                   ("/documentation/blurcore/progressiveblur", "maximumBlurRadius"),
                                   ("/documentation/blurkit/gettingstarted", "ImageFile.read")]:
                page.goto(base + path)
                page.wait_for_selector("main h1", timeout=20000)
                page.wait_for_function(f"document.body.innerText.includes({expected!r})", timeout=20000)
                if path == "/documentation/blurcore" and os.environ.get("BLURKIT_SCREENSHOTS"):
                    page.screenshot(path=os.path.join(PACKAGE, "docs", "images", "docs.png"))
            browser.close()
            assert not problems, "console errors: " + "; ".join(problems)
    finally:
        server.shutdown()
    print("docs: the landing page and two articles render in Chromium")


if __name__ == "__main__":
    sys.exit(main())
