// blurkit.wasm in Node against the native command line, byte for byte (run by `make test`):
//   node Tests/Web/test_wasm.mjs BLURKIT WEB_DIR
// BLURKIT is the native binary, WEB_DIR what `make wasm` wrote (blurkit.wasm, blurkit.mjs). Each case
// runs the same effect with the same parameters on the same fixture through both, and the bytes must
// be equal. Then: errors name their parameter, memory stops growing, ThumbHash round trips, a
// surface draws what the copying calls draw.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [blurkit, web] = process.argv.slice(2).map((p) => resolve(p));
const { load } = await import(pathToFileURL(join(web, 'blurkit.mjs')));
const kit = await load(pathToFileURL(join(web, 'blurkit.wasm')));
const work = mkdtempSync(join(tmpdir(), 'blurkit-wasm-'));
const fixtures = resolve(new URL('../Fixtures', import.meta.url).pathname);
let failures = 0, checks = 0;

function check(ok, message) {
  checks++;
  if (!ok) { failures++; console.error(`FAIL ${message}`); }
}

function readPAM(path) {
  const bytes = readFileSync(path);
  const end = bytes.indexOf('ENDHDR\n') + 7;
  const header = bytes.subarray(0, end).toString();
  const field = (k) => Number(header.match(new RegExp(`${k} (\\d+)`))[1]);
  if (field('DEPTH') !== 4) throw new Error(`${path}: depth ${field('DEPTH')}`);
  return { width: field('WIDTH'), height: field('HEIGHT'), data: new Uint8ClampedArray(bytes.subarray(end)) };
}

/// The fixture as RGBA, through the native decoder (a σ-0 blur is a copy), optionally translucent.
function fixture(name, { translucent = false, crop } = {}) {
  const out = join(work, `${name}.pam`);
  execFileSync(blurkit, ['blur', join(fixtures, name), out, '--sigma', '0']);
  let image = readPAM(out);
  if (crop) {
    const { width, height } = crop, data = new Uint8ClampedArray(width * height * 4);
    for (let y = 0; y < height; y++) data.set(image.data.subarray(y * image.width * 4, (y * image.width + width) * 4), y * width * 4);
    image = { width, height, data };
  }
  if (translucent) {
    // Straight alpha falling off to the right, fully clear in a band: premultiplication matters.
    for (let i = 0; i < image.width * image.height; i++) {
      const x = i % image.width;
      image.data[i * 4 + 3] = x < 8 ? 0 : Math.round(255 - (200 * x) / image.width);
    }
  }
  return image;
}

function writePAM(image, path) {
  const header = `P7\nWIDTH ${image.width}\nHEIGHT ${image.height}\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n`;
  const bytes = new Uint8Array(header.length + image.data.length);
  bytes.set(new TextEncoder().encode(header));
  bytes.set(image.data, header.length);
  writeFileSync(path, bytes);
}

/// Runs the native command on `image` and returns its output pixels.
function native(image, args) {
  const input = join(work, 'in.pam'), output = join(work, 'out.pam');
  writePAM(image, input);
  execFileSync(blurkit, [args[0], input, output, ...args.slice(1)]);
  return readPAM(output);
}

function same(name, got, expected) {
  let differ = 0, largest = 0;
  for (let i = 0; i < expected.data.length; i++) {
    const d = Math.abs(got.data[i] - expected.data[i]);
    if (d) differ++;
    largest = Math.max(largest, d);
  }
  check(got.width === expected.width && got.height === expected.height && differ === 0,
    `${name}: ${differ} bytes differ (largest ${largest})`);
}

const photo = fixture('chelsea.png', { crop: { width: 240, height: 180 } });
const clear = fixture('chelsea.png', { crop: { width: 240, height: 180 }, translucent: true });

