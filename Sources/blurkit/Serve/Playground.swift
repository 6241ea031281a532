/// The playground `blurkit serve` answers `/` with: one page, its style and script inline, nothing
/// fetched from elsewhere. Its controls are built from `/openapi.json` — the routes' parameter
/// tables — so every parameter of an effect has one: a slider for a number, a menu for a choice, a
/// box for a flag, a field for text, and the region drawn on the image by dragging. The server's
/// result follows the controls (debounced; a stale request is cancelled), with the equivalent
/// `blurkit` command line to copy. With `--web`, the engine itself runs in the page (blurkit.wasm,
/// from `/web/`) and repaints a preview on every change while the server's result is on its way.
/// The blur-up view plays seed 000: the tiny preview blurred with
/// CSS, then the image coming into focus with a 0.8 s ease-out (a 0.2 s fade with reduced motion).
enum Playground {
    static let html = #"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>BlurKit playground</title>
        <link rel="icon" href="data:,">
        <style>
          :root { color-scheme: light dark; --accent: #0a84ff; --panel: rgba(127,127,127,.08); font: 14px/1.4 system-ui, sans-serif; }
          body { margin: 0; display: grid; grid-template-columns: 320px 1fr; min-height: 100vh; }
          aside { padding: 16px; background: var(--panel); overflow-y: auto; max-height: 100vh; box-sizing: border-box; }
          main { padding: 16px; display: flex; flex-direction: column; gap: 12px; min-width: 0; }
          h1 { font-size: 18px; margin: 0 0 12px; }
          label { display: block; margin: 10px 0 2px; font-weight: 600; }
          .hint { font-weight: 400; opacity: .7; font-size: 12px; }
          select, input[type=text], input[type=number] { width: 100%; box-sizing: border-box; padding: 4px; }
          .row { display: flex; gap: 6px; align-items: center; }
          .row input[type=range] { flex: 1; }
          .row input[type=number] { width: 80px; }
          #drop { border: 2px dashed rgba(127,127,127,.5); border-radius: 8px; padding: 12px; text-align: center; margin-top: 8px; }
          #drop.over { border-color: var(--accent); }
          #stage { position: relative; align-self: flex-start; max-width: 100%; }
          #stage img, #stage canvas { display: block; max-width: 100%; max-height: 70vh; }
          #stage canvas { display: none; }
          #box { position: absolute; border: 2px solid var(--accent); background: rgba(10,132,255,.15); pointer-events: none; display: none; }
          pre { background: var(--panel); padding: 8px; border-radius: 6px; white-space: pre-wrap; word-break: break-all; margin: 0; }
          #status { min-height: 1.4em; }
          #status.error { color: #ff453a; }
          #blurup { position: relative; width: 320px; aspect-ratio: 3 / 2; overflow: hidden; border-radius: 12px; background: #222; }
          #blurup img { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; }
          #blurup .preview { filter: blur(24px); transform: scale(1.1); }
          #blurup .full { opacity: 0; filter: blur(24px); transition: opacity .8s ease-out, filter .8s ease-out; }
          #blurup .full.in { opacity: 1; filter: blur(0); }
          @media (prefers-reduced-motion: reduce) {
            #blurup .full { filter: none; transition: opacity .2s linear; }
            #blurup .full.in { filter: none; }
          }
          button { padding: 6px 12px; }
        </style>
        </head>
        <body>
        <aside>
          <h1>BlurKit playground</h1>
          <label for="image">Image <span class="hint">under the server's root</span></label>
          <select id="image"></select>
          <div id="drop">or drop an image here, or <input id="file" type="file" accept="image/*"></div>
          <label for="effect">Effect</label>
          <select id="effect"></select>
          <div id="controls"></div>
        </aside>
        <main>
          <div id="status"></div>
          <div id="stage"><img id="result" alt="the server's result"><canvas id="preview"></canvas><div id="box"></div></div>
          <div><label>The same on the command line</label><pre id="command"></pre></div>
          <div>
            <label>Blur-up <span class="hint">seed 000: the tiny preview blurred, then the image coming into focus</span></label>
            <div id="blurup" data-state="idle"></div>
            <p><button id="play">Play blur-up</button></p>
          </div>
        </main>
        <script>
        "use strict";
        const $ = (id) => document.getElementById(id);
        const routes = {};           // route name -> its query parameters (from /openapi.json)
        const values = {};           // parameter name -> value the user set
        let dropped = null;          // a File the user dropped, sent as the body
        let inflight = null;         // the AbortController of the request in flight
        let timer = 0;
        let lastURL = null;
        const hidden = new Set(["path", "sig", "quality", "compression", "loop"]);
        // The engine in the page (blurkit serve --web): previews while the server renders.
        const live = (window.playgroundPreview = { kit: null, source: null, key: null, renders: 0, ready: false });
        const shortStyles = { ultrathin: "systemUltraThinMaterial", thin: "systemThinMaterial", regular: "systemMaterial", thick: "systemThickMaterial", chrome: "systemChromeMaterial" };

        function status(text, error) { $("status").textContent = text; $("status").className = error ? "error" : ""; }

        async function start() {
          const api = await (await fetch("/openapi.json")).json();
          for (const [path, item] of Object.entries(api.paths)) {
            const m = path.match(/^\/([a-z]+)\/\{path\}$/);
            if (m && item.get) routes[m[1]] = item.get.parameters.filter((p) => !hidden.has(p.name));
          }
          for (const name of Object.keys(routes)) if (name !== "render") $("effect").add(new Option(name, name));
          $("effect").value = "blur";
          const images = await (await fetch("/images")).json();
          for (const path of images.filter((p) => !p.endsWith(".json"))) $("image").add(new Option(path, path));
          $("effect").addEventListener("change", () => { build(); schedule(); });
          $("image").addEventListener("change", () => { dropped = null; schedule(); });
          $("file").addEventListener("change", () => { if ($("file").files[0]) { dropped = $("file").files[0]; schedule(); } });
          const drop = $("drop");
          drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
          drop.addEventListener("dragleave", () => drop.classList.remove("over"));
          drop.addEventListener("drop", (e) => {
            e.preventDefault(); drop.classList.remove("over");
            if (e.dataTransfer.files[0]) { dropped = e.dataTransfer.files[0]; schedule(); }
          });
          $("play").addEventListener("click", playBlurUp);
          regionDrawing();
          build();
          schedule(0);
          try {
            const module = await import("/web/blurkit.mjs");
            live.kit = await module.load(new URL("/web/blurkit.wasm", location.href));
          } catch (error) {
            live.kit = null;  // no --web: the server's results alone
          }
          live.ready = true;
        }

        // The options of the module for the current controls, or null where it cannot preview them
        // (the server still renders every case).
        function previewOptions(effect) {
          const v = values, number = (name) => (v[name] === undefined ? undefined : Number(v[name]));
          if (effect === "blur") {
            if (v.radius !== undefined) return null;
            return { sigma: number("sigma") ?? 8, edges: v.edges || "clamp" };
          }
          if (effect === "progressive") {
            if (v.region || v["blur-inset"] || v["dimming-inset"] || v["dimming-extension"]) return null;
            const tint = v.tint === undefined || v.tint === "" ? "background" : v.tint;
            if (!/^(background|none|#[0-9a-fA-F]{6}([0-9a-fA-F]{2})?)$/.test(tint)) return null;
            return { direction: v.direction || "down", maximumBlurRadius: number("max-radius"), minimumBlurRadius: number("min-radius"),
              dimmingAlpha: number("dimming"), dimmingTint: tint, appearance: v.appearance || "light", scale: number("scale") };
          }
          if (effect === "material") {
            const style = shortStyles[v.style || "regular"] || v.style;
            const r = (v.region || "").split(",").map(Number);
            const region = r.length === 4 && r.every((n) => Number.isFinite(n)) ? { x: r[0], y: r[1], width: r[2], height: r[3] } : {};
            return { style, appearance: v.appearance || "light", region, cornerRadius: number("corner-radius"),
              blurEffectRadius: number("radius"), dimmingAlpha: number("dimming"), scale: number("scale") };
          }
          return null;
        }

        // The chosen image's pixels at full size (once per image), then the effect on them, drawn over
        // the last result until the server's new one arrives.
        async function preview() {
          const effect = $("effect").value, options = previewOptions(effect);
          if (!live.kit || !options) return;
          const key = dropped ? dropped : $("image").value;
          if (!key) return;
          if (live.key !== key) {
            const blob = dropped ? dropped : await (await fetch("/blur/" + key.split("/").map(encodeURIComponent).join("/") + "?sigma=0&format=png")).blob();
            const bitmap = await createImageBitmap(blob);
            if (bitmap.width * bitmap.height > 4e6) { live.source = null; live.key = key; return; }
            const canvas = new OffscreenCanvas(bitmap.width, bitmap.height), ctx = canvas.getContext("2d");
            ctx.drawImage(bitmap, 0, 0);
            live.source = ctx.getImageData(0, 0, bitmap.width, bitmap.height);
            live.key = key;
          }
          if (!live.source) return;
          let out;
          try { out = live.kit[effect](live.source, options); } catch (error) { return; }  // the server names the parameter
          const canvas = $("preview");
          canvas.width = out.width; canvas.height = out.height;
          canvas.getContext("2d").putImageData(out, 0, 0);
          canvas.style.display = "block";
          $("result").style.display = "none";
          live.renders++;
        }
        let previewFrame = 0;
        function schedulePreview() { cancelAnimationFrame(previewFrame); previewFrame = requestAnimationFrame(() => preview().catch(() => {})); }

        // One control per parameter, from its schema: range, default, choices.
        function build() {
          const box = $("controls");
          box.replaceChildren();
          for (const p of routes[$("effect").value]) {
            const s = p.schema, label = document.createElement("label");
            label.textContent = p.name + " ";
            const hint = document.createElement("span");
            hint.className = "hint"; hint.textContent = p.description;
            label.append(hint);
            box.append(label);
            let input;
            if (s.type === "number" || s.type === "integer") {
              const row = document.createElement("div"); row.className = "row";
              const slider = document.createElement("input"); slider.type = "range";
              const number = document.createElement("input"); number.type = "number";
              const top = Math.min(s.maximum, s.type === "integer" ? s.maximum : Math.max(s.minimum + 1, 100));
              for (const el of [slider, number]) {
                el.min = s.minimum; el.max = el === slider ? top : s.maximum;
                el.step = s.type === "integer" ? 1 : "any";
                el.name = p.name;
              }
              slider.step = s.type === "integer" ? 1 : (top - s.minimum) / 1000;
              const initial = values[p.name] ?? s.default;
              if (initial !== undefined) { slider.value = initial; number.value = initial; }
              slider.addEventListener("input", () => { number.value = slider.value; set(p.name, slider.value); });
              number.addEventListener("input", () => { slider.value = number.value; set(p.name, number.value); });
              row.append(slider, number); box.append(row);
              continue;
            } else if (s.enum && !(s.enum.length === 5 && s.enum[0] === "")) {
              input = document.createElement("select");
              input.add(new Option("(default" + (s.default ? ": " + s.default : "") + ")", ""));
              for (const word of s.enum) input.add(new Option(word, word));
              input.value = values[p.name] ?? "";
              input.addEventListener("change", () => set(p.name, input.value));
            } else if (s.enum) {
              input = document.createElement("input"); input.type = "checkbox";
              input.checked = values[p.name] === "1";
              input.addEventListener("change", () => set(p.name, input.checked ? "1" : ""));
            } else {
              input = document.createElement("input"); input.type = "text";
              input.value = values[p.name] ?? "";
              input.placeholder = p.name === "region" ? "drag on the image, or x,y,w,h in points" : "";
              input.addEventListener("input", () => set(p.name, input.value));
            }
            input.name = p.name;
            box.append(input);
          }
        }

        function set(name, value) {
          if (value === "" || value === null) delete values[name]; else values[name] = value;
          schedulePreview();
          schedule();
        }

        function query() {
          const names = new Set(routes[$("effect").value].map((p) => p.name));
          const q = new URLSearchParams();
          for (const [k, v] of Object.entries(values)) if (names.has(k)) q.set(k, v);
          const effect = $("effect").value;
          if (effect === "blur" && !q.has("sigma") && !q.has("radius")) q.set("sigma", "8");
          if (effect === "placeholder" && !q.has("format")) q.set("format", "png");
          return q;
        }

        function commandLine(q) {
          const effect = $("effect").value, input = dropped ? dropped.name : ($("image").value || "IN");
          const words = ["blurkit", effect === "placeholder" ? "placeholder" : effect, input];
          words.push(effect === "placeholder" ? "--out previews" : effect === "blurup" ? "out.webp" : "out.png");
          for (const [k, v] of q) words.push(v === "1" && routes[effect].find((p) => p.name === k && p.schema.enum && p.schema.enum[0] === "") ? "--" + k : "--" + k + " " + (/[\s#,]/.test(v) ? "'" + v + "'" : v));
          return words.join(" ");
        }

        function schedule(delay = 200) { clearTimeout(timer); timer = setTimeout(render, delay); }

        async function render() {
          const effect = $("effect").value, q = query();
          $("command").textContent = commandLine(q);
          if (!dropped && !$("image").value) { status("Put an image under the server's root, or drop one here."); return; }
          if (inflight) inflight.abort();
          const controller = new AbortController();
          inflight = controller;
          const url = "/" + effect + (dropped ? "" : "/" + $("image").value.split("/").map(encodeURIComponent).join("/")) + "?" + q;
          status("rendering…");
          try {
            const response = await fetch(url, dropped ? { method: "POST", body: dropped, signal: controller.signal } : { signal: controller.signal });
            if (!response.ok) {
              const problem = await response.json().catch(() => ({ error: response.statusText }));
              status(response.status + ": " + problem.error + (problem.parameter ? " (" + problem.parameter + ")" : ""), true);
              return;
            }
            const blob = await response.blob();
            if (controller !== inflight) return;
            if (lastURL) URL.revokeObjectURL(lastURL);
            lastURL = URL.createObjectURL(blob);
            $("result").src = lastURL;
            $("result").style.display = "block";
            $("preview").style.display = "none";
            $("result").dataset.version = String(Number($("result").dataset.version || 0) + 1);
            status(effect + ": " + Math.round(blob.size / 1024) + " KB, " + (response.headers.get("x-cache") === "hit" ? "from the cache" : "rendered"));
          } catch (error) {
            if (error.name !== "AbortError") status(String(error), true);
          } finally {
            if (inflight === controller) inflight = null;
          }
        }

        // Dragging on the result sets the region (in points: image pixels ÷ scale).
        function regionDrawing() {
          const img = $("result"), box = $("box");
          let origin = null;
          const point = (e) => {
            const r = img.getBoundingClientRect();
            return [Math.max(0, Math.min(r.width, e.clientX - r.left)), Math.max(0, Math.min(r.height, e.clientY - r.top))];
          };
          img.addEventListener("mousedown", (e) => {
            if (!routes[$("effect").value].some((p) => p.name === "region")) return;
            e.preventDefault(); origin = point(e);
          });
          window.addEventListener("mousemove", (e) => {
            if (!origin) return;
            const [x, y] = point(e);
            Object.assign(box.style, { display: "block", left: Math.min(x, origin[0]) + "px", top: Math.min(y, origin[1]) + "px",
              width: Math.abs(x - origin[0]) + "px", height: Math.abs(y - origin[1]) + "px" });
          });
          window.addEventListener("mouseup", (e) => {
            if (!origin) return;
            const [x, y] = point(e), r = img.getBoundingClientRect();
            const k = img.naturalWidth / r.width / Number(values.scale || 1);
            const rect = [Math.min(x, origin[0]), Math.min(y, origin[1]), Math.abs(x - origin[0]), Math.abs(y - origin[1])].map((v) => Math.round(v * k));
            origin = null; box.style.display = "none";
            if (rect[2] > 2 && rect[3] > 2) {
              set("region", rect.join(","));
              const field = document.querySelector('#controls input[name="region"]');
              if (field) field.value = rect.join(",");
            }
          });
        }

        // Seed 000: the preview, blurred, while the image loads; then the image comes into focus.
        async function playBlurUp() {
          const view = $("blurup");
          view.dataset.state = "loading";
          view.replaceChildren();
          const path = $("image").value;
          const preview = document.createElement("img");
          preview.className = "preview";
          const full = document.createElement("img");
          full.className = "full";
          view.append(preview, full);
          try {
            let placeholder;
            if (dropped) placeholder = await (await fetch("/placeholder", { method: "POST", body: dropped })).json();
            else placeholder = await (await fetch("/placeholder/" + path.split("/").map(encodeURIComponent).join("/"))).json();
            preview.src = placeholder.preview.dataURI;
            const response = dropped ? await fetch("/blur?sigma=0", { method: "POST", body: dropped }) : await fetch("/blur/" + path.split("/").map(encodeURIComponent).join("/") + "?sigma=0");
            full.src = URL.createObjectURL(await response.blob());
            await full.decode();
            full.addEventListener("transitionend", () => { view.dataset.state = "done"; }, { once: true });
            requestAnimationFrame(() => requestAnimationFrame(() => full.classList.add("in")));
          } catch (error) {
            view.dataset.state = "failed";
            status(String(error), true);
          }
        }

        start().catch((error) => status(String(error), true));
        </script>
        </body>
        </html>
        """#
}
