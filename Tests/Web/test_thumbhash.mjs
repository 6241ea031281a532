// The elements' ThumbHash decoder (Web/elements/thumbhash.mjs) against the engine's (the module's
// fromThumbHash): for hashes of made images and for a thousand random ones of every header (alpha
// or not, landscape or not, 1…7 luminance terms), the same size and every byte within 1 as drawn
// (premultiplied); malformed
// hashes refused by both; its size against the 4 KB a page may load for it.
//   node Tests/Web/test_thumbhash.mjs WEB_DIR
import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const web = resolve(process.argv[2] ?? 'demo-output/web');
const { load } = await import(pathToFileURL(join(web, 'blurkit.mjs')));
const { thumbHashToRGBA } = await import(pathToFileURL(join(web, 'elements', 'thumbhash.mjs')));
const kit = await load(pathToFileURL(join(web, 'blurkit.wasm')));
let failures = 0, passes = 0;
const check = (ok, message) => { if (ok) passes++; else { failures++; console.log(`FAIL ${message}`); } };

function compare(hash, label) {
  let engine, ours, engineError = '', ourError = '';
  try { engine = kit.fromThumbHash(hash); } catch (error) { engineError = error.message; }
  try { ours = thumbHashToRGBA(hash); } catch (error) { ourError = error.message; }
  if (!engine || !ours) {
    check(!engine && !ours, `${label}: the engine ${engine ? 'decodes' : `refuses (${engineError})`}, ours ${ours ? 'decodes' : `refuses (${ourError})`}`);
    return;
  }
  // Compared as drawn (premultiplied): the module hands back straight colour made from its
  // premultiplied pixels, so under alpha 0 its colour is 0 and under low alpha it is coarse.
  let worst = 0;
  const drawn = (d, i) => (i & 3) === 3 ? d[i] : Math.round(d[i] * d[i | 3] / 255);
  for (let i = 0; i < engine.data.length && engine.data.length === ours.data.length; i++) {
    worst = Math.max(worst, Math.abs(drawn(engine.data, i) - drawn(ours.data, i)));
  }
  check(engine.width === ours.width && engine.height === ours.height && engine.data.length === ours.data.length && worst <= 1,
    `${label}: ${ours.width}×${ours.height} against ${engine.width}×${engine.height}, bytes within ${worst}`);
}

// Made images: opaque and translucent, landscape, portrait and square.
let seed = 7;
const random = () => ((seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32);
for (const [w, h, translucent] of [[64, 40, false], [40, 64, false], [50, 50, true], [90, 30, true], [17, 100, false]]) {
  const data = new Uint8ClampedArray(w * h * 4);
  for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
    const i = (y * w + x) * 4;
    data[i] = 255 * x / w; data[i + 1] = 255 * y / h; data[i + 2] = 128 + 100 * Math.sin(x / 5) * Math.cos(y / 7); data[i + 3] = translucent ? 255 * random() : 255;
  }
  compare(kit.thumbHash({ width: w, height: h, data }), `the hash of a made ${w}×${h}${translucent ? ' translucent' : ''} image`);
}
// Random hashes of every header.
for (let n = 0; n < 1000; n++) {
  const bytes = Array.from({ length: 40 }, () => Math.floor(256 * random()));
  bytes[2] = (bytes[2] & 0x7f) | (n & 1 ? 0x80 : 0);
  bytes[4] = (bytes[4] & 0x7f) | (n & 2 ? 0x80 : 0);
  bytes[3] = (bytes[3] & ~7) | (1 + (n % 7));
  compare(bytes, `random hash ${n}`);
}
// Malformed: too short, no luminance terms.
compare([1, 2, 3], 'a 3-byte hash');
compare([1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], 'a hash with no luminance terms');
compare([0x21, 0x22, 0x03, 0x07, 0x00, 0, 0], 'a hash shorter than its header says');

const source = readFileSync(join(web, 'elements', 'thumbhash.mjs'));
const code = source.toString().replace(/^\s*\/\/.*$/gm, '').replace(/\n\s+/g, '\n');
console.log(`thumbhash.mjs: ${source.length} bytes, ${code.length} without comments and indentation, ${gzipSync(code).length} gzipped (target ≤ 4096)`);
check(code.length <= 4096, `the decoder without comments is ${code.length} bytes`);
console.log(`${passes}/${passes + failures} checks passed`);
process.exit(failures ? 1 : 0);