for (const [image, label] of [[photo, 'opaque'], [clear, 'translucent']]) {
  for (const sigma of [0.5, 2, 7.5, 24]) {
    same(`blur σ ${sigma} ${label}`, kit.blur(image, { sigma }), native(image, ['blur', '--sigma', String(sigma)]));
  }
  same(`blur σ 3 transparent ${label}`, kit.blur(image, { sigma: 3, edges: 'transparent' }),
    native(image, ['blur', '--sigma', '3', '--edges', 'transparent']));
  for (const direction of ['down', 'up', 'left', 'right']) {
    same(`progressive ${direction} ${label}`, kit.progressive(image, { direction, maximumBlurRadius: 8, scale: 2 }),
      native(image, ['progressive', '--direction', direction, '--max-radius', '8', '--scale', '2']));
  }
  for (const [angle, start, stop] of [[0, 0, 1], [30, 0.2, 0.8], [90, 0.5, 0.5], [225, 0, 0.4], [-60, 0.1, 1]]) {
    same(`progressive at ${angle}° from ${start} to ${stop} ${label}`,
      kit.progressive(image, { angle, start, stop, maximumBlurRadius: 10, region: '10,20,200,140' }),
      native(image, ['progressive', '--angle', String(angle), '--start', String(start), '--stop', String(stop), '--max-radius', '10',
        '--region', '10,20,200,140']));
  }
  for (const areas of ['ellipse:30%,20%,40%,50%', 'rect:10,10,80,60,12:9:6;ellipse:100,40,90,90:20:30', 'rect:-50,-50,100,100:30;rect:200,150,100,100']) {
    same(`blur areas ${areas} ${label}`, kit.blurAreas(image, { areas, sigma: 8, feather: 4, scale: 2 }),
      native(image, ['blur-areas', '--areas', areas, '--sigma', '8', '--feather', '4', '--scale', '2']));
  }
  // Ten thousand areas (past the 4 KB the options once had room for), and areas as an array.
  const many = Array.from({ length: 10000 }, (_, i) => `${i % 100 * 2},${Math.floor(i / 100) * 2},3,3:${1 + i % 5}`);
  same(`ten thousand areas ${label}`, kit.blurAreas(image, { areas: many.join(';') }), native(image, ['blur-areas', '--areas', many.join(';')]));
  same(`areas as an array ${label}`, kit.blurAreas(image, { areas: ['ellipse:10,10,60,40:6:4', 'rect:80,60,50,50,9'] }),
    native(image, ['blur-areas', '--areas', 'ellipse:10,10,60,40:6:4;rect:80,60,50,50,9']));
  same(`progressive defaults dark ${label}`, kit.progressive(image, { appearance: 'dark' }),
    native(image, ['progressive', '--appearance', 'dark']));
  same(`progressive no tint ${label}`, kit.progressive(image, { maximumBlurRadius: 30, minimumBlurRadius: 2, dimmingTintColor: 'none' }),
    native(image, ['progressive', '--max-radius', '30', '--min-radius', '2', '--tint', 'none']));
  same(`material ${label}`, kit.material(image, { style: 'systemMaterial', region: { x: 20, y: 15, width: 160, height: 100 } }),
    native(image, ['material', '--style', 'systemMaterial', '--region', '20,15,160,100']));
  same(`material thick dark ${label}`,
    kit.material(image, { style: 'systemThickMaterial', appearance: 'dark', region: { x: 10, y: 10, width: 90, height: 60 }, cornerRadius: 12, scale: 2 }),
    native(image, ['material', '--style', 'systemThickMaterial', '--appearance', 'dark', '--region', '10,10,90,60', '--corner-radius', '12', '--scale', '2']));
  for (const [style, edge, appearance] of [['soft', 'top', 'light'], ['hard', 'bottom', 'dark'], ['soft', 'trailing', 'dark'], ['hard', 'leading', 'light']]) {
    same(`scroll edge ${style} ${edge} ${appearance} ${label}`, kit.scrollEdge(image, { style, edge, appearance, height: 40, scale: 2 }),
      native(image, ['scroll-edge', '--style', style, '--edge', edge, '--appearance', appearance, '--height', '40', '--scale', '2']));
  }
  for (const [variant, shape, appearance] of [['regular', 'capsule', 'light'], ['clear', 'roundedRectangle', 'dark'], ['regular', 'rect', 'dark']]) {
    same(`glass ${variant} ${shape} ${appearance} ${label}`,
      kit.glass(image, { variant, shape, appearance, region: '20,30,90,40', scale: 2, tint: '#0A84FF33', dispersion: 0.5 }),
      native(image, ['glass', '--variant', variant, '--shape', shape, '--appearance', appearance, '--region', '20,30,90,40', '--scale', '2',
        '--tint', '#0A84FF33', '--dispersion', '0.5']));
  }
}

