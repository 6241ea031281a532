// Every BlurKit element: importing this defines them (where there are custom elements; on a server
// it only exports the classes). Each element is also its own module, to import alone. The ThumbHash
// decoder is its own (`blurkit/elements/thumbhash.mjs`), loaded by <blur-up-image> when it needs it.
export { BlurMaterialElement, materialStyle } from './blur-material.mjs';
export { VariableBlurViewElement } from './variable-blur-view.mjs';
export { ScrollEdgeEffectElement } from './scroll-edge-effect.mjs';
export { BlurUpImageElement } from './blur-up-image.mjs';
export { attributes, blurUp, materials, scrollEdge } from './registry.mjs';
