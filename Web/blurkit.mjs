// BlurKit in the browser (and in Node): the engine's own kernels compiled to WebAssembly. An ES
// module with no dependencies; blurkit.wasm sits beside it.
//
//   import { load } from './blurkit.mjs';
//   const blurkit = await load();
//   const out = blurkit.progressive(ctx.getImageData(0, 0, w, h), { maximumBlurRadius: 3.5, scale: 3 });
//   ctx.putImageData(out, 0, 0);
//
// Images are canvas ImageData (straight-alpha RGBA bytes) or { width, height, data }; each call
// returns a new one and leaves its argument alone. Options take the library's names, defaults and
// ranges: a number left out takes the default of its parameter table, and a bad value throws an
// Error whose message names the parameter, as the command line does. The module's memory is
// allocated once per image size and reused: nothing grows from call to call.

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// Instantiates blurkit.wasm: from a URL (default: beside this module), a Response, or its bytes.
export async function load(source = new URL('./blurkit.wasm', import.meta.url)) {
  let module;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    module = await WebAssembly.instantiate(source, {});
  } else if (typeof Response !== 'undefined' && source instanceof Response) {
    module = await WebAssembly.instantiate(await source.arrayBuffer(), {});
  } else if (typeof process !== 'undefined' && process.versions?.node && String(source).startsWith('file:')) {
    const { readFile } = await import('node:fs/promises');
    module = await WebAssembly.instantiate(await readFile(new URL(source)), {});
  } else {
    module = await WebAssembly.instantiate(await (await fetch(source)).arrayBuffer(), {});
  }
  return new BlurKit(module.instance.exports);
}

export class BlurKit {
  #e;
  #pixels = { pointer: 0, bytes: 0 };
  #words = 0;
  #hash = 0;
  #size = 0;

  constructor(exports) {
    this.#e = exports;
    this.#words = exports.bk_alloc(1024);
    this.#hash = exports.bk_alloc(32);
    this.#size = exports.bk_alloc(8);
  }