// Resize (issue 53): a size of its own, through bk_apply; the same bytes as the command line.
for (const [image, label] of [[photo, 'opaque'], [clear, 'translucent']]) {
  for (const [options, args] of [
    [{ width: 97 }, ['--width', '97']],
    [{ width: 60, height: 60, fit: 'contain', gravity: 'south' }, ['--width', '60', '--height', '60', '--fit', 'contain', '--gravity', 'south']],
    [{ width: 50, height: 80, gravity: 'attention' }, ['--width', '50', '--height', '80', '--gravity', 'attention']],
    [{ width: 200, height: 30, fit: 'fill' }, ['--width', '200', '--height', '30', '--fit', 'fill']],
    [{ width: 300, dpr: 1.5, enlarge: true }, ['--width', '300', '--dpr', '1.5', '--enlarge']],
  ]) {
    same(`resize ${JSON.stringify(options)} ${label}`, kit.resize(image, options), native(image, ['resize', ...args]));
  }
}
// Every effect resizes first when given the resize's options: the command line's bytes.
for (const [image, label] of [[photo, 'opaque'], [clear, 'translucent']]) {
  same(`blur resized first ${label}`, kit.blur(image, { radius: 3, width: 80, height: 50, dpr: 2 }),
    native(image, ['blur', '--radius', '3', '--width', '80', '--height', '50', '--dpr', '2']));
  same(`scroll edge resized first ${label}`, kit.scrollEdge(image, { height: 20, resizeHeight: 60, width: 90, gravity: 'attention' }),
    native(image, ['scroll-edge', '--height', '20', '--resize-height', '60', '--width', '90', '--gravity', 'attention']));
  same(`material resized first ${label}`, kit.material(image, { region: '5,5,40,30', width: 70, fit: 'inside' }),
    native(image, ['material', '--region', '5,5,40,30', '--width', '70', '--fit', 'inside']));
}
{
  let message = '';
  try { kit.resize(photo, { width: 16384, height: 16384, dpr: 4, enlarge: true }); } catch (error) { message = error.message; }
  check(message.includes('larger than an image may be'), `resize past the pixel limit is refused: '${message}'`);
  // Past what one call may hold: an Error before any memory is taken, not a trap of the module.
  const one = { width: 1, height: 1, data: new Uint8ClampedArray([200, 10, 10, 255]) };
  for (const [label, run] of [['resize', () => kit.resize(one, { width: 16384, height: 16384, enlarge: true })],
    ['glass', () => kit.glass(one, { width: 16384, height: 8000, enlarge: true, fit: 'fill' })]]) {
    let refusal = '';
    try { run(); } catch (error) { refusal = `${error.constructor.name}: ${error.message}`; }
    check(refusal.startsWith('Error:') && refusal.includes('more than one call of the module may hold'), `${label} past the module's memory is refused: '${refusal}'`);
  }
  check(kit.blur(one, { sigma: 1 }).width === 1, 'the module still answers after the refusals');
  let surfaceMessage = '';
  const s = kit.surface(photo.width, photo.height);
  check(s.resize === undefined, 'a surface has no resize (it keeps its size)');
  try { s.blur({ sigma: 2, width: 20 }); } catch (error) { surfaceMessage = error.message; }
  s.close();
  check(surfaceMessage.includes('not a surface'), `an effect resizing first on a surface is refused: '${surfaceMessage}'`);
}

// What the module took differently from the command line (issue 25): aliases, case, the tint's
// words and short form, regions for progressive; each must now match the native bytes.
for (const [label, options, args] of [
  ['style thin', { style: 'thin' }, ['material', '--style', 'thin']],
  ['style regular, dark', { style: 'regular', appearance: 'DARK' }, ['material', '--style', 'regular', '--appearance', 'dark']],
  ['direction UP', { direction: 'UP' }, ['progressive', '--direction', 'up']],
  ['tint white', { dimmingTintColor: 'white' }, ['progressive', '--tint', 'white']],
  ['tint black, dark', { dimmingTintColor: 'Black', appearance: 'dark' }, ['progressive', '--tint', 'black', '--appearance', 'dark']],
  ['tint #FFF', { dimmingTintColor: '#FFF', dimmingAlpha: 0.8 }, ['progressive', '--tint', '#FFF', '--dimming', '0.8']],
  ['progressive region', { region: { x: 10, y: 20, width: 200, height: 60 }, blurMaximumRadiusInset: '25%', dimmingClearExtension: 'none' },
    ['progressive', '--region', '10,20,200,60', '--blur-inset', '25%', '--dimming-extension', 'none']],
  ['blur radius at a scale', { radius: 2, scale: 1.5 }, ['blur', '--radius', '2', '--scale', '1.5']],
]) {
  same(label, kit[args[0]](photo, options), native(photo, args));
}

