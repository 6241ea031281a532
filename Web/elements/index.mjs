// Every BlurKit element: importing this defines them (where there are custom elements; on a server
// it only exports the classes).
export { BlurMaterialElement, materialStyle } from './blur-material.mjs';
export { attributes, materials } from './registry.mjs';
export { thumbHashToRGBA } from './thumbhash.mjs';
