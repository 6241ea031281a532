// <variable-blur-view>: BlurUIKit's `VariableBlurView` over whatever is behind it — the blur growing
// along the view from its clear edge to its full edge, and the sine-eased dimming gradient on top —
// drawn by the browser's compositor (stacked `backdrop-filter` layers, masks, a gradient; gradient.mjs).
//
//   <variable-blur-view direction="down" maximum-blur-radius="8"></variable-blur-view>
//
// The attributes are the engine's `progressive` parameters in kebab-case, with its defaults
// (registry.mjs). `appearance` (light or dark) picks the default tint and dimming; absent, the page's
// `prefers-color-scheme`, followed live. `mode="exact"` draws through the WebAssembly module instead,
// the engine's own bytes, over the <img> (or <canvas>) whose id `backdrop` names.
import { attributes } from './registry.mjs';
import { ElementBase, appearanceOf, define, read } from './attributes.mjs';
import { blurLayers, dimmingGradient, drawLayers, layout } from './gradient.mjs';
import { drawExact, readMode, stopAwaiting } from './exact.mjs';

const table = attributes['variable-blur-view'];

/// What both progressive elements share: the shadow tree (blur layers, dimming, exact canvas, the
/// children), the colour scheme followed live, and a redraw when the size or an attribute changes.
export class ProgressiveElement extends ElementBase {
  static ownAttributes = ['mode', 'backdrop', 'dir'];
  root;
  /// The exact mode's backdrop being watched.
  watched = null;
  #scheme;
  #resize;
  #frame = 0;
  #listener = () => this.redraw();
  // Scrolling moves an exact element against its image; the compositor's layers move by themselves.
  #scrolled = () => {
    if (this.getAttribute('mode')?.trim().toLowerCase() === 'exact') this.redraw();
  };

  constructor() {
    super();
    this.root = this.attachShadow({ mode: 'open' });
    this.#scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    this.root.innerHTML = `<style>
  :host { display: block; position: relative; pointer-events: none; }
  .blur { position: absolute; inset: 0; overflow: hidden; }
  .dimming, canvas { position: absolute; pointer-events: none; }
  canvas[hidden], .dimming[hidden], .blur[hidden] { display: none; }
  slot { display: block; position: relative; }
  ::slotted(*) { pointer-events: auto; }
</style><div class="blur" part="blur"></div><div class="dimming" part="dimming" hidden></div><canvas part="exact" hidden></canvas><slot></slot>`;
  }

  connectedCallback() {
    this.#scheme?.addEventListener('change', this.#listener);
    this.#resize = globalThis.ResizeObserver ? new ResizeObserver(this.#listener) : null;
    this.#resize?.observe(this);
    globalThis.addEventListener?.('scroll', this.#scrolled, { capture: true, passive: true });
    this.redraw();
  }

  disconnectedCallback() {
    this.#scheme?.removeEventListener('change', this.#listener);
    this.watch(null);
    stopAwaiting(this);
    this.#resize?.disconnect();
    globalThis.removeEventListener?.('scroll', this.#scrolled, { capture: true });
    cancelAnimationFrame(this.#frame);
    this.#frame = 0;
  }

  attributeChangedCallback() {
    if (this.isConnected) this.redraw();
  }

  /// The appearance drawn: the attribute's, else the page's colour scheme.
  get resolvedAppearance() {
    return appearanceOf(this, this.#scheme, this.constructor.attributeTable);
  }

  /// Watches `image` (an exact element's backdrop): a new picture, a failed one, a move or its
  /// removal redraws.
  watch(image) {
    if (this.watched === image) return;
    this.watched?.removeEventListener('load', this.#listener);
    this.watched?.removeEventListener('error', this.#listener);
    if (this.watched) this.#resize?.unobserve(this.watched);
    this.watched = image;
    image?.addEventListener('load', this.#listener);
    image?.addEventListener('error', this.#listener);
    if (image) this.#resize?.observe(image);
  }

  /// Draws at the next frame (once, however many changes come before it).
  redraw() {
    if (this.#frame || !this.isConnected) return;
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0;
      if (this.isConnected) this.draw();
    });
  }

  /// Draws `effect` (direction, radii, insets) with the dimming `color` ([r, g, b, a]) at `alpha`
  /// over `band` (points in the element: x, y, width, height), in the element's mode; `exact` is
  /// the module's operation and options for mode="exact".
  drawProgressive(effect, color, alpha, band, exact) {
    const [blur, dimming, canvas] = [this.root.querySelector('.blur'), this.root.querySelector('.dimming'), this.root.querySelector('canvas')];
    const geometry = layout(effect, band.width, band.height);
    const dims = geometry && color && alpha > 0 && color[3] > 0;
    const f = geometry?.dimmingFrame;
    const reach = dims ? { x: band.x + f.x, y: band.y + f.y, width: f.width, height: f.height } : band;
    const ready = () => { blur.hidden = true; dimming.hidden = true; };
    const exactly = readMode(this) === 'exact' && drawExact(this, canvas, exact, reach, ready);
    if (exactly && !canvas.hidden) return ready();
    if (!exactly) canvas.hidden = true;
    blur.hidden = false;
    Object.assign(blur.style, { left: `${band.x}px`, top: `${band.y}px`, width: `${band.width}px`, height: `${band.height}px`, right: 'auto', bottom: 'auto' });
    drawLayers(blur, geometry ? blurLayers(geometry) : [], geometry?.vertical);
    dimming.hidden = !dims;
    if (dims) {
      Object.assign(dimming.style, {
        left: `${reach.x}px`, top: `${reach.y}px`, width: `${reach.width}px`, height: `${reach.height}px`,
        background: dimmingGradient(geometry, color, alpha),
      });
    }
  }
}

export class VariableBlurViewElement extends ProgressiveElement {
  static attributeTable = table;
  static observedAttributes = [...table.map((entry) => entry.attribute), ...ProgressiveElement.ownAttributes];

  draw() {
    const appearance = this.resolvedAppearance;
    const values = read(this, table, appearance);
    const { width, height } = this.getBoundingClientRect();
    const color = values.dimmingTintColor?.[appearance] ?? null;
    this.dataset.appearance = appearance;
    this.drawProgressive(values, color, values.dimmingAlpha, { x: 0, y: 0, width, height }, { operation: 'progressive', table, appearance });
  }
}

define('variable-blur-view', VariableBlurViewElement);
