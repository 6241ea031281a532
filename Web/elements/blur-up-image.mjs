// <blur-up-image>: SwiftUI Blocks' Blur Up Image (and `BlurUpImageRemote`) — a blurred preview until
// the full image has loaded, which then comes into focus — drawn by the browser's compositor.
//
//   <blur-up-image src="photo.jpg" preview="data:image/png;base64,…" label="A red fox">
//     <img src="photo.jpg" alt="A red fox">   <!-- shown where scripts do not run -->
//   </blur-up-image>
//
// `preview`: an image URL or data URL; `thumbhash`: a ThumbHash (base64), decoded here when there is
// no preview; `src`: the full image (absent: the preview, and while `loading` the spinner);
// `label`: what assistive technology reads; `blur-radius`: the preview's blur in points (the
// engine's `blurRadius`: 24, at most 200; a negative value is 0); `loading`: true (default) or false.
// It fills its box, each image cover-cropped and clipped. The preview is blurred with opaque edges
// (a `backdrop-filter` over it reads its own edge pixels). The image arrives with the engine's
// transition — blur from the radius to 0 and opacity from 0 to 1 over its duration and curve
// (registry.mjs: 0.8 s, ease-out) — or, with `prefers-reduced-motion: reduce`, the engine's fade (0.2 s,
// no blur). A white spinner turns while there is no image and it is loading. A download that fails
// keeps the preview, stops the spinner and fires `error`. For assistive technology it is one image:
// its label, described as "Loading" while loading (ARIA gives an image no value), its children hidden.
import { attributes, blurUp } from './registry.mjs';
import { ElementBase, define, parse, read, reportOnce } from './attributes.mjs';

const table = attributes['blur-up-image'];
const radiusEntry = table.find((entry) => entry.name === blurUp.radius);
const curve = `cubic-bezier(${blurUp.curve.join(', ')})`;

