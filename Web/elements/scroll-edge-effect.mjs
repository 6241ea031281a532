// <scroll-edge-effect>: iOS 26's scroll-edge effect along one edge of the box it covers (lay it over a
// scroll view, as a sibling after it), built as the engine builds it:
// soft — the progressive blur of <variable-blur-view> over a band `height` points from the edge, full
// at the edge, with the bar's background rising to the soft opacity there; hard — the band blurred
// throughout and covered by the background, with a one-pixel dividing line at its inner end.
//
//   <scroll-edge-effect edge="top" effect-style="soft" height="64"></scroll-edge-effect>
//
// The attributes are the engine's `scroll-edge` parameters in kebab-case (`style` is `effect-style`:
// HTML has `style`), with its defaults; the opacities, the line's colours and each edge's direction
// come with them (registry.mjs). `mode="exact"` draws through the WebAssembly module over the image
// `backdrop` names, as <variable-blur-view> does.
import { attributes, scrollEdge } from './registry.mjs';
import { define, hex, read } from './attributes.mjs';
import { drawExact, readMode } from './exact.mjs';
import { ProgressiveElement } from './variable-blur-view.mjs';

const table = attributes['scroll-edge-effect'];
const edgeEntry = table.find((entry) => entry.name === scrollEdge.edgeParameter);

export class ScrollEdgeEffectElement extends ProgressiveElement {
  static attributeTable = table;
  static observedAttributes = [...table.map((entry) => entry.attribute), ...ProgressiveElement.ownAttributes];

  draw() {
    const appearance = this.resolvedAppearance;
    const values = read(this, table, appearance);
    const { width, height } = this.getBoundingClientRect();
    // Leading and trailing are the element's writing direction's: right and left in right-to-left text.
    // (A physical word the engine takes as an alias, left or right, stays where it says.)
    const typed = this.getAttribute(edgeEntry.attribute)?.trim().toLowerCase();
    const rtl = globalThis.getComputedStyle?.(this).direction === 'rtl' && (typed === undefined || typed === values.edge);
    const edge = rtl ? ({ leading: 'trailing', trailing: 'leading' }[values.edge] ?? values.edge) : values.edge;
    const direction = scrollEdge.directions[edge];
    const vertical = direction === 'down' || direction === 'up';
    const h = Math.max(0, Math.min(values.height, vertical ? height : width));
    const band = {
      top: { x: 0, y: 0, width, height: h }, bottom: { x: 0, y: height - h, width, height: h },
      leading: { x: 0, y: 0, width: h, height }, trailing: { x: width - h, y: 0, width: h, height },
    }[edge];
    const background = values.tint?.[appearance] ?? [0, 0, 0, 0];
    const exact = { operation: 'scrollEdge', table, appearance, extra: { edge } };
    this.dataset.appearance = appearance;
    const line = this.root.querySelector('.line') ?? this.root.appendChild(Object.assign(document.createElement('div'), { className: 'line' }));
    line.hidden = true;
    if (values.style === 'soft') {
      const effect = { direction, maximumBlurRadius: values.maximumBlurRadius, minimumBlurRadius: 0, blurMaximumRadiusInset: null, dimmingFullColorInset: null, dimmingClearExtension: null };
      return this.drawProgressive(effect, background, scrollEdge.softOpacity[appearance], band, exact);
    }
    // Hard: one blur over the band, the background over it, the dividing line at its inner end.
    const [blur, cover, canvas] = [this.root.querySelector('.blur'), this.root.querySelector('.dimming'), this.root.querySelector('canvas')];
    const ready = () => { blur.hidden = true; cover.hidden = true; };
    const exactly = readMode(this) === 'exact' && drawExact(this, canvas, exact, band, ready);
    if (exactly && !canvas.hidden) return ready();
    if (!exactly) canvas.hidden = true;
    const place = (element, r) => Object.assign(element.style, { left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px`, right: 'auto', bottom: 'auto' });
    blur.hidden = false;
    place(blur, band);
    blur.__layers = null;
    blur.replaceChildren(Object.assign(document.createElement('div'), { style: `position:absolute;inset:0;backdrop-filter:blur(${values.maximumBlurRadius}px);-webkit-backdrop-filter:blur(${values.maximumBlurRadius}px)` }));
    cover.hidden = false;
    place(cover, band);
    const [r, g, b, a] = background;
    cover.style.background = `rgba(${r}, ${g}, ${b}, ${a * scrollEdge.hardOpacity})`;
    // One device pixel, at the band's inner end.
    const pixel = 1 / (globalThis.devicePixelRatio || 1);
    const inner = {
      top: { x: band.x, y: band.y + band.height - pixel, width: band.width, height: pixel },
      bottom: { x: band.x, y: band.y, width: band.width, height: pixel },
      leading: { x: band.x + band.width - pixel, y: band.y, width: pixel, height: band.height },
      trailing: { x: band.x, y: band.y, width: pixel, height: band.height },
    }[edge];
    const [lr, lg, lb, la] = hex(scrollEdge.separator[appearance]);
    line.hidden = !(band.width > 0 && band.height > 0);
    line.style.cssText = `position:absolute;pointer-events:none;background:rgba(${lr}, ${lg}, ${lb}, ${la})`;
    place(line, inner);
  }
}

define('scroll-edge-effect', ScrollEdgeEffectElement);