  /// The Gaussian blur: `sigma` in pixels (0…2000), `edges` 'clamp' (default) or 'transparent'.
  blur(image, { sigma, edges = 'clamp' } = {}) {
    if (sigma === undefined) throw new Error('sigma: required (pixels, 0…2000)');
    return this.#run(image, (p, w, h) => {
      const [edgesAt, edgesLength] = this.#strings(edges);
      return this.#e.bk_blur(p, w, h, number(sigma), edgesAt, edgesLength);
    });
  }

  /// The progressive blur of BlurUIKit's VariableBlurView over the whole image: `direction`
  /// ('down', 'up', 'left', 'right'), `maximumBlurRadius` and `minimumBlurRadius` in points,
  /// `dimmingAlpha` (default 0.5 light, 0.25 dark), `dimmingTint` ('background', 'none', '#RRGGBB'
  /// or '#RRGGBBAA'), `appearance` ('light', 'dark'), `scale` in pixels per point.
  progressive(image, { direction = 'down', maximumBlurRadius, minimumBlurRadius, dimmingAlpha, dimmingTint = 'background', appearance = 'light', scale } = {}) {
    return this.#run(image, (p, w, h) => {
      const [d, dl, t, tl, a, al] = this.#strings(direction, dimmingTint, appearance);
      return this.#e.bk_progressive(p, w, h, number(scale), d, dl, number(maximumBlurRadius), number(minimumBlurRadius), number(dimmingAlpha), t, tl, a, al);
    });
  }

  /// A material (UIBlurEffect style, e.g. 'systemMaterial') over `region` ({ x, y, width, height } in
  /// points; default the whole image), with `cornerRadius`, `blurEffectRadius` (default the style's),
  /// `dimmingAlpha` (default 1), `appearance` and `scale`.
  material(image, { style = 'systemMaterial', appearance = 'light', region = {}, cornerRadius, blurEffectRadius, dimmingAlpha, scale } = {}) {
    return this.#run(image, (p, w, h) => {
      const [s, sl, a, al] = this.#strings(style, appearance);
      return this.#e.bk_material(p, w, h, number(scale), s, sl, a, al, number(region.x ?? 0), number(region.y ?? 0),
        number(region.width), number(region.height), number(cornerRadius), number(blurEffectRadius), number(dimmingAlpha));
    });
  }

  /// The image's ThumbHash, as bytes.
  thumbHash(image) {
    const { width, height } = image;
    const pointer = this.#upload(image);
    const length = this.#e.bk_thumbhash(pointer, width, height, this.#hash);
    if (length <= 0) throw new Error(this.#error());
    return new Uint8Array(this.#e.memory.buffer, this.#hash, length).slice();
  }

  /// The image a ThumbHash stands for (at most 32 pixels on its longer side).
  fromThumbHash(hash) {
    const bytes = hash instanceof Uint8Array ? hash : new Uint8Array(hash);
    if (bytes.length > 1024) throw new Error('hash: longer than any ThumbHash');
    new Uint8Array(this.#e.memory.buffer, this.#words, bytes.length).set(bytes);
    const pointer = this.#e.bk_from_thumbhash(this.#words, bytes.length, this.#size);
    if (!pointer) throw new Error(this.#error());
    const [width, height] = new Int32Array(this.#e.memory.buffer, this.#size, 2);
    const data = new Uint8ClampedArray(new Uint8Array(this.#e.memory.buffer, pointer, width * height * 4));
    this.#e.bk_free(pointer);
    return imageData(data, width, height);
  }

  /// Bytes the module's memory holds now (it only grows when an image is larger than any before).
  get memoryBytes() { return this.#e.memory.buffer.byteLength; }

  #run(image, call) {
    const { width, height } = image;
    const pointer = this.#upload(image);
    if (call(pointer, width, height) !== 0) throw new Error(this.#error());
    return imageData(new Uint8ClampedArray(new Uint8Array(this.#e.memory.buffer, pointer, width * height * 4)), width, height);
  }

  /// Copies the image's pixels into the module's pixel buffer, made anew only for a new size.
  #upload({ width, height, data }) {
    if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error('image: width and height must be positive integers');
    const bytes = width * height * 4;
    if (!data || data.length !== bytes) throw new Error(`image: ${width}×${height} needs ${bytes} bytes of RGBA, got ${data ? data.length : 0}`);
    if (this.#pixels.bytes !== bytes) {
      if (this.#pixels.pointer) this.#e.bk_free(this.#pixels.pointer);
      this.#pixels = { pointer: this.#e.bk_alloc(bytes), bytes };
      if (!this.#pixels.pointer) throw new Error(`image: no memory for ${width}×${height}`);
    }
    new Uint8Array(this.#e.memory.buffer, this.#pixels.pointer, bytes).set(data);
    return this.#pixels.pointer;
  }

  /// Writes the words into the module's word buffer: [pointer, length] for each.
  #strings(...words) {
    const out = [];
    let at = this.#words;
    for (const word of words) {
      const bytes = encoder.encode(String(word));
      if (at + bytes.length > this.#words + 1024) throw new Error(`'${word}': too long`);
      new Uint8Array(this.#e.memory.buffer, at, bytes.length).set(bytes);
      out.push(at, bytes.length);
      at += bytes.length;
    }
    return out;
  }

  #error() {
    const at = this.#e.bk_error();
    const memory = new Uint8Array(this.#e.memory.buffer, at);
    return decoder.decode(memory.subarray(0, memory.indexOf(0)));
  }
}

/// A number for the module: NaN for "the table's default"; anything not a number throws.
function number(value) {
  if (value === undefined || value === null) return NaN;
  if (typeof value !== 'number' || Number.isNaN(value)) throw new Error(`${value}: not a number`);
  return value;
}

function imageData(data, width, height) {
  return typeof ImageData !== 'undefined' ? new ImageData(data, width, height) : { width, height, data };
}