// Every option of every operation the module describes: the bounds of a number are taken and the
// nearest values outside refused, with a message naming the option as JavaScript spells it.
const required = { blur: { sigma: 1 }, progressive: {}, material: {}, resize: { width: 8 } };
for (const operation of kit.operations) {
  for (const p of operation.parameters) {
    // An option with no default that the registry suggests a value for (blurAreas' areas) is given it.
    const suggested = Object.fromEntries(operation.parameters.filter((q) => q.default === undefined && q.suggested !== undefined)
      .map((q) => [q.name, q.suggested]));
    const base = { ...suggested, ...required[operation.name] };
    if (operation.name === 'blur' && p.name === 'radius') delete base.sigma;
    if (operation.name === 'blur' && p.name === 'scale') { delete base.sigma; base.radius = 1; }
    // A resize option on an effect (resizing first) goes with a size; scroll-edge's is resizeHeight.
    const resizes = kit.operations.find((o) => o.name === 'resize').parameters.map((q) => q.name);
    if (operation.name !== 'resize' && (resizes.includes(p.name) || p.name === 'resizeHeight') && !['width', 'height', 'resizeHeight'].includes(p.name)) {
      base.width = 8;
    }
    const tiny = fixture('chelsea.png', { crop: { width: 24, height: 16 } });
    if (p.kind === 'number') {
      const step = p.integer ? 1 : Math.max(Number.EPSILON * Math.abs(p.maximum), 1e-9);
      for (const value of [p.minimum, p.maximum]) {
        if (operation.name === 'blur' && p.name === 'scale' && value > 16) continue;
        let message = '';
        try { kit[operation.name](tiny, { ...base, [p.name]: value }); } catch (error) { message = error.message; }
        // σ = radius × scale may leave σ's range at the top: then the message names both.
        check(message === '' || message.includes('×'), `${operation.name} ${p.name} = ${value}: '${message}'`);
      }
      for (const value of [p.minimum - step, p.maximum + step * Math.max(1, p.maximum)]) {
        let message = '';
        try { kit[operation.name](tiny, { ...base, [p.name]: value }); } catch (error) { message = error.message; }
        check(message.startsWith(p.name + ' '), `${operation.name} ${p.name} = ${value} must be refused naming ${p.name}: '${message}'`);
      }
    }
    if (p.kind === 'choice') {
      for (const word of [...p.words, ...Object.keys(p.aliases)]) {
        let message = '';
        try { kit[operation.name](tiny, { ...base, [p.name]: word.toUpperCase() }); } catch (error) { message = error.message; }
        check(message === '', `${operation.name} ${p.name} = ${word.toUpperCase()}: '${message}'`);
      }
    }
  }
}

// The module's description is the native registry's, option for option (blurkit --describe).
const described = JSON.parse(execFileSync(blurkit, ['--describe'], { encoding: 'utf8' }));
for (const operation of kit.operations) {
  const theirs = described.find((o) => o.name === operation.name);
  check(theirs !== undefined, `--describe has no ${operation.name}`);
  for (const p of operation.parameters) {
    const q = theirs?.parameters.find((x) => x.canonical === p.canonical);
    for (const field of ['kind', 'flag', 'help', 'minimum', 'maximum', 'unit', 'integer', 'default', 'defaultText']) {
      check(q !== undefined && JSON.stringify(p[field]) === JSON.stringify(q[field]), `${operation.name}.${p.name}.${field}: module ${JSON.stringify(p[field])}, native ${JSON.stringify(q?.[field])}`);
    }
    check(JSON.stringify(p.words) === JSON.stringify(q?.words) && JSON.stringify(p.aliases) === JSON.stringify(q?.aliases), `${operation.name}.${p.name}: words`);
  }
}

