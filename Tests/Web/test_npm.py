"""The npm package `make wasm` writes (WEB/package), as a user gets it: `npm pack` makes the tarball,
which is installed offline into an empty project and used from plain `node` (an .mjs script), from
TypeScript (`tsc --strict --lib es2022`, no `dom`: the types need nothing of the browser; and once
with `dom`, where results are ImageData for putImageData) and from a page in headless Chromium that
imports the installed files through an import map. Nothing is published or downloaded.

    python3 Tests/Web/test_npm.py demo-output/web
"""

import http.server
import json
import os
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
from functools import partial

from playwright.sync_api import sync_playwright

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

# Plain node: blur a 16×12 RGBA checkerboard; the result is a new image of the same size whose
# pixels changed, and the input is left alone.
USE_MJS = """
import { load } from 'blurkit';
import { readFileSync } from 'node:fs';
const kit = await load();
const width = 16, height = 12, data = new Uint8ClampedArray(width * height * 4);
for (let i = 0; i < width * height; i++) {
  const on = ((i % width) + Math.floor(i / width)) % 2;
  data.set([on * 255, 40, 255 - on * 255, 255], i * 4);
}
const before = data.slice();
const out = kit.blur({ width, height, data }, { sigma: 2 });
const changed = out.data.reduce((n, v, i) => n + (v !== before[i]), 0);
const header = kit.progressive({ width, height, data }, { maximumBlurRadius: 2 });
const hash = kit.thumbHash({ width, height, data });
let message = '';
try { kit.blur({ width, height, data }, { sigma: -1 }); } catch (e) { message = e.message; }
const pkg = JSON.parse(readFileSync(new URL('./node_modules/blurkit/package.json', import.meta.url)));
console.log(JSON.stringify({
  width: out.width, height: out.height, length: out.data.length, clamped: out.data instanceof Uint8ClampedArray,
  changed, untouched: data.every((v, i) => v === before[i]), header: [header.width, header.height],
  hash: hash.length, message, version: pkg.version,
}));
"""

# TypeScript without `dom`: results read as RGBAImage; inputs are any { width, height, data }.
USE_MTS = """
import { load, BlurKit, RGBAImage, Image, BlurOptions } from 'blurkit';

const kit: BlurKit = await load();
const input: Image = { width: 2, height: 1, data: new Uint8Array(8) };
const options: BlurOptions = { sigma: 1, edges: 'clamp' };
const out: RGBAImage = kit.blur(input, options);
const bytes: Uint8ClampedArray = out.data;
const total: number = out.width * out.height + bytes.length;
kit.material(out, { style: 'thin', region: { width: 2, height: 1 } });
await load(new Uint8Array(0));
// @ts-expect-error: sigma is a number
kit.blur(input, { sigma: '1' });
// @ts-expect-error: no such option
kit.progressive(input, { maximumRadius: 3 });
export { total };
"""

# TypeScript with `dom`: a result goes straight to putImageData.
USE_DOM_MTS = """
import { load } from 'blurkit';

declare const context: CanvasRenderingContext2D;
const kit = await load(await fetch('/blurkit.wasm'));
context.putImageData(kit.blur(context.getImageData(0, 0, 4, 4), { sigma: 1 }), 0, 0);
"""

PAGE = """<!doctype html>
<meta charset="utf-8">
<link rel="icon" href="data:,">
<script type="importmap">{ "imports": { "blurkit": "./node_modules/blurkit/blurkit.mjs" } }</script>
<script type="module">
import { load } from 'blurkit';
const kit = await load();
const width = 24, height = 16, data = new Uint8ClampedArray(width * height * 4);
for (let i = 0; i < data.length; i += 4) data.set([(i / 4) % width < 12 ? 255 : 0, 90, 30, 255], i);
const image = new ImageData(data, width, height);
const out = kit.blur(image, { sigma: 3 });
let changed = 0;
for (let i = 0; i < data.length; i++) if (out.data[i] !== data[i]) changed++;
window.result = { imageData: out instanceof ImageData, width: out.width, height: out.height, length: out.data.length, changed };
</script>
"""


def run(args, cwd, **kwargs):
    done = subprocess.run(args, cwd=cwd, capture_output=True, text=True, **kwargs)
    if done.returncode != 0:
        raise SystemExit(f"FAIL {' '.join(args)} (exit {done.returncode}):\n{done.stdout}{done.stderr}")
    return done.stdout


