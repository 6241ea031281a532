// The playground `blurkit serve` answers `/` with. Every control comes from /openapi.json — the
// operation registry's parameters as the routes take them: the kind, range, words, default (per
// appearance), the starting value of a parameter without one, the JavaScript key the engine in
// the page takes (x-blurkit-key), the command-line flag (x-blurkit-flag) and the parameter one means
// something beside (x-blurkit-goes-with: scale beside radius), its role (x-blurkit-role: the output's
// format, an encoder's setting, the point scale, the appearance) and the route's form (x-blurkit-form).
// Nothing about a parameter is declared here, and none is named.
"use strict";
const $ = (id) => document.getElementById(id);
const routes = {};           // route name -> { parameters, exclusive } (from /openapi.json)
let values = {};             // query name -> value in use
const picked = {};           // an exclusive group's names, joined -> the member last picked in its menu
let dropped = null;          // a File the user dropped, sent as the body
let inflight = null;         // the AbortController of the request in flight
let timer = 0;
let lastURL = null;
let webBuild = false;        // whether the server serves the engine at /web/ (--web)
// Not controls: the encoders' settings and the signature.
const hidden = new Set(["encoding", "signature"]);
const role = (p) => p.schema["x-blurkit-role"];
// The route's parameter with `name` as its role (or, for "region", its kind).
const withRole = (effect, name) => routes[effect].parameters.find((p) => role(p) === name);
const regionOf = (effect) => routes[effect].parameters.find((p) => p.schema["x-blurkit-kind"] === "region");
// The engine in the page (blurkit serve --web): previews while the server renders.
const live = (window.playgroundPreview = { kit: null, source: null, key: null, renders: 0, ready: false });
// Under --key the page carries a token the server issued with it; every request sends it back.
const token = document.querySelector('meta[name="blurkit-token"]')?.content || "";
const api = (url, init = {}) => fetch(url, token ? { ...init, headers: { ...(init.headers || {}), "X-BlurKit-Token": token } } : init);

function status(text, error) { $("status").textContent = text; $("status").className = error ? "error" : ""; }

async function start() {
  const document_ = await (await api("/openapi.json")).json();
  webBuild = document_.info["x-blurkit-web"] === true;
  for (const [path, item] of Object.entries(document_.paths)) {
    const m = path.match(/^\/([a-z][a-z-]*)\/\{path\}$/);
    if (m && item.get) routes[m[1]] = { parameters: item.get.parameters.filter((p) => !hidden.has(role(p)) && p.in === "query"), exclusive: item.get["x-blurkit-exclusive"] || [], form: item.get["x-blurkit-form"] };
  }
  // Every route but a scene's (which renders a scene file, not the image chosen here).
  for (const name of Object.keys(routes)) if (routes[name].form !== "scene") $("effect").add(new Option(name, name));
  $("effect").value = "blur";
  const images = await (await api("/images")).json();
  for (const path of images.filter((p) => !p.endsWith(".json"))) $("image").add(new Option(path, path));
  $("effect").addEventListener("change", () => { values = {}; build(); schedule(); });
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
  if (webBuild) {
    try {
      const module = await import("/web/blurkit.mjs");
      live.kit = await module.load(new URL("/web/blurkit.wasm", location.href));
    } catch (error) {
      live.kit = null;  // the server's results alone
    }
  }
  live.ready = true;
}

// The engine's options for the values in use, by each parameter's JavaScript key; null when the
// module does not run this effect or takes one of them differently (the server renders every case).
function previewOptions(effect) {
  const operation = live.kit && live.kit.operations.find((o) => o.name === effect);
  if (!operation) return null;
  const options = {};
  for (const p of routes[effect].parameters) {
    if (values[p.name] === undefined || role(p) === "format") continue;
    const key = p.schema["x-blurkit-key"];
    if (!operation.parameters.some((o) => o.name === key)) return null;
    options[key] = p.schema.type === "string" ? values[p.name] : Number(values[p.name]);
  }
  return options;
}

