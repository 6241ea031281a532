// BlurKit as the image origin of a page: URLs of `blurkit serve`'s /resize route for Next.js's
// `images.loader` and for an Astro `srcset`, signed when a key is configured (server-side only:
// `BLURKIT_KEY`, hex, as `blurkit serve --key`). No dependency and no `window`: it runs in Node,
// in an edge runtime and in a browser (unsigned there: a page never holds the key).
//
//   import { blurkitLoader, blurkitURL, blurkitSrcset, configureBlurkit } from 'blurkit/loader';

const settings = { origin: undefined, key: undefined, expiresIn: undefined, format: undefined, fit: undefined };

/// Sets the origin (`https://img.example.com`), the signing key (hex), a lifetime for signed URLs
/// in seconds (`expires=`), and the defaults of `format` and `fit`; unset, they come from
/// `BLURKIT_ORIGIN` (or `NEXT_PUBLIC_BLURKIT_ORIGIN`), `BLURKIT_KEY` and `BLURKIT_EXPIRES_IN`.
export function configureBlurkit(options = {}) {
  for (const name of Object.keys(settings)) if (name in options) settings[name] = options[name];
}

function environment(name) {
  const env = globalThis.process?.env;
  return env ? env[name] : undefined;
}

function setting(name, fallback) {
  return settings[name] ?? fallback;
}

/// The URL of `src` (a path under the server's root) resized to `width` (and `height`, `fit`,
/// `dpr`, `gravity`, `format`, `quality` when given): `${origin}/resize/${src}?width=…`, signed when
/// a key is set. Throws on a width that is not a whole number of 1…16384.
export function blurkitURL({ src, width, height, quality, fit, dpr, gravity, format, enlarge }, options = {}) {
  if (typeof src !== 'string' || src.length === 0) throw new Error('blurkit: src must be a path under the server root');
  for (const [name, value] of [['width', width], ['height', height]]) {
    if (value !== undefined && !(Number.isInteger(value) && value >= 1 && value <= 16384)) {
      throw new Error(`blurkit: ${name} must be a whole number of pixels from 1 to 16384, got ${value}`);
    }
  }
  if (width === undefined && height === undefined) throw new Error('blurkit: width or height is needed');
  const origin = (options.origin ?? setting('origin', environment('BLURKIT_ORIGIN') ?? environment('NEXT_PUBLIC_BLURKIT_ORIGIN') ?? '')).replace(/\/+$/, '');
  const path = '/resize/' + src.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
  const query = [];
  const add = (name, value) => { if (value !== undefined && value !== null) query.push(`${name}=${encodeURIComponent(String(value))}`); };
  add('width', width);
  add('height', height);
  add('fit', fit ?? setting('fit'));
  add('dpr', dpr);
  add('gravity', gravity);
  if (enlarge) add('enlarge', 1);
  add('format', format ?? setting('format'));
  add('quality', quality);
  const key = options.key ?? setting('key', environment('BLURKIT_KEY'));
  const lifetime = options.expiresIn ?? setting('expiresIn', environment('BLURKIT_EXPIRES_IN') && Number(environment('BLURKIT_EXPIRES_IN')));
  if (key && lifetime) add('expires', Math.floor((options.now ?? Date.now()) / 1000) + Math.ceil(lifetime));
  let target = path + '?' + query.join('&');
  if (key) target += '&sig=' + hmacSHA256Hex(key, target);
  return origin + target;
}

/// Next.js's custom loader (`images: { loader: 'custom', loaderFile: './blurkit-loader.js' }`, whose
/// default export calls this): the URL of `src` at `width`, at `quality` when Next.js gives one.
export function blurkitLoader({ src, width, quality }) {
  return blurkitURL({ src, width, quality });
}

/// A `srcset` of `src` at each of `widths` (`url 640w, url 1280w`), the other options as
/// `blurkitURL` takes them: for Astro's `<img srcset>` or any template.
export function blurkitSrcset(src, widths, options = {}) {
  return widths.map((width) => `${blurkitURL({ ...options, src, width })} ${width}w`).join(', ');
}

// HMAC-SHA256 (RFC 2104 over FIPS 180-4), synchronous and with no dependency: the signature
// `blurkit serve --key` checks.
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be,
  0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa,
  0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85,
  0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3,
  0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f,
  0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

function sha256(bytes) {
  const length = bytes.length, total = ((length + 9 + 63) >> 6) << 6;
  const data = new Uint8Array(total);
  data.set(bytes);
  data[length] = 0x80;
  const view = new DataView(data.buffer);
  view.setUint32(total - 8, Math.floor(length / 0x20000000));
  view.setUint32(total - 4, (length << 3) >>> 0);
  const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let block = 0; block < total; block += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(block + 4 * i);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = h;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      [hh, g, f, e, d, c, b, a] = [g, f, e, (d + t1) >>> 0, c, b, a, (t1 + t2) >>> 0];
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  const out = new Uint8Array(32), outView = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) outView.setUint32(4 * i, h[i]);
  return out;
}

function hmacSHA256Hex(hexKey, text) {
  if (!/^([0-9a-fA-F]{2})+$/.test(hexKey)) throw new Error('blurkit: the key must be hex, as blurkit serve --key takes it');
  let key = new Uint8Array(hexKey.match(/../g).map((pair) => parseInt(pair, 16)));
  if (key.length > 64) key = sha256(key);
  const padded = new Uint8Array(64);
  padded.set(key);
  const message = new TextEncoder().encode(text);
  const inner = new Uint8Array(64 + message.length), outer = new Uint8Array(96);
  for (let i = 0; i < 64; i++) { inner[i] = padded[i] ^ 0x36; outer[i] = padded[i] ^ 0x5c; }
  inner.set(message, 64);
  outer.set(sha256(inner), 64);
  return Array.from(sha256(outer), (byte) => byte.toString(16).padStart(2, '0')).join('');
}