/// A ThumbHash's bytes from its base64 (or base64url) text; null if it is not base64.
function base64Bytes(text) {
  const clean = text.trim().replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(clean)) return null;
  try {
    return Uint8Array.from(atob(clean.padEnd(Math.ceil(clean.length / 4) * 4, '=')), (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

export class BlurUpImageElement extends ElementBase {
  static observedAttributes = ['src', 'preview', 'thumbhash', 'label', 'loading', 'width', 'height', ...table.map((entry) => entry.attribute)];
  #root;
  #motion;
  #shown = false; // the full image is in (or coming in)
  #failed = false;
  #ticket = 0;
  #animation = null;
  #motionListener = () => this.#draw();

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    // Read before anything loads: an image that arrives before the element is on the page comes in
    // by the page's motion preference too.
    this.#motion = globalThis.matchMedia?.('(prefers-reduced-motion: reduce)');
    this.#root.innerHTML = `<style>
  :host { display: block; position: relative; overflow: hidden; }
  .layer { position: absolute; inset: 0; width: 100%; height: 100%; object-fit: cover; display: block; }
  .veil { position: absolute; inset: 0; }
  .image { opacity: 0; }
  .spinner { position: absolute; left: 50%; top: 50%; width: ${blurUp.indicatorSize}px; height: ${blurUp.indicatorSize}px;
    margin: ${-blurUp.indicatorSize / 2}px 0 0 ${-blurUp.indicatorSize / 2}px; border-radius: 50%;
    background: conic-gradient(from 0deg, transparent, white);
    -webkit-mask: radial-gradient(circle, transparent 52%, black 54%); mask: radial-gradient(circle, transparent 52%, black 54%);
    animation: turn 1s steps(12) infinite; }
  .spinner[hidden], .layer[hidden] { display: none; }
  @keyframes turn { to { transform: rotate(360deg); } }
  @media (prefers-reduced-motion: reduce) { .spinner { animation-duration: 2s; } }
</style><style></style><img class="layer preview" alt="" aria-hidden="true" hidden><canvas class="layer thumb" aria-hidden="true" hidden></canvas><div class="veil" part="veil" aria-hidden="true"></div><img class="layer image" alt="" aria-hidden="true" part="image"><div class="spinner" part="spinner" aria-hidden="true" hidden></div>`;
    const image = this.#root.querySelector('.image');
    image.addEventListener('load', () => this.#arrived(image));
    image.addEventListener('error', () => this.#lost(image));
    const preview = this.#root.querySelector('.preview');
    preview.addEventListener('load', () => this.#draw());
    preview.addEventListener('error', () => {
      if (!preview.getAttribute('src')) return;
      console.error(`<blur-up-image> preview could not be loaded (${JSON.stringify(preview.getAttribute('src').slice(0, 80))})${this.hasAttribute('thumbhash') ? '; drawn from the thumbhash' : ''}`);
      preview.hidden = true;
      this.#thumbHash();
    });
  }

  connectedCallback() {
    this.#motion?.addEventListener('change', this.#motionListener);
    this.#draw();
  }

  disconnectedCallback() {
    this.#motion?.removeEventListener('change', this.#motionListener);
  }

  attributeChangedCallback(name, before, after) {
    if (before === after) return;
    if (name === 'src') this.#load(after);
    if (name === 'preview' || name === 'thumbhash') this.#preview();
    this.#draw();
  }

  /// The preview's blur in points: the attribute's (a negative value is 0, as the engine takes it),
  /// else the default.
  get blurRadius() {
    const text = this.getAttribute(radiusEntry.attribute);
    if (text !== null && text.trim() !== '' && Number.isFinite(Number(text)) && Number(text) < 0) return 0;
    return read(this, table).blurRadius;
  }

  /// Whether a full image is expected: the `loading` attribute (true unless "false"), and no failure.
  get loading() {
    const text = this.getAttribute('loading');
    if (text === null) return !this.#failed;
    const value = parse({ kind: 'flag' }, text);
    if (value instanceof Error) {
      reportOnce(this, 'loading', text, `${value.message}; drawn with its default, true`);
      return !this.#failed;
    }
    return value && !this.#failed;
  }

  /// Whether the full image is showing (or coming in).
  get complete() {
    return this.#shown;
  }

  /// The running transition, if any (a test samples it).
  get transition() {
    return this.#animation;
  }

  #reduceMotion() {
    return this.#motion?.matches ?? false;
  }

  #preview() {
    const img = this.#root.querySelector('.preview'), thumb = this.#root.querySelector('.thumb');
    const preview = this.getAttribute('preview'), hash = this.getAttribute('thumbhash');
    img.hidden = !preview;
    thumb.hidden = true;
    if (preview) {
      img.src = preview;
      return;
    }
    img.removeAttribute('src');
    this.#thumbHash();
  }

  /// Draws the `thumbhash` as the preview (when there is no preview, or it failed to load).
  #thumbHash() {
    const thumb = this.#root.querySelector('.thumb'), hash = this.getAttribute('thumbhash');
    if (hash === null) return;
    // The decoder (3.6 KB) is loaded only when a ThumbHash is the preview.
    import('./thumbhash.mjs').then(({ thumbHashToRGBA }) => {
      if (this.getAttribute('thumbhash') !== hash || !this.#root.querySelector('.preview').hidden) return;
      const bytes = base64Bytes(hash);
      let decoded = null;
      try {
        decoded = bytes && thumbHashToRGBA(bytes);
      } catch {
        decoded = null;
      }
      if (!decoded) {
        console.error(`<blur-up-image> thumbhash must be a ThumbHash in base64, got "${hash}"; drawn without a preview`);
        return;
      }
      thumb.width = decoded.width;
      thumb.height = decoded.height;
      thumb.getContext('2d').putImageData(new ImageData(decoded.data, decoded.width, decoded.height), 0, 0);
      thumb.hidden = false;
      this.#draw();
    });
  }

  /// Starts loading `src` (a newer `src` overtakes it); none: the image leaves.
  #load(src) {
    const image = this.#root.querySelector('.image');
    this.#ticket += 1;
    this.#failed = false;
    if (!src) {
      // A leaving image keeps its pixels while it goes, as the engine's does.
      delete image.dataset.ticket;
      this.#leave();
      return;
    }
    image.dataset.ticket = String(this.#ticket);
    image.hidden = false;
    // A new image over one that is shown replaces its pixels without a transition, as the engine's.
    image.src = src;
  }

  #arrived(image) {
    if (image.dataset.ticket !== String(this.#ticket) || !this.getAttribute('src')) return;
    if (!this.#shown) {
      this.#shown = true;
      this.#animate(true);
    }
    this.#draw();
    this.dispatchEvent(new Event('load'));
  }

  #lost(image) {
    if (image.dataset.ticket !== String(this.#ticket) || !this.getAttribute('src')) return;
    this.#failed = true;
    // The preview stays: a failed image (shown before or not) draws nothing over it.
    this.#animation?.cancel();
    this.#animation = null;
    image.hidden = true;
    this.#shown = false;
    this.#draw();
    this.dispatchEvent(new Event('error'));
  }

  #leave() {
    if (!this.#shown) return this.#draw();
    this.#shown = false;
    this.#animate(false);
    this.#draw();
  }

  /// The engine's transition in (`arriving`) or out: opacity and blur over its duration and curve,
  /// or the reduced-motion fade.
  #animate(arriving) {
    const image = this.#root.querySelector('.image');
    const reduce = this.#reduceMotion();
    const blur = reduce ? 0 : this.blurRadius;
    const hidden = { opacity: 0, filter: `blur(${blur}px)` }, visible = { opacity: 1, filter: 'blur(0px)' };
    this.#animation?.cancel();
    this.#animation = image.animate?.(arriving ? [hidden, visible] : [visible, hidden], {
      duration: 1000 * (reduce ? blurUp.reducedMotionDuration : blurUp.duration), easing: curve, fill: 'forwards',
    }) ?? null;
  }

  #draw() {
    if (!this.isConnected) return;
    const radius = this.blurRadius;
    const veil = this.#root.querySelector('.veil');
    veil.style.backdropFilter = veil.style.webkitBackdropFilter = radius > 0 ? `blur(${radius}px)` : 'none';
    const loading = !this.#shown && this.loading;
    this.#root.querySelector('.spinner').hidden = !loading;
    // One image for assistive technology: its label (else the alt of the <img> inside), "Loading"
    // while it loads. On the element itself, where every tool reads it.
    const label = this.getAttribute('label') ?? this.querySelector('img[alt]')?.getAttribute('alt') ?? '';
    this.setAttribute('role', 'img');
    this.setAttribute('aria-label', label);
    if (loading) {
      this.setAttribute('aria-description', 'Loading');
      this.setAttribute('aria-busy', 'true');
    } else {
      this.removeAttribute('aria-description');
      this.removeAttribute('aria-busy');
    }
    // Its aspect ratio when the page gives it no height: `width` and `height` (as an <img> takes
    // them), else the <img> inside's, else the preview's own.
    const width = this.#dimension('width'), height = this.#dimension('height');
    const ratio = this.#ratio(width, height);
    // With `width` and `height` it is sized as an <img> with them is: that width (at most its
    // container's) and their aspect; the page's CSS overrides either.
    this.#root.querySelectorAll('style')[1].textContent = width && height
      ? `:host { width: ${width}px; max-width: 100%; aspect-ratio: ${ratio}; }`
      : ratio ? `:host { aspect-ratio: ${ratio}; }` : '';
  }

  /// The `width` or `height` attribute: a positive number of CSS px up to 100,000, else null (a
  /// bad one reported once).
  #dimension(name) {
    const text = this.getAttribute(name);
    if (text === null) return null;
    const value = /^\s*(\d+\.?\d*|\.\d+)\s*$/.test(text) ? Number(text) : NaN;
    if (value > 0 && value <= 100000) return value;
    reportOnce(this, name, text, `must be a number of CSS px from 1 to 100000, got "${text}"; drawn without it`);
    return null;
  }

  /// `W / H` from the attributes, the <img> inside, the image, or the preview; null when none says.
  #ratio(width, height) {
    const pair = (w, h) => (Number(w) > 0 && Number(h) > 0 && Number.isFinite(Number(w) / Number(h)) ? `${Number(w)} / ${Number(h)}` : null);
    const inner = this.querySelector('img');
    const image = this.#root.querySelector('.image'), preview = this.#root.querySelector('.preview'), thumb = this.#root.querySelector('.thumb');
    return pair(width, height)
      ?? pair(inner?.getAttribute('width'), inner?.getAttribute('height'))
      ?? (this.#shown && image.naturalWidth ? pair(image.naturalWidth, image.naturalHeight) : null)
      ?? (!preview.hidden && preview.naturalWidth ? pair(preview.naturalWidth, preview.naturalHeight) : null)
      ?? (!thumb.hidden ? pair(thumb.width, thumb.height) : null);
  }
}

define('blur-up-image', BlurUpImageElement);
