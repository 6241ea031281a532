// An operation of one's own reaches the WebAssembly module: Scripts/wasm.sh with ADD compiles the
// toy `VeilOperation` (Tests/BlurCLITests/VeilOperation.swift, which the Swift tests run through
// every native front end) beside the engine's sources, and blurkit.mjs, knowing nothing of it,
// offers `kit.veil` with its options checked as the registry declares them.
//   node Tests/Web/test_added.mjs WEB_DIR
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const web = resolve(process.argv[2] ?? 'demo-output/web');
const out = mkdtempSync(join(tmpdir(), 'blurkit-added-'));
let failures = 0, checks = 0;
function check(ok, message) {
  checks += 1;
  if (!ok) { failures += 1; console.error('FAIL ' + message); }
}
try {
  execFileSync('bash', ['Scripts/wasm.sh', out], { env: { ...process.env, ADD: 'Tests/BlurCLITests/VeilOperation.swift' }, stdio: 'inherit' });
  const { load } = await import(pathToFileURL(join(web, 'blurkit.mjs')));
  const kit = await load(pathToFileURL(join(out, 'blurkit-added.wasm')));
  const veil = kit.operations.find((o) => o.name === 'veil');
  check(veil !== undefined, `the module describes the veil: ${kit.operations.map((o) => o.name).join(', ')}`);
  check(veil && veil.parameters.map((p) => p.name).join(',') === 'strength,veilColor,region', `its options: ${veil?.parameters.map((p) => p.name)}`);
  check(kit.operations.some((o) => o.name === 'blur'), 'the engine\'s own operations are still there');

  // An opaque grey 8×6 image: premultiplied and straight are the same bytes.
  const width = 8, height = 6, data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([200, 120, 40, 255], i * 4);
  const image = { width, height, data };
  const red = kit.veil(image, { strength: 1, veilColor: '#FF0000', region: '0,0,4,6' });
  check(red.width === width && red.height === height, `its size: ${red.width}×${red.height}`);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const got = Array.from(red.data.slice((y * width + x) * 4, (y * width + x) * 4 + 4)).join(',');
      const wanted = x < 4 ? '255,0,0,255' : '200,120,40,255';
      if (got !== wanted) { check(false, `veil at ${x},${y}: ${got}, wanted ${wanted}`); y = height; break; }
    }
  }
  // Its default (half strength, black) over the whole image: each channel halved, rounded.
  const half = kit.veil(image, {});
  check(Array.from(half.data.slice(0, 4)).join(',') === '100,60,20,255', `the defaults: ${Array.from(half.data.slice(0, 4))}`);
  // Its options are checked by the registry's table, as every front end checks them.
  let message = '';
  try { kit.veil(image, { strength: 2 }); } catch (error) { message = error.message; }
  check(/strength/.test(message) && /0…1|0\.\.\.1|between 0 and 1/.test(message), `a strength out of range is refused: ${message}`);
  try { kit.veil(image, { opacity: 1 }); message = ''; } catch (error) { message = error.message; }
  check(/opacity/.test(message), `an unknown option is refused: ${message}`);
} finally {
  rmSync(out, { recursive: true, force: true });
}
console.log(`${checks - failures}/${checks} checks passed`);
if (failures) process.exit(1);
