// BlurKit in the browser (and in Node): the engine's own kernels compiled to WebAssembly. An ES
// module with no dependencies; blurkit.wasm sits beside it. Types: blurkit.d.ts.
//
//   import { load } from './blurkit.mjs';
//   const blurkit = await load();
//   const out = blurkit.progressive(ctx.getImageData(0, 0, w, h), { maximumBlurRadius: 3.5, scale: 3 });
//   ctx.putImageData(out, 0, 0);
//
// Images are canvas ImageData (straight-alpha RGBA bytes) or any { width, height, data }; each call
// returns a new one (an ImageData in a browser, a plain object of that shape in Node) and leaves
// its argument alone. An image drawn again and again (a header redrawn every frame) can instead
// live in the module's memory, in a surface (`blurkit.surface(width, height)`): the caller changes
// only the input's rows that moved, and each call draws into the surface's output without a copy
// in or out. Options are the library's parameters, read by
// the library's own parsers inside the module: the same names, defaults, ranges, aliases and case
// rules as the command line, the HTTP service and scene files, and errors that name the option.
// `blurkit.operations` lists them (what blurkit.d.ts and the demo page's controls are made from).
// An option left out (or undefined) takes its default. The module's memory is allocated once per
// image size and reused: nothing grows from call to call.

// The operations of each module, as their descriptions list them: written here by Scripts/wasm.sh
// from the two modules it builds (so that load({ operations }) fetches only the module it needs).
const OPERATIONS = [];
const CORE_OPERATIONS = [];

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/// Instantiates blurkit.wasm: from a URL (default: beside this module; a `file:` URL in Node), or
/// anything with `arrayBuffer()` (a Response, a Blob), or its bytes. Or, given `{ operations }`
/// (names, e.g. ['blur', 'progressive']), the smaller module beside this one, blurkit-core.wasm (the
/// Gaussian, the progressive blur and the scroll edge, without the resize or the placeholders) when
/// it holds them all, else the whole one: a page that only blurs loads the blurs alone.
export async function load(source = new URL('./blurkit.wasm', import.meta.url)) {
  if (source && typeof source === 'object' && 'operations' in source) {
    const { operations } = source;
    if (!Array.isArray(operations) || !operations.every((name) => typeof name === 'string')) {
      throw new Error(`load: operations must be an array of operation names, e.g. ['progressive'], got ${JSON.stringify(operations)}`);
    }
    const unknown = operations.filter((name) => !OPERATIONS.includes(name));
    if (unknown.length) throw new Error(`load: no operation ${unknown.join(', ')}; the operations are ${OPERATIONS.join(', ')}`);
    return operations.every((name) => CORE_OPERATIONS.includes(name)) ? load(new URL('./blurkit-core.wasm', import.meta.url)) : load();
  }
  let bytes;
  if (source instanceof ArrayBuffer || ArrayBuffer.isView(source)) {
    bytes = source;
  } else if (typeof source?.arrayBuffer === 'function') {
    bytes = await source.arrayBuffer();
  } else if (typeof process !== 'undefined' && process.versions?.node && String(source).startsWith('file:')) {
    const { readFile } = await import('node:fs/promises');
    bytes = await readFile(new URL(String(source)));
  } else {
    bytes = await (await fetch(String(source))).arrayBuffer();
  }
  const { exports } = (await WebAssembly.instantiate(bytes, {})).instance;
  // The operations as the module describes them: the registry's JSON, gzipped into it at build time.
  const description = new Uint8Array(exports.memory.buffer, exports.bk_describe(), exports.bk_describe_length());
  const json = new Blob([description]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new BlurKit(exports, JSON.parse(await new Response(json).text()));
}

/// The most bytes of options one call takes (its name included).
const MOST_OPTION_BYTES = 4 << 20;

export class BlurKit {
  #e;
  #pixels = { pointer: 0, bytes: 0 };
  #words = 0;
  #wordBytes = 4096;
  #hash = 0;
  #blurHash = 0;
  #size = 0;
  /// The operations and their options, as the module describes them (blurkit.d.ts's source).
  operations;

  constructor(module, operations) {
    // Addresses past 2 GiB come back from WebAssembly as negative i32s: read every address unsigned.
    const exports = { ...module };
    for (const name of ['bk_alloc', 'bk_apply', 'bk_from_blurhash', 'bk_from_thumbhash', 'bk_describe', 'bk_error']) {
      if (typeof module[name] === 'function') exports[name] = (...args) => module[name](...args) >>> 0;
    }
    this.#e = exports;
    this.#words = exports.bk_alloc(4096);
    this.#hash = exports.bk_alloc(32);
    this.#blurHash = exports.bk_alloc(192);
    this.#size = exports.bk_alloc(8);
    this.operations = operations;
    // One method per operation the module describes (blur, progressive, material, …): no effect is
    // named here. A region is { x, y, width, height } in points, or 'X,Y,W,H'.
    for (const { name } of this.operations) {
      Object.defineProperty(this, name, { value: (image, options = {}) => this.#apply(name, image, options), enumerable: false });
    }
  }

  /// The image's ThumbHash, as bytes.
  thumbHash(image) {
    this.#holds('bk_thumbhash', 'thumbHash');
    const { width, height } = image;
    const pointer = this.#upload(image);
    const length = this.#e.bk_thumbhash(pointer, width, height, this.#hash);
    if (length <= 0) throw new Error(this.#error());
    return new Uint8Array(this.#e.memory.buffer, this.#hash, length).slice();
  }

  /// The image's BlurHash with `x` × `y` components (1…9 each; 4 × 3 by default), as Wolt's encoder
  /// gives it for the same pixels.
  blurHash(image, { x = 4, y = 3 } = {}) {
    this.#holds('bk_blurhash', 'blurHash');
    const { width, height } = image;
    const pointer = this.#upload(image);
    const length = this.#e.bk_blurhash(pointer, width, height, x, y, this.#blurHash);
    if (length <= 0) throw new Error(this.#error());
    return new TextDecoder().decode(new Uint8Array(this.#e.memory.buffer, this.#blurHash, length));
  }

  /// The image a BlurHash stands for, `width` × `height` (1…4096 each), opaque.
  fromBlurHash(hash, width, height) {
    this.#holds('bk_from_blurhash', 'fromBlurHash');
    const bytes = new TextEncoder().encode(String(hash));
    if (bytes.length > 200) throw new Error('blurHash: longer than any BlurHash');
    new Uint8Array(this.#e.memory.buffer, this.#words, bytes.length).set(bytes);
    const pointer = this.#e.bk_from_blurhash(this.#words, bytes.length, width, height);
    if (!pointer) throw new Error(this.#error());
    const data = new Uint8ClampedArray(new Uint8Array(this.#e.memory.buffer, pointer, width * height * 4));
    this.#e.bk_free(pointer);
    return imageData(data, width, height);
  }

  /// The image a ThumbHash stands for (at most 32 pixels on its longer side).
  fromThumbHash(hash) {
    this.#holds('bk_from_thumbhash', 'fromThumbHash');
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

  /// Two images of `width × height` in the module's memory, for an effect drawn again and again:
  /// the caller writes `input` (an ImageData over the module's memory) in place, and each operation
  /// (`surface.progressive(options)`, …) draws it into `output`, another such ImageData, leaving
  /// `input` alone. Both start transparent (zeros), as a new canvas's ImageData does. The two views
  /// are made again when the module's memory grows (which empties the old ones): read `input` and
  /// `output` after each call instead of keeping them. `close()` frees the memory; the surface is
  /// unusable after it.
  surface(width, height) {
    const bytes = size(width, height), e = this.#e;
    const input = e.bk_alloc(bytes), output = input && e.bk_alloc(bytes);
    if (!output) {
      if (input) e.bk_free(input);
      throw new Error(`image: no memory for ${width}×${height}`);
    }
    // The allocator hands back memory earlier calls used: nothing of theirs may show through.
    new Uint8Array(e.memory.buffer, input, bytes).fill(0);
    new Uint8Array(e.memory.buffer, output, bytes).fill(0);
    let views = null, open = true;
    const images = () => {
      if (!open) throw new Error('surface: closed');
      const buffer = e.memory.buffer;
      if (views?.buffer !== buffer) {
        const view = (pointer) => imageData(new Uint8ClampedArray(buffer, pointer, bytes), width, height);
        views = { buffer, input: view(input), output: view(output) };
      }
      return views;
    };
    const surface = {
      width, height,
      get input() { return images().input; },
      get output() { return images().output; },
      close() { if (open) { open = false; views = null; e.bk_free(input); e.bk_free(output); } },
    };
    // A surface keeps its size: an operation that only resizes is not one of its methods.
    for (const { name, parameters } of this.operations) {
      if (parameters.length > 0 && parameters.every((p) => p.resizes)) continue;
      Object.defineProperty(surface, name, { value: (options = {}) => {
        images();
        this.#run(this.#encode(name, options), input, output, width, height);
        return images().output;
      }, enumerable: false });
    }
    return surface;
  }

  /// Runs `name` over a copy of the image in the module's pixel buffer, in place, and copies it out.
  #apply(name, image, options) {
    const encoded = this.#encode(name, options);
    if (image === null || typeof image !== 'object') throw new Error(`${name}: image must be an ImageData or { width, height, data }`);
    const { width, height } = image;
    const pointer = this.#upload(image);
    const memory = new Uint8Array(this.#e.memory.buffer);
    memory.set(encoded.nameBytes, this.#words);
    memory.set(encoded.bytes, this.#words + encoded.nameBytes.length);
    const result = this.#e.bk_apply(this.#words, encoded.nameBytes.length, this.#words + encoded.nameBytes.length, encoded.bytes.length,
      pointer, width, height, this.#size);
    if (!result) throw new Error(this.#error());
    const [outWidth, outHeight] = new Int32Array(this.#e.memory.buffer, this.#size, 2);
    const data = new Uint8ClampedArray(new Uint8Array(this.#e.memory.buffer, result, outWidth * outHeight * 4));
    this.#e.bk_free(result);
    return imageData(data, outWidth, outHeight);
  }

  /// `options` written as the module reads them: `name NUL value NUL …`, checked.
  #encode(name, options) {
    if (options === null || typeof options !== 'object') throw new Error(`${name}: options must be an object`);
    const kinds = new Map(this.operations.find((o) => o.name === name).parameters.map((p) => [p.name, p.kind]));
    const words = [];
    for (const [key, value] of Object.entries(options)) {
      if (value === undefined) continue;
      // A NUL inside a word would start another option (`tint: 'white\0variant\0clear'`).
      if (/[\u0000-\u001f\u007f]/.test(key)) throw new Error(`${name}: the option name ${JSON.stringify(key)} holds a control character`);
      const given = text(name, key, kinds.get(key), value);
      if (/[\u0000-\u001f\u007f]/.test(given)) throw new Error(`${name}: ${key} holds a control character (${JSON.stringify(given)})`);
      words.push(key, given);
    }
    const bytes = encoder.encode(words.map((w) => w + '\0').join(''));
    const nameBytes = encoder.encode(name);
    const needed = nameBytes.length + bytes.length;
    if (needed > MOST_OPTION_BYTES) throw new Error(`${name}: the options are ${needed} bytes; at most ${MOST_OPTION_BYTES} are taken`);
    // The module's buffer for the options grows to what they need (ten thousand areas are a few hundred KB).
    if (needed > this.#wordBytes) {
      const bigger = this.#e.bk_alloc(needed);
      if (!bigger) throw new Error(`${name}: no memory for ${needed} bytes of options`);
      this.#e.bk_free(this.#words);
      this.#words = bigger;
      this.#wordBytes = needed;
    }
    return { nameBytes, bytes };
  }

  /// Runs an operation with its encoded options from the pixels at `source` into those at `target`.
  #run({ nameBytes, bytes }, source, target, width, height) {
    const memory = new Uint8Array(this.#e.memory.buffer);
    memory.set(nameBytes, this.#words);
    memory.set(bytes, this.#words + nameBytes.length);
    const status = this.#e.bk_run(this.#words, nameBytes.length, this.#words + nameBytes.length, bytes.length, source, target, width, height);
    if (status !== 0) throw new Error(this.#error());
  }

  /// Copies the image's pixels into the module's pixel buffer, made anew only for a new size.
  #upload({ width, height, data }) {
    const bytes = size(width, height);
    if (!data || data.length !== bytes) throw new Error(`image: ${width}×${height} needs ${bytes} bytes of RGBA, got ${data ? data.length : 0}`);
    if (this.#pixels.bytes !== bytes) {
      if (this.#pixels.pointer) this.#e.bk_free(this.#pixels.pointer);
      this.#pixels = { pointer: this.#e.bk_alloc(bytes), bytes };
      if (!this.#pixels.pointer) throw new Error(`image: no memory for ${width}×${height}`);
    }
    new Uint8Array(this.#e.memory.buffer, this.#pixels.pointer, bytes).set(data);
    return this.#pixels.pointer;
  }

  /// Throws a clear error when this module (blurkit-core.wasm) lacks the export a method needs.
  #holds(exported, method) {
    if (typeof this.#e[exported] !== 'function') throw new Error(`${method}: not in this module (blurkit-core.wasm holds the blurs alone): load() the whole one`);
  }

  #error() {
    const at = this.#e.bk_error();
    const memory = new Uint8Array(this.#e.memory.buffer, at);
    return decoder.decode(memory.subarray(0, memory.indexOf(0)));
  }
}

/// An option's value as the module's parsers read it: numbers in JavaScript's own shortest form
/// (which the module reads back exactly), a region object `{ x, y, width, height }` (x and y 0 when
/// left out) or an array [x, y, width, height] as X,Y,W,H, anything else as its text. A colour is a string (`'#0A84FF'`, `'white'`):
/// a number would be read as hex digits. Objects other than a region's, and null, are refused here,
/// naming the option (an unknown option is the module's to name).
function text(name, key, kind, value) {
  const shown = () => { try { return JSON.stringify(value) ?? String(value); } catch { return String(value); } };
  if (value === null) throw new Error(`${name}: ${key} must be given a value or left out, got null`);
  if (kind === 'color' && typeof value !== 'string') {
    throw new Error(`${name}: ${key} must be a colour as a string ('#RRGGBB', '#RRGGBBAA', 'white', …), got ${shown()}`);
  }
  if (kind === 'region' && Array.isArray(value) && value.length === 4 && value.every((f) => typeof f === 'number')) return value.join(',');
  // Areas as an array, one area a string (as a scene gives them): joined as the command line writes them.
  if (kind === 'areas' && Array.isArray(value)) {
    const bad = value.findIndex((a) => typeof a !== 'string' || a.trim() === '' || a.includes(';'));
    if (bad >= 0) throw new Error(`${name}: ${key}[${bad}] must be one area as a string (no ';'), got ${JSON.stringify(value[bad]) ?? String(value[bad])}`);
    return value.join(';');
  }
  if (typeof value === 'object') {
    const fields = [value.x ?? 0, value.y ?? 0, value.width, value.height];
    if (kind !== 'region' || Array.isArray(value) || !fields.every((f) => typeof f === 'number')) {
      const wanted = kind === 'region' ? "a region { x, y, width, height } of numbers (points), or 'X,Y,W,H'" : 'a number, a string or a boolean';
      throw new Error(`${name}: ${key} must be ${wanted}; got ${shown()}`);
    }
    return fields.map(String).join(',');
  }
  return String(value);
}

/// The bytes of a `width × height` RGBA image, or an error if either is not a positive integer.
function size(width, height) {
  if (!Number.isInteger(width) || !Number.isInteger(height) || width < 1 || height < 1) throw new Error('image: width and height must be positive integers');
  return width * height * 4;
}

/// An ImageData where there is one (a browser, a worker); elsewhere (Node) a plain object of the
/// same shape, so code typed against either reads the same fields.
function imageData(data, width, height) {
  return typeof ImageData !== 'undefined' ? new ImageData(data, width, height) : { width, height, data, colorSpace: 'srgb' };
}