// The chosen image's pixels at full size (once per image), then the effect on them, drawn over
// the last result until the server's new one arrives.
async function preview() {
  const effect = $("effect").value, options = previewOptions(effect);
  if (!live.kit || !options) return;
  const key = dropped ? dropped : $("image").value;
  if (!key) return;
  if (live.key !== key) {
    const blob = dropped ? dropped : await (await api("/blur/" + key.split("/").map(encodeURIComponent).join("/") + "?sigma=0&format=png")).blob();
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

// The value a control shows: the one in use, else the default (for the appearance in use), else
// where the registry says a control starts.
function shown(p) {
  if (values[p.name] !== undefined) return values[p.name];
  const s = p.schema, defaults = s["x-blurkit-defaults"];
  const appearance = withRole($("effect").value, "appearance");
  if (defaults) return ((appearance && values[appearance.name]) || "").toLowerCase() === "dark" ? defaults.dark : defaults.light;
  return s.default;
}
// A slider spanning decades moves along a log scale; others along a straight one.
const logScaled = (s) => s.maximum - s.minimum >= 1000;
const toSlider = (s, v) => logScaled(s) ? Math.log1p(v - s.minimum) / Math.log1p(s.maximum - s.minimum) * 1000 : v;
const fromSlider = (s, t) => logScaled(s) ? s.minimum + Math.expm1(t / 1000 * Math.log1p(s.maximum - s.minimum)) : t;

// One control per parameter, from its schema; a set of parameters that exclude each other (σ and
// radius) is one control with a switch between them.
function build() {
  const box = $("controls"), route = routes[$("effect").value];
  box.replaceChildren();
  // A parameter without a default that a group needs starts where the registry suggests (σ 8).
  for (const group of route.exclusive) {
    if (group.some((n) => values[n] !== undefined)) continue;
    const first = route.parameters.find((p) => group.includes(p.name) && p.schema["x-blurkit-suggested"] !== undefined);
    if (first) values[first.name] = first.schema["x-blurkit-suggested"];
  }
  const grouped = new Set();
  for (const p of route.parameters) {
    if (grouped.has(p.name)) continue;
    const group = route.exclusive.find((g) => g.includes(p.name));
    let members = [p];
    if (group) {
      members = route.parameters.filter((q) => group.includes(q.name));
      members.forEach((q) => grouped.add(q.name));
    }
    // The member in use: the one with a value, else the one last picked in its menu, else the first.
    const key = members.map((q) => q.name).join("-");
    const active = members.find((q) => values[q.name] !== undefined) || members.find((q) => q.name === picked[key]) || members[0];
    // A parameter meaningful beside one member of an exclusive group only (scale turns radius's
    // points into pixels; σ is in pixels already) is off while another member is in use.
    const needs = p.schema["x-blurkit-goes-with"];
    const off = needs !== undefined && route.exclusive.some((g) => g.includes(needs)) && values[needs] === undefined;
    if (off) delete values[p.name];
    const label = document.createElement("label");
    const hint = document.createElement("span");
    hint.className = "hint"; hint.textContent = off ? `with ${needs} only` : active.description;
    if (members.length > 1) {
      const unit = document.createElement("select");
      unit.name = "unit-" + members.map((q) => q.name).join("-");
      for (const q of members) unit.add(new Option(q.name + (q.schema["x-blurkit-unit"] ? "" : ""), q.name));
      unit.value = active.name;
      unit.addEventListener("change", () => {
        const from = members.find((q) => values[q.name] !== undefined), to = members.find((q) => q.name === unit.value);
        const value = from ? values[from.name] : undefined;
        for (const q of members) delete values[q.name];
        picked[key] = to.name;
        // A value carries over between members of one kind (σ and a radius), not to another (a word to an angle).
        if (value !== undefined && from.schema["x-blurkit-kind"] === to.schema["x-blurkit-kind"]) values[to.name] = value;
        build(); schedulePreview(); schedule();
      });
      label.append(unit, " ");
    } else {
      label.append(p.name + " ");
    }
    label.append(hint);
    box.append(label);
    control(active, box);
    if (off) for (const el of box.querySelectorAll(`[name="${p.name}"]`)) el.disabled = true;
  }
  refresh();
}

// A choice's words without its aliases, each once: the schema's `x-blurkit-words` (the enum lists
// every word the route takes, aliases included).
function canonicalWords(p) {
  const s = p.schema;
  return s["x-blurkit-words"] ?? s.enum.filter((w, i) => i === s.enum.indexOf(w));
}

function control(p, box) {
  const s = p.schema;
  let input;
  if (s.type === "number" || s.type === "integer") {
    const row = document.createElement("div"); row.className = "row";
    const slider = document.createElement("input"); slider.type = "range";
    const number = document.createElement("input"); number.type = "number";
    slider.name = p.name; number.name = p.name;
    number.min = s.minimum; number.max = s.maximum; number.step = s.type === "integer" ? 1 : "any";
    if (logScaled(s)) { slider.min = 0; slider.max = 1000; slider.step = 1; }
    else { slider.min = s.minimum; slider.max = s.maximum; slider.step = s.type === "integer" ? 1 : (s.maximum - s.minimum) / 1000; }
    slider.addEventListener("input", () => {
      const v = fromSlider(s, Number(slider.value));
      set(p.name, String(s.type === "integer" ? Math.round(v) : Number(v.toPrecision(3))));
    });
    number.addEventListener("input", () => set(p.name, number.value));
    row.append(slider, number); box.append(row);
    return;
  } else if (s.enum && s["x-blurkit-kind"] === "choice") {
    input = document.createElement("select");
    const canonical = canonicalWords(p);
    if (s.default === undefined) input.add(new Option("(" + (s["x-blurkit-default-text"] || "default") + ")", ""));
    for (const word of canonical) input.add(new Option(word, word));
    input.addEventListener("change", () => set(p.name, input.value));
  } else if (s["x-blurkit-kind"] === "flag") {
    input = document.createElement("input"); input.type = "checkbox";
    input.addEventListener("change", () => set(p.name, input.checked ? "1" : ""));
  } else {
    input = document.createElement("input"); input.type = "text";
    input.placeholder = s["x-blurkit-kind"] === "region" ? "drag on the image, or x,y,w,h in points" : (s["x-blurkit-default-text"] || "");
    input.addEventListener("input", () => set(p.name, input.value));
  }
  input.name = p.name;
  box.append(input);
}

// Every control shows the value in use (after a change of appearance, a drawn region, a slider).
function refresh() {
  for (const p of routes[$("effect").value].parameters) {
    const value = shown(p);
    for (const el of document.querySelectorAll(`#controls [name="${p.name}"]`)) {
      if (el === document.activeElement) continue;
      if (el.type === "range") { if (value !== undefined) el.value = toSlider(p.schema, Number(value)); }
      else if (el.type === "checkbox") el.checked = value === "1" || value === true;
      else el.value = value === undefined || value === false ? "" : String(value);
    }
  }
}

function set(name, value) {
  if (value === "" || value === null || value === undefined) delete values[name]; else values[name] = value;
  refresh();
  schedulePreview();
  schedule();
}

function query() {
  const effect = $("effect").value, names = new Set(routes[effect].parameters.map((p) => p.name));
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(values)) if (names.has(k)) q.set(k, v);
  // A placeholder shows as its preview, not its JSON.
  const format = withRole(effect, "format");
  if (routes[effect].form === "placeholder" && format && !q.has(format.name)) q.set(format.name, "png");
  return q;
}

// The same work as a command line: the values in use under each parameter's flag; those the
// command line does not take (an HTTP-only format) are left out, so the line runs as shown.
function commandLine(q) {
  const effect = $("effect").value, input = dropped ? dropped.name : ($("image").value || "IN");
  const quote = (w) => (/[\s#,'"*?&|;<>()$`\\]/.test(w) ? "'" + w.replace(/'/g, "'\\''") + "'" : w);
  const words = ["blurkit", effect, quote(input)];
  const form = routes[effect].form, format = withRole(effect, "format");
  words.push(form === "placeholder" ? "--out previews" : "out." + ((format && q.get(format.name)) || (form === "animation" ? "webp" : "png")));
  for (const [k, v] of q) {
    const p = routes[effect].parameters.find((x) => x.name === k), flag = p && p.schema["x-blurkit-flag"];
    if (!flag) continue;
    if (p.schema["x-blurkit-kind"] === "flag") { if (v === "1" || v === "true" || v === "") words.push(flag); continue; }
    words.push(flag, quote(v));
  }
  return words.join(" ");
}

// 512 bytes, 1.5 KB, 2.3 MB.
function size(bytes) {
  if (bytes < 1024) return bytes + " bytes";
  return bytes < 1024 * 1024 ? (bytes / 1024).toFixed(1) + " KB" : (bytes / 1024 / 1024).toFixed(1) + " MB";
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
    const response = await api(url, dropped ? { method: "POST", body: dropped, signal: controller.signal } : { signal: controller.signal });
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
    status(effect + ": " + size(blob.size) + ", " + (response.headers.get("x-cache") === "hit" ? "from the cache" : "rendered"));
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
    if (!regionOf($("effect").value)) return;
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
    const scale = withRole($("effect").value, "pointScale");
    const k = img.naturalWidth / r.width / Number((scale && values[scale.name]) || 1);
    const rect = [Math.min(x, origin[0]), Math.min(y, origin[1]), Math.abs(x - origin[0]), Math.abs(y - origin[1])].map((v) => Math.round(v * k));
    origin = null; box.style.display = "none";
    if (rect[2] > 2 && rect[3] > 2) {
      set(regionOf($("effect").value).name, rect.join(","));
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
    // The route of the placeholder form answers the preview's JSON.
    const route = "/" + Object.keys(routes).find((name) => routes[name].form === "placeholder");
    let placeholder;
    if (dropped) placeholder = await (await api(route, { method: "POST", body: dropped })).json();
    else placeholder = await (await api(route + "/" + path.split("/").map(encodeURIComponent).join("/"))).json();
    // The blurs fade to transparent at the view's edges; over the image's own average colour, not
    // a dark backdrop, that shows no fringe (what --edges clamp does for the library's blur).
    view.style.backgroundColor = placeholder.averageColor;
    preview.src = placeholder.preview.dataURI;
    const response = dropped ? await api("/blur?sigma=0", { method: "POST", body: dropped }) : await api("/blur/" + path.split("/").map(encodeURIComponent).join("/") + "?sigma=0");
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
