// <blur-material>: UIKit's blur material (`Blur(style:)`, `UIBlurEffect(style:)`) over whatever is
// behind it, drawn by the browser's compositor: the backdrop blurred and saturated
// (`backdrop-filter`), then the style's tint layers in their blend modes (`mix-blend-mode`) — the
// engine's recipe (`MaterialTable`), exported by the registry, not retyped here.
//
//   <blur-material material="thin" appearance="dark" corner-radius="16">…</blur-material>
//
// `material`: ultrathin, thin, regular, thick, chrome or a full UIKit name (systemThinMaterialDark);
// `appearance`: light or dark, else the page's `prefers-color-scheme`, followed live;
// `corner-radius`: points (CSS px). Its children are drawn above the material.
import { attributes, materials } from './registry.mjs';
import { ElementBase, appearanceOf, define, read } from './attributes.mjs';

const table = attributes['blur-material'];

/// The CSS of one material: the backdrop blurred, saturated and passed through the tint's curve
/// (`transfer`: the engine's bytes for the style's layers over each grey, applied per channel by an
/// SVG table), with the id of that curve's filter.
export function materialStyle(style, appearance) {
  const { thickness, appearance: own } = materials.styles[style] ?? materials.styles.regular;
  const resolved = own ?? appearance;
  const recipe = materials.recipes[thickness][resolved];
  const id = `blurkit-tint-${thickness}-${resolved}`;
  return { id, transfer: recipe.transfer, backdropFilter: `blur(${recipe.blurRadius}px) saturate(${recipe.saturation}) url(#${id})` };
}

/// The SVG filter `id` of a tint curve, once in `root` (a backdrop filter's url() resolves in the
/// tree of the style that names it: the element's shadow root).
function tintFilter(root, id, transfer) {
  if (root.getElementById(id)) return;
  const svgNS = 'http://www.w3.org/2000/svg';
  const document = root.ownerDocument;
  let holder = root.querySelector('svg');
  if (!holder) {
    holder = document.createElementNS(svgNS, 'svg');
    holder.setAttribute('aria-hidden', 'true');
    holder.style.cssText = 'position:absolute;width:0;height:0;overflow:hidden';
    root.appendChild(holder);
  }
  const filter = document.createElementNS(svgNS, 'filter');
  filter.id = id;
  filter.setAttribute('color-interpolation-filters', 'sRGB');
  const transferNode = document.createElementNS(svgNS, 'feComponentTransfer');
  const values = transfer.map((v) => (v / 255).toFixed(6)).join(' ');
  for (const channel of ['feFuncR', 'feFuncG', 'feFuncB']) {
    const f = document.createElementNS(svgNS, channel);
    f.setAttribute('type', 'table');
    f.setAttribute('tableValues', values);
    transferNode.appendChild(f);
  }
  filter.appendChild(transferNode);
  holder.appendChild(filter);
}

export class BlurMaterialElement extends ElementBase {
  static observedAttributes = table.map((entry) => entry.attribute);
  #root;
  #scheme;
  #listener = () => this.#draw();

  constructor() {
    super();
    this.#root = this.attachShadow({ mode: 'open' });
    this.#scheme = globalThis.matchMedia?.('(prefers-color-scheme: dark)');
    this.#root.innerHTML = `<style>
  :host { display: block; position: relative; overflow: hidden; }
  .backdrop { position: absolute; inset: 0; pointer-events: none; border-radius: inherit; }
  slot { display: block; position: relative; }
</style><style></style><div class="backdrop" part="backdrop"></div><slot></slot>`;
  }

  connectedCallback() {
    this.#scheme?.addEventListener('change', this.#listener);
    this.#draw();
  }

  disconnectedCallback() {
    this.#scheme?.removeEventListener('change', this.#listener);
  }

  attributeChangedCallback() {
    if (this.isConnected) this.#draw();
  }

  /// The appearance drawn: the attribute's, else the page's colour scheme.
  get resolvedAppearance() {
    return appearanceOf(this, this.#scheme, table);
  }

  #draw() {
    const appearance = this.resolvedAppearance;
    const values = read(this, table, appearance);
    const { id, transfer, backdropFilter } = materialStyle(values.style, appearance);
    tintFilter(this.#root, id, transfer);
    this.#root.querySelectorAll('style')[1].textContent = `:host { border-radius: ${values.cornerRadius}px; }`;
    const backdrop = this.#root.querySelector('.backdrop');
    backdrop.style.backdropFilter = backdropFilter;
    backdrop.style.webkitBackdropFilter = backdropFilter;
    this.dataset.appearance = appearance;
  }
}

define('blur-material', BlurMaterialElement);