// blurkit.d.ts declares every option the module describes, with its range and default.
const declarations = readFileSync(join(web, 'blurkit.d.ts'), 'utf8');
for (const operation of kit.operations) {
  const name = operation.name[0].toUpperCase() + operation.name.slice(1) + 'Options';
  const block = declarations.split(`export interface ${name} {`)[1]?.split('\n}\n')[0] ?? '';
  check(block !== '', `blurkit.d.ts: no ${name}`);
  for (const p of operation.parameters) {
    const at = Math.max(block.indexOf(`  ${p.name}?: `), block.indexOf(`  ${p.name}: `));
    const doc = block.slice(block.lastIndexOf('/**', at), at);
    check(at >= 0, `blurkit.d.ts: ${name}.${p.name} missing`);
    if (p.defaultText !== undefined) check(doc.includes(`@defaultValue ${p.defaultText}`), `blurkit.d.ts: ${name}.${p.name} default`);
    if (p.kind === 'number') check(doc.includes(`@minimum ${p.minimum}`) && doc.includes(`@maximum ${p.maximum}`), `blurkit.d.ts: ${name}.${p.name} range`);
  }
}

// An array element that is not one area is named; blurAreas' areas are required in the types.
for (const [areas, start] of [[['1,1,5,5;2,2,5,5'], "blurAreas: areas[0] must be one area"], [['1,1,5,5', ''], 'blurAreas: areas[1] must be one area'],
  [['1,1,5,5', 3], 'blurAreas: areas[1] must be one area']]) {
  let message = '';
  try { kit.blurAreas(photo, { areas }); } catch (error) { message = error.message; }
  check(message.startsWith(start), `blurAreas(${JSON.stringify(areas)}): '${message}'`);
}
check(/\n  areas: string \| string\[\];/.test(declarations) && /blurAreas\(image: Image, options: BlurAreasOptions\)/.test(declarations),
  'blurkit.d.ts: blurAreas needs its areas');

// Messages name the JavaScript option, never a command-line flag, and NaN names its option.
for (const [call, start] of [
  [() => kit.progressive(photo, { maximumBlurRadius: 1001 }), 'maximumBlurRadius must be between 0 and 1000'],
  [() => kit.progressive(photo, { dimmingAlpha: NaN }), 'dimmingAlpha expects a number'],
  [() => kit.material(photo, { region: { x: 1000, y: 0, width: 40, height: 40 } }), 'region expects a region that overlaps the 240×180-pt image'],
  [() => kit.material(photo, { region: { x: 0, y: 0, width: 0, height: 40 } }), 'region expects X,Y,W,H'],
  [() => kit.progressive(photo, { region: '-500,0,100,40' }), 'region expects a region that overlaps'],
  [() => kit.material(photo, { region: { x: 10, y: 10, width: 0.2, height: 0.2 } }),
    'region expects a region that overlaps the 240×180-pt image by a pixel at least (this one covers less than a pixel of it)'],
  [() => kit.blur(photo, { sigma: 2, radius: 3 }), 'give sigma or radius, not both'],
  [() => kit.blur(photo, { sigma: 2, scale: 3 }), 'scale goes with radius'],
  [() => kit.blur(photo, { sigmaa: 2 }), 'blur takes no parameter sigmaa'],
  // A NUL in a value would smuggle another option in; an object that is no region was "[object Object]".
  [() => kit.glass(photo, { tint: 'white\0variant\0identity' }), 'glass: tint holds a control character ("white\\u0000variant\\u0000identity")'],
  [() => kit.glass(photo, { ['variant\nx']: 'clear' }), 'glass: the option name "variant\\nx" holds a control character'],
  // A colour object or number was read as a region's or as hex digits; null as the text "null".
  [() => kit.glass(photo, { tint: { red: 1, green: 0, blue: 0 } }), 'glass: tint must be a colour as a string'],
  [() => kit.glass(photo, { tint: 0xff0000 }), 'glass: tint must be a colour as a string (\'#RRGGBB\', \'#RRGGBBAA\', \'white\', …), got 16711680'],
  [() => kit.glass(photo, { region: null }), 'glass: region must be given a value or left out, got null'],
  [() => kit.glass(photo, { scale: {} }), 'glass: scale must be a number, a string or a boolean; got {}'],
  [() => kit.glass(null), 'glass: image must be an ImageData'],
  // A region past the coordinates' range was "positive width and height" with no word of the range.
  [() => kit.glass(photo, { region: '0,0,1e9,1e9' }), 'region expects X,Y,W,H in points with a positive width and height, each number from -1000000 to 1000000'],
  [() => kit.glass(photo, { region: { x: 0, y: 0, w: 40, h: 40 } }), 'glass: region must be a region { x, y, width, height } of numbers (points), or \'X,Y,W,H\'; got {"x":0,"y":0,"w":40,"h":40}'],
]) {
  let message = '';
  try { call(); } catch (error) { message = error.message; }
  check(message.startsWith(start), `expected '${start}…', got '${message}'`);
}