def main(web):
    failures = []

    def check(ok, message):
        if not ok:
            failures.append(message)
            print("FAIL", message)

    package = os.path.join(web, "package")
    work = tempfile.mkdtemp(prefix="blurkit-npm-")
    env = {**os.environ, "npm_config_cache": os.path.join(work, "cache"), "npm_config_update_notifier": "false"}
    try:
        packed = json.loads(run(["npm", "pack", "--json", "--pack-destination", work], cwd=package, env=env))[0]
        tarball = os.path.join(work, packed["filename"])
        names = sorted(f["path"] for f in packed["files"])
        elements = ["elements/" + f for f in ["attributes.mjs", "blur-material.mjs", "blur-up-image.mjs", "exact.mjs", "gradient.mjs", "index.d.ts", "index.mjs",
                                              "registry.mjs", "scroll-edge-effect.mjs", "thumbhash.d.ts", "thumbhash.mjs", "variable-blur-view.mjs"]]
        check(names == sorted(["README.md", "blurkit.d.mts", "blurkit.d.ts", "blurkit.mjs", "blurkit.wasm", "blurkit-core.wasm", "loader.d.ts", "loader.mjs", "package.json"] + elements),
              f"the tarball holds {names}")
        print(f"{packed['filename']}: {os.path.getsize(tarball)} bytes, {len(names)} files")

        app = os.path.join(work, "app")
        os.mkdir(app)
        run(["npm", "install", "--offline", "--no-audit", "--no-fund", tarball], cwd=app, env=env)

        with open(os.path.join(app, "use.mjs"), "w") as f:
            f.write(USE_MJS)
        got = json.loads(run(["node", "use.mjs"], cwd=app))
        check((got["width"], got["height"], got["length"], got["clamped"]) == (16, 12, 16 * 12 * 4, True),
              f"node: the blur of 16×12 gives {got}")
        check(got["changed"] > 100 and got["untouched"], f"node: {got['changed']} bytes changed, input untouched {got['untouched']}")
        check(got["header"] == [16, 12] and 0 < got["hash"] <= 25, f"node: progressive {got['header']}, a ThumbHash of {got['hash']} bytes")
        check("sigma" in got["message"], f"node: an invalid σ says '{got['message']}'")
        swift = open(os.path.join(os.path.dirname(__file__), "..", "..", "Sources", "BlurKit", "BlurKitVersion.swift")).read()
        check(f'"{got["version"]}"' in swift, f"package.json's version {got['version']} is not BlurKitVersion's")

        tsc = ["tsc", "--noEmit", "--strict", "--target", "es2022", "--module", "node16", "--moduleResolution", "node16"]
        for name, source, lib in (("use.mts", USE_MTS, "es2022"), ("use-dom.mts", USE_DOM_MTS, "es2022,dom")):
            with open(os.path.join(app, name), "w") as f:
                f.write(source)
            done = subprocess.run([*tsc, "--lib", lib, name], cwd=app, capture_output=True, text=True)
            check(done.returncode == 0, f"tsc --lib {lib} {name}: {done.stdout}{done.stderr}")

        with open(os.path.join(app, "index.html"), "w") as f:
            f.write(PAGE)

        class Quiet(http.server.SimpleHTTPRequestHandler):
            extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript", ".wasm": "application/wasm"}

            def log_message(self, *args):
                pass

        server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), partial(Quiet, directory=app))
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox"])
                page = browser.new_page()
                errors = []
                page.on("console", lambda m: m.type == "error" and errors.append(m.text))
                page.on("pageerror", lambda e: errors.append(str(e)))
                page.goto(f"http://127.0.0.1:{server.server_address[1]}/index.html")
                page.wait_for_function("window.result !== undefined || false", timeout=30_000)
                result = page.evaluate("window.result")
                check(result["imageData"] and (result["width"], result["height"], result["length"]) == (24, 16, 24 * 16 * 4),
                      f"chromium: the blur gives {result}")
                check(result["changed"] > 100, f"chromium: {result['changed']} bytes changed")
                check(not errors, f"chromium: console errors {errors}")
                browser.close()
        finally:
            server.shutdown()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        sys.exit(1)
    print("test_npm: the tarball installs offline and runs in node, type-checks without dom, and runs in chromium")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else "demo-output/web"))
