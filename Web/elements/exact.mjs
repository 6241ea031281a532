// mode="exact": an element drawn through the WebAssembly module instead of the compositor — the
// engine's own bytes over an image backdrop. The element's `backdrop` names an <img> or <canvas> (by
// id) that lies under it; the image is drawn as the page lays it out (its box, `object-fit` fill,
// cover or contain) at the device's pixel ratio, the module draws the effect over the part under the
// element, and a canvas in the element shows it. Only here is WebAssembly loaded: the small module
// (blurkit-core.wasm: the blurs), once per page, when the first exact element draws.

import { parse, reportOnce } from './attributes.mjs';

const MODES = ['css', 'exact'];
let kit = null;

/// The element's `mode`: css (the default) or exact; another value is reported and drawn as css.
export function readMode(element) {
  const text = element.getAttribute('mode');
  if (text === null) return 'css';
  const mode = text.trim().toLowerCase();
  if (MODES.includes(mode)) return mode;
  reportOnce(element, 'mode', text, `must be one of ${MODES.join(', ')}, got "${text}"; drawn with its default, "css"`);
  return 'css';
}

/// The module (blurkit-core.wasm), loaded once.
function module() {
  kit ??= import(new URL('../blurkit.mjs', import.meta.url).href).then(({ load }) => load(new URL('../blurkit-core.wasm', import.meta.url)));
  return kit;
}

/// The source rectangle of `image` (natural pixels) its box shows, by its `object-fit`.
function shown(image, box) {
  const natural = image instanceof HTMLImageElement ? [image.naturalWidth, image.naturalHeight] : [image.width, image.height];
  const fit = getComputedStyle(image).objectFit;
  if (fit !== 'cover' && fit !== 'contain') return { sx: 0, sy: 0, sw: natural[0], sh: natural[1], dx: 0, dy: 0, dw: box.width, dh: box.height };
  const scale = (fit === 'cover' ? Math.max : Math.min)(box.width / natural[0], box.height / natural[1]);
  const dw = natural[0] * scale, dh = natural[1] * scale;
  return { sx: 0, sy: 0, sw: natural[0], sh: natural[1], dx: (box.width - dw) / 2, dy: (box.height - dh) / 2, dw, dh };
}

/// The element's options for the module: each attribute of `table` that reads well, as its text
/// (the module parses it as every front end does; a bad one is left out: its default, as the
/// compositor draws it), and `appearance`.
function options(element, table, appearance) {
  const out = { appearance };
  for (const entry of table) {
    const text = element.getAttribute(entry.attribute);
    if (text !== null && entry.role !== 'appearance' && !(parse(entry, text) instanceof Error)) out[entry.name] = text;
  }
  return out;
}

/// Reports `message` for `element` once until it draws exactly again.
function report(element, key, message) {
  element.__exactReported ??= new Set();
  if (element.__exactReported.has(key)) return;
  element.__exactReported.add(key);
  console.error(`<${element.localName}> ${message}`);
}

/// Redraws `element` when the page's tree changes while its backdrop is missing (an image with its
/// id may come).
function awaitBackdrop(element) {
  if (element.__backdropObserver || !globalThis.MutationObserver) return;
  element.__backdropObserver = new MutationObserver(() => element.redraw());
  element.__backdropObserver.observe(element.ownerDocument, { childList: true, subtree: true, attributes: true, attributeFilter: ['id'] });
}

/// Stops `awaitBackdrop` (an element that leaves the page, or found its image).
export function stopAwaiting(element) {
  element.__backdropObserver?.disconnect();
  element.__backdropObserver = null;
}