// ThumbHash of an image under 100 px (no shrinking on either side), against the manifest's.
const small = fixture('chelsea.png', { crop: { width: 96, height: 64 } });
writePAM(small, join(work, 'small.pam'));
// --size 96: the preview is the image itself, so its BlurHash is the image's.
execFileSync(blurkit, ['placeholder', join(work, 'small.pam'), '--out', join(work, 'previews'), '--quiet', '--size', '96']);
const manifest = JSON.parse(readFileSync(join(work, 'previews', 'manifest.json'), 'utf8'));
const entry = (manifest.images ?? manifest.entries ?? manifest)[0] ?? Object.values(manifest)[0];
const expectedHash = entry.thumbHash ?? entry.thumbhash;
const hash = kit.thumbHash(small);
check(Buffer.from(hash).toString('base64') === expectedHash, `thumbHash: ${Buffer.from(hash).toString('base64')} against ${expectedHash}`);
// BlurHash of the same image, against the manifest's (the command line's encoder), and other components.
check(kit.blurHash(small) === entry.blurHash, `blurHash: ${kit.blurHash(small)} against ${entry.blurHash}`);
check(kit.blurHash(small, { x: 9, y: 9 }).length === 4 + 2 * 81, 'blurHash 9×9: 166 characters');
const flat = kit.fromBlurHash(kit.blurHash(small, { x: 1, y: 1 }), 5, 3);
check(flat.width === 5 && flat.height === 3 && flat.data[3] === 255 && flat.data[0] === flat.data[56], 'fromBlurHash of a 1×1 hash: one opaque colour');
const back = kit.fromThumbHash(hash);
// The hash keeps the aspect ratio only roughly (3:2 comes back as 32 × 21…23).
check(back.width === 32 && Math.abs(back.width / back.height - 1.5) < 0.15 && back.data.length === back.width * back.height * 4,
  `fromThumbHash: ${back.width}×${back.height}`);

// Errors name the parameter, as the command line's do.
for (const [call, parameter] of [
  [() => kit.blur(photo, { sigma: -1 }), 'sigma'],
  [() => kit.blur(photo, { sigma: 2, edges: 'mirror' }), 'edges'],
  [() => kit.progressive(photo, { direction: 'sideways' }), 'direction'],
  [() => kit.progressive(photo, { maximumBlurRadius: 5000 }), 'max'],
  [() => kit.material(photo, { style: 'glass' }), 'style'],
  [() => kit.fromThumbHash([1, 2]), 'hash'],
  [() => kit.blurHash(small, { x: 0 }), 'blurhash'],
  [() => kit.fromBlurHash('L~E.-^G1b2', 4, 4), 'blurhash'],
  [() => kit.fromBlurHash('L~E.-^G1b2t9r4R;fSjJe;f7fQf7', 0, 4), 'blurhash'],
  [() => kit.blur({ width: 2, height: 2, data: new Uint8Array(3) }, { sigma: 1 }), 'image'],
]) {
  let message = '';
  try { call(); } catch (error) { message = error.message; }
  check(message.toLowerCase().includes(parameter), `error for ${parameter}: '${message}'`);
}

// Memory: after a first call at a size, more calls at that size do not grow it.
kit.progressive(photo, { maximumBlurRadius: 8 });
kit.material(photo, {});
const settled = kit.memoryBytes;
for (let i = 0; i < 20; i++) { kit.progressive(photo, { maximumBlurRadius: 8 }); kit.material(photo, {}); kit.blur(photo, { sigma: 4 }); }
check(kit.memoryBytes === settled, `memory grew from ${settled} to ${kit.memoryBytes} bytes over 60 calls`);

