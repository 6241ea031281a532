// The progressive blur's geometry as BlurUIKit lays it out (the engine's `VariableBlurEffect.layout`
// and `GradientMask`), and the CSS that draws it with the browser's compositor: σ along the axis as
// stacked `backdrop-filter` layers, each masked to the band where σ passes between two levels, and
// the dimming gradient as one `linear-gradient` over them.
//
// The layers compound: each blurs what the ones before it drew, so the k-th adds
// √(σₖ² − σₖ₋₁²) and the k-th level is reached where every layer up to it is whole. Between two
// levels the page shows the two Gaussians mixed by the mask — the approximation the stacked-layer
// technique makes; `LAYERS` and `SPACING` are chosen from the measured curve in docs/web.md.

/// How many layers a blur is drawn with, and how their levels are spaced from 0 to the maximum
/// (σₖ = maximum × (k / LAYERS) ^ SPACING): from the accuracy-and-frame-time curve in docs/web.md.
/// `settings` holds them for a page (or a measurement) to change before its elements draw.
export const LAYERS = 6;
export const SPACING = 1.5;
export const settings = { layers: LAYERS, spacing: SPACING };

/// Sine ease-in-out, ½(1 − cos πt): the dimming gradient's shape.
const easeInOutSine = (t) => 0.5 * (1 - Math.cos(Math.PI * t));

/// BlurUIKit's 8-bit gradient of `length` entries (`GradientMask`): 1 up to `start` (a fraction),
/// then falling linearly (or sine-eased, `smooth`) to 0 at the far end, lifted to `floor`;
/// `reversed` runs it the other way.
export function gradientMask({ length, start, reversed, smooth, floor }) {
  const n = Math.max(1, length), s = start;
  const boundary = s > 0 ? Math.floor(s * (n - 1)) + 1 : 0;
  const ease = (x) => { const t = Math.min(1, Math.max(0, x)); return smooth ? easeInOutSine(t) : t; };
  const values = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    const t = n > 1 ? i / (n - 1) : 0;
    let a = reversed ? (i >= n - boundary ? 1 : ease(t / (1 - s))) : (i < boundary ? 1 : 1 - ease((t - s) / (1 - s)));
    a = floor + a * (1 - floor);
    values[i] = Math.min(255, Math.max(0, Math.trunc(a * 255)));
  }
  return values;
}

/// The mask's value at `position` points along its axis (entry i covers [i, i + 1)), interpolated
/// between entry centres as a texture sampler does; 0…1.
export function maskValue(values, position) {
  const n = values.length;
  const p = Math.min(n - 0.5, Math.max(0.5, position)) - 0.5;
  const i = Math.min(n - 1, Math.trunc(p)), f = p - i;
  return (values[i] + (values[Math.min(n - 1, i + 1)] - values[i]) * f) / 255;
}

/// A length parameter's points in a view of `size` points: `{ points }`, `{ fraction }` or null.
const points = (length, size) => (length === null || length === undefined ? 0 : 'fraction' in length ? length.fraction * size : length.points);

/// The layout of a progressive blur over a `width × height` view (points), as the engine makes it:
/// the blur mask and the dimming mask, and the dimming's frame (the view grown by its clear
/// extension). `effect`: direction, maximumBlurRadius, minimumBlurRadius, blurMaximumRadiusInset,
/// dimmingFullColorInset, dimmingClearExtension. Null while the view has no size.
export function layout(effect, width, height) {
  if (!(width > 0 && height > 0 && Math.max(width, height) <= 1e6)) return null;
  const vertical = effect.direction === 'down' || effect.direction === 'up';
  const reversed = effect.direction === 'up' || effect.direction === 'right';
  const size = vertical ? height : width;
  const top = effect.maximumBlurRadius > 0 ? effect.maximumBlurRadius : 0;
  const floor = top > 0 ? Math.min(Math.max(effect.minimumBlurRadius, 0), top) / top : 0;
  const length = Math.ceil(size);
  const inset = Math.max(0, points(effect.blurMaximumRadiusInset, size));
  const blur = gradientMask({ length, start: Math.min(1, Math.max(0, inset / length)), reversed, smooth: false, floor });
  let extension = points(effect.dimmingClearExtension, size);
  if (!(extension > 0 && extension <= 16 * size)) extension = 0;
  const dimmingLength = Math.ceil(size + extension);
  const full = effect.dimmingFullColorInset;
  const fullInset = full == null ? 0 : 'fraction' in full ? Math.min(1, Math.max(0, full.fraction)) * size : Math.min(size, Math.max(0, full.points));
  const dimming = gradientMask({ length: dimmingLength, start: Math.min(1, Math.max(0, fullInset / dimmingLength)), reversed, smooth: true, floor: 0 });
  const frame = {
    down: { x: 0, y: 0, width, height: height + extension }, up: { x: 0, y: -extension, width, height: height + extension },
    left: { x: 0, y: 0, width: width + extension, height }, right: { x: -extension, y: 0, width: width + extension, height },
  }[effect.direction];
  return { vertical, size, radius: top, blur, dimming, dimmingFrame: frame };
}