/// Starts drawing `element` exactly into `canvas` by `operation` with its `table`'s attributes in
/// `appearance`, showing `reach` (points in the element: its box, and the dimming past it), and
/// calls `onReady` when it shows; false (draw with the compositor) when `backdrop` names no image
/// that has loaded. A draw that a newer one overtakes is dropped.
export function drawExact(element, canvas, { operation, table, appearance, extra = {} }, reach, onReady) {
  const id = element.getAttribute('backdrop');
  const image = id ? element.ownerDocument.getElementById(id) : null;
  element.watch?.(image instanceof HTMLImageElement || image instanceof HTMLCanvasElement ? image : null);
  const drawable = image?.isConnected && (image instanceof HTMLImageElement ? image.complete && image.naturalWidth > 0 : image instanceof HTMLCanvasElement);
  const shownBox = drawable ? image.getBoundingClientRect() : null;
  if (!drawable || !(shownBox.width >= 1 && shownBox.height >= 1)) {
    const loading = image instanceof HTMLImageElement && image.isConnected && !image.complete;
    // An image still loading is waited for (its load redraws), not reported.
    if (loading) return false;
    report(element, 'backdrop', `backdrop must name a loaded, shown <img> or a <canvas> by its id for mode="exact", got ${JSON.stringify(id)}` +
      `${image === null ? ' (no element has that id)' : ''}; drawn by the compositor`);
    if (!image?.isConnected) awaitBackdrop(element);
    return false;
  }
  stopAwaiting(element);
  // An element with no area has nothing to draw; one off its image, nothing the module can draw.
  const area = element.getBoundingClientRect();
  if (!(area.width > 0 && area.height > 0)) {
    canvas.hidden = true;
    return true;
  }
  const overlaps = area.left < shownBox.right && area.right > shownBox.left && area.top < shownBox.bottom && area.bottom > shownBox.top;
  if (!overlaps) return false;
  // A draw that failed with these attributes (a cross-origin image) is not tried again until they change.
  const key = JSON.stringify([...element.attributes].map((a) => [a.name, a.value]).concat([[image.currentSrc ?? '', image.width, image.height]]));
  if (element.__exactFailed === key) return false;
  const ticket = (element.__exactTicket = (element.__exactTicket ?? 0) + 1);
  module().then((blurkit) => {
    if (ticket !== element.__exactTicket || !element.isConnected) return;
    const ratio = globalThis.devicePixelRatio || 1;
    const box = image.getBoundingClientRect(), own = element.getBoundingClientRect();
    const width = Math.round(box.width * ratio), height = Math.round(box.height * ratio);
    if (width < 1 || height < 1) return;
    const backdrop = document.createElement('canvas');
    backdrop.width = width;
    backdrop.height = height;
    const context = backdrop.getContext('2d', { willReadFrequently: true });
    const s = shown(image, box);
    context.imageSmoothingQuality = 'high';
    context.drawImage(image, s.sx, s.sy, s.sw, s.sh, s.dx * ratio, s.dy * ratio, s.dw * ratio, s.dh * ratio);
    const region = { x: own.left - box.left, y: own.top - box.top, width: own.width, height: own.height };
    let drawn;
    try {
      drawn = blurkit[operation](context.getImageData(0, 0, width, height), { ...options(element, table, appearance), ...extra, region, scale: ratio });
    } catch (error) {
      const crossOrigin = error?.name === 'SecurityError';
      report(element, 'draw:' + error.message, `mode="exact" cannot draw: ${crossOrigin
        ? 'the backdrop is an image from another origin without crossorigin="anonymous" (and CORS), whose pixels the page may not read'
        : error.message}; drawn by the compositor`);
      element.__exactFailed = key;
      canvas.hidden = true;
      element.redraw();
      return;
    }
    element.__exactReported?.clear();
    // Show what the module drew over `reach` (inside the image).
    const left = Math.max(0, Math.floor((own.left + reach.x - box.left) * ratio)), top = Math.max(0, Math.floor((own.top + reach.y - box.top) * ratio));
    const right = Math.min(width, Math.ceil((own.left + reach.x + reach.width - box.left) * ratio));
    const bottom = Math.min(height, Math.ceil((own.top + reach.y + reach.height - box.top) * ratio));
    if (right <= left || bottom <= top) return;
    canvas.width = right - left;
    canvas.height = bottom - top;
    canvas.getContext('2d').putImageData(drawn, -left, -top, left, top, right - left, bottom - top);
    Object.assign(canvas.style, {
      left: `${box.left - own.left + left / ratio}px`, top: `${box.top - own.top + top / ratio}px`,
      width: `${(right - left) / ratio}px`, height: `${(bottom - top) / ratio}px`,
    });
    canvas.hidden = false;
    onReady?.();
  }, (error) => console.error(`<${element.localName}> mode="exact": the module did not load (${error.message})`));
  return true;
}