// A surface draws its input into its output with the copying call's bytes and leaves the input
// alone; rows moved in place (as a scrolling page moves them) are what the next call draws; its
// memory is taken once.
const surface = kit.surface(photo.width, photo.height), stride = photo.width * 4;
surface.input.data.set(photo.data);
const shifted = { width: photo.width, height: photo.height, data: new Uint8ClampedArray(photo.data) };
shifted.data.copyWithin(0, 9 * stride);
const equal = (a, b) => a.length === b.length && a.every((v, i) => v === b[i]);
for (const [name, options] of [['progressive', { maximumBlurRadius: 8, scale: 2 }], ['blur', { sigma: 3 }], ['glass', {}]]) {
  check(equal(surface[name](options).data, kit[name](photo, options).data), `surface.${name}: differs from kit.${name}`);
  check(equal(surface.input.data, photo.data), `surface.${name}: changed its input`);
}
surface.input.data.copyWithin(0, 9 * stride);
const grown = kit.memoryBytes;
check(equal(surface.progressive({ scale: 3 }).data, kit.progressive(shifted, { scale: 3 }).data), 'surface: rows moved in place are not what it drew');
for (let i = 0; i < 20; i++) surface.progressive({ scale: 3 });
check(kit.memoryBytes === grown, `surface: memory grew from ${grown} to ${kit.memoryBytes} bytes over 20 calls`);
surface.close();
let closed = '';
try { surface.blur({ sigma: 1 }); } catch (error) { closed = error.message; }
check(closed === 'surface: closed', `a closed surface: '${closed}'`);
// A new surface starts transparent, as a new canvas's ImageData does: none of the pixels the closed
// one (or any call before) left in the memory it is given.
const fresh = kit.surface(photo.width, photo.height);
check(fresh.input.data.every((v) => v === 0), 'a new surface\'s input holds pixels from before');
check(fresh.output.data.every((v) => v === 0), 'a new surface\'s output holds pixels from before');
check(fresh.blur({ sigma: 2 }).data.every((v) => v === 0), 'a new surface, never written, blurs to something other than transparent');
fresh.close();

// The smaller module (blurkit-core.wasm: the blurs alone), which load({ operations }) picks for a
// page that only blurs: its operations draw the whole module's bytes; one it lacks takes the whole.
const core = await load({ operations: ['blur', 'progressive', 'blurAreas', 'scrollEdge'] });
check(JSON.stringify(core.operations.map((o) => o.name)) === JSON.stringify(['blur', 'progressive', 'blurAreas', 'scrollEdge']),
  `blurkit-core.wasm holds ${core.operations.map((o) => o.name)}`);
for (const [name, options] of [['blur', { radius: 3, scale: 2 }], ['progressive', { maximumBlurRadius: 8, direction: 'left', scale: 2 }],
  ['progressive', { region: { x: 10, y: 20, width: 100, height: 60 }, appearance: 'dark' }], ['scrollEdge', { style: 'hard', edge: 'bottom' }],
  ['progressive', { angle: 135, start: 0.1, stop: 0.6 }], ['blurAreas', { areas: 'ellipse:10,10,100,80:12:20;rect:150,100,60,60,8' }]]) {
  check(equal(core[name](photo, options).data, kit[name](photo, options).data), `blurkit-core.wasm's ${name} differs from blurkit.wasm's`);
}
const whole = await load({ operations: ['progressive', 'glass'] });
check(typeof whole.glass === 'function' && whole.operations.length === kit.operations.length, 'load({ operations }) with glass: not the whole module');
const refused = async (thunk) => { try { await thunk(); return ''; } catch (error) { return error.message; } };
let said = await refused(() => load({ operations: ['progressive', 'bogus'] }));
check(said.startsWith('load: no operation bogus'), `load({ operations: ['bogus'] }): '${said}'`);
said = await refused(() => load({ operations: 'progressive' }));
check(said.startsWith('load: operations must be an array'), `load({ operations: 'progressive' }): '${said}'`);
said = await refused(() => core.thumbHash(photo));
check(said.startsWith('thumbHash: not in this module'), `blurkit-core.wasm's thumbHash: '${said}'`);
const coreBytes = readFileSync(join(web, 'blurkit-core.wasm')).length;
console.log(`blurkit-core.wasm: ${coreBytes} bytes (blurkit.wasm: ${readFileSync(join(web, 'blurkit.wasm')).length})`);

rmSync(work, { recursive: true, force: true });
console.log(`${checks - failures}/${checks} checks passed`);
process.exit(failures ? 1 : 0);