/// The CSS of each blur layer for a layout: `{ blur, from, to, mask }` — the σ it adds (CSS px), the
/// span of the view along the axis it covers (points) and its mask-image along that span — from the
/// first (least blur, widest) to the last. σ along the axis is radius × mask; a layer is whole where
/// σ has reached its level and clear where σ is below the level before, linear between (σ is linear
/// along the axis there, so two stops draw it). A layer covers where it is not clear, and three of
/// its σ past that, so that what it reads at its edge is what the whole view would have shown.
export function blurLayers({ vertical, size, radius, blur }, layers = settings.layers, spacing = settings.spacing) {
  if (!(radius > 0)) return [];
  const side = vertical ? 'bottom' : 'right';
  const samples = Array.from({ length: blur.length + 1 }, (_, i) => radius * maskValue(blur, i));
  const grows = samples[samples.length - 1] >= samples[0];
  // Where σ passes `level` going along the axis.
  const crossing = (level) => {
    for (let i = 0; i < samples.length - 1; i++) {
      const a = samples[i], b = samples[i + 1];
      if ((a - level) * (b - level) <= 0 && a !== b) return i + (level - a) / (b - a);
    }
    return (samples[0] >= level) === grows ? 0 : size;
  };
  const peak = Math.max(...samples);
  const out = [];
  // A floor (the minimum radius) is one layer over the whole view; the levels run from it.
  const low = Math.min(...samples);
  if (low > 0) out.push({ blur: low, from: 0, to: size, mask: 'none' });
  let previous = low;
  for (let k = 1; k <= layers && previous < peak; k++) {
    const level = Math.min(peak, low + (peak - low) * Math.pow(k / layers, spacing));
    if (level <= previous) continue;
    const adds = Math.sqrt(level * level - previous * previous);
    const clear = Math.min(size, Math.max(0, crossing(previous))), whole = Math.min(size, Math.max(0, crossing(level)));
    const margin = 3 * adds;
    const [from, to] = grows ? [Math.max(0, clear - margin), size] : [0, Math.min(size, clear + margin)];
    const at = (p) => (p - from).toFixed(3) + 'px';
    const stops = grows
      ? `transparent ${at(clear)}, black ${at(Math.max(whole, clear + 0.001))}`
      : `black ${at(Math.min(whole, clear - 0.001))}, transparent ${at(clear)}`;
    out.push({ blur: adds, from, to, mask: `linear-gradient(to ${side}, ${stops})` });
    previous = level;
  }
  return out;
}

/// Draws `layers` (blurLayers) as the children of `container`, one absolutely placed element each,
/// reusing the ones it has.
export function drawLayers(container, layers, vertical) {
  // The same layers again (a resize that changed nothing along the axis): no style to recompute.
  const key = JSON.stringify([layers, vertical]);
  if (container.__layers === key && container.children.length === layers.length) return;
  container.__layers = key;
  while (container.children.length > layers.length) container.lastElementChild.remove();
  while (container.children.length < layers.length) container.appendChild(container.ownerDocument.createElement('div'));
  layers.forEach((layer, k) => {
    const style = container.children[k].style;
    const span = `${layer.from.toFixed(3)}px`, length = `${(layer.to - layer.from).toFixed(3)}px`;
    style.cssText = 'position:absolute;pointer-events:none;' + (vertical
      ? `left:0;right:0;top:${span};height:${length};`
      : `top:0;bottom:0;left:${span};width:${length};`);
    const filter = `blur(${layer.blur.toFixed(4)}px)`;
    style.backdropFilter = filter;
    style.webkitBackdropFilter = filter;
    style.maskImage = layer.mask;
    style.webkitMaskImage = layer.mask;
  });
}

/// The dimming's `linear-gradient` along its frame for `color` ([r, g, b, a], bytes and 0…1) at
/// opacity `alpha`: one stop for every entry of its mask up to 64, interpolated between.
export function dimmingGradient({ vertical, dimming, dimmingFrame }, color, alpha) {
  const length = vertical ? dimmingFrame.height : dimmingFrame.width;
  const count = Math.min(64, dimming.length);
  const stops = [];
  for (let i = 0; i <= count; i++) {
    const p = (i / count) * length;
    const a = color[3] * alpha * maskValue(dimming, p);
    stops.push(`rgba(${color[0]}, ${color[1]}, ${color[2]}, ${a.toFixed(5)}) ${p.toFixed(3)}px`);
  }
  return `linear-gradient(to ${vertical ? 'bottom' : 'right'}, ${stops.join(', ')})`;
}
