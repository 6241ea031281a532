// The npm package's loader (Web/loader.mjs) against the real server: Next.js's custom loader, the
// Astro srcset recipe of docs/web.md, and signed and expiring URLs, each answered by a
// `blurkit serve --key` this test starts on 127.0.0.1 and stops by its PID.
//   node Tests/Web/test_loader.mjs BLURKIT WEB_DIR
import { spawn, execFileSync } from 'node:child_process';
import { createHmac, randomBytes } from 'node:crypto';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

const [blurkit, web] = process.argv.slice(2).map((p) => resolve(p));
const loader = await import(pathToFileURL(join(web, 'package', 'loader.mjs')));
const work = mkdtempSync(join(tmpdir(), 'blurkit-loader-'));
let failures = 0, passes = 0;
function check(ok, message) {
  if (ok) passes++; else failures++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${message}`);
}

// The signature is Node's own HMAC-SHA256 under the key, for targets of every length.
const key = randomBytes(32).toString('hex');
for (const n of [0, 1, 55, 56, 63, 64, 65, 119, 200]) {
  const src = 'a'.repeat(n) + '.jpg';
  const url = loader.blurkitURL({ src, width: 640, quality: 80 }, { origin: '', key });
  const [target, sig] = url.split('&sig=');
  const expected = createHmac('sha256', Buffer.from(key, 'hex')).update(target).digest('hex');
  check(sig === expected, `signature of a ${target.length}-byte target is Node's HMAC-SHA256`);
}
for (const [args, word] of [[{ src: 'a.jpg' }, 'width or height'], [{ src: 'a.jpg', width: 0 }, 'width'], [{ src: '', width: 10 }, 'src'],
  [{ src: 'a.jpg', width: 1.5 }, 'width'], [{ src: 'a.jpg', width: 20000 }, 'width']]) {
  let message = '';
  try { loader.blurkitURL(args); } catch (error) { message = error.message; }
  check(message.includes(word), `blurkitURL(${JSON.stringify(args)}) refused naming ${word}: '${message}'`);
}

// A root with one photo; the server under the key.
const root = join(work, 'root');
mkdirSync(join(root, 'trip'), { recursive: true });
execFileSync(blurkit, ['resize', resolve('Tests/Fixtures/chelsea.png'), join(root, 'trip', 'cat photo.jpg'), '--width', '1800', '--enlarge']);
const server = spawn(blurkit, ['serve', '--root', root, '--port', '0', '--key', key, '--timeout', '20'], { stdio: ['ignore', 'ignore', 'pipe'] });
const port = await new Promise((done, fail) => {
  let text = '';
  server.stderr.on('data', (chunk) => {
    text += chunk;
    const found = text.match(/listening on http:\/\/[^:]+:(\d+)\//);
    if (found) done(Number(found[1]));
  });
  server.on('exit', () => fail(new Error(`blurkit serve exited: ${text}`)));
});
const origin = `http://127.0.0.1:${port}`;

/// The width and height of a JPEG's first frame (its SOF segment).
function jpegSize(bytes) {
  let at = 2;
  while (at + 9 < bytes.length) {
    const marker = bytes[at + 1], length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (marker >= 0xc0 && marker <= 0xc3) return [(bytes[at + 7] << 8) | bytes[at + 8], (bytes[at + 5] << 8) | bytes[at + 6]];
    at += 2 + length;
  }
  return [0, 0];
}

try {
  // Next.js: the snippet of docs/web.md, as a file of its own, imported as Next.js imports it.
  writeFileSync(join(work, 'blurkit-loader.mjs'),
    `import { blurkitLoader, configureBlurkit } from ${JSON.stringify(pathToFileURL(join(web, 'package', 'loader.mjs')).href)};\n` +
    `configureBlurkit({ origin: ${JSON.stringify(origin)}, key: ${JSON.stringify(key)} });\n` +
    'export default function loader({ src, width, quality }) { return blurkitLoader({ src, width, quality }); }\n');
  const nextLoader = (await import(pathToFileURL(join(work, 'blurkit-loader.mjs')))).default;
  for (const width of [640, 1080, 1920]) {
    const url = nextLoader({ src: '/trip/cat photo.jpg', width, quality: 75 });
    const response = await fetch(url);
    const bytes = new Uint8Array(await response.arrayBuffer());
    const [w] = jpegSize(bytes);
    // 1920 is past the photo's 1800: not enlarged.
    check(response.status === 200 && w === Math.min(width, 1800) && response.headers.get('content-type') === 'image/jpeg',
      `Next.js loader at ${width}: ${response.status}, ${w} px wide (${url.replace(origin, '')})`);
  }
  // Astro: a srcset of three widths, each URL answered at its width.
  loader.configureBlurkit({ origin, key, format: 'webp' });
  const srcset = loader.blurkitSrcset('trip/cat photo.jpg', [320, 640, 960], { quality: 70 });
  const entries = srcset.split(', ').map((entry) => entry.split(' '));
  check(entries.length === 3 && entries.every(([, w], i) => w === `${[320, 640, 960][i]}w`), `srcset: ${entries.length} entries`);
  for (const [url] of entries) {
    const response = await fetch(url);
    await response.arrayBuffer();
    check(response.status === 200 && response.headers.get('content-type') === 'image/webp', `srcset entry ${url.replace(origin, '').slice(0, 60)}…: ${response.status}`);
  }
  // The manifest of `blurkit placeholder --widths`, under the same environment: the loader's URLs,
  // each answered (a width past the image's own stands as its own); `/placeholder?widths=` signs
  // with the server's key.
  loader.configureBlurkit({ format: undefined });
  const manifestDir = join(work, 'manifest');
  execFileSync(blurkit, ['placeholder', root, '--out', manifestDir, '--widths', '320,2400,640', '--quiet'],
    { env: { ...process.env, BLURKIT_KEY: key, BLURKIT_ORIGIN: origin + '/' } });
  const manifest = JSON.parse((await import('node:fs')).readFileSync(join(manifestDir, 'manifest.json'), 'utf8'));
  const entry = manifest.images.find((e) => e.file === 'trip/cat photo.jpg');
  const widths = entry?.variants?.map((v) => v.width) ?? [];
  check(JSON.stringify(widths) === JSON.stringify([320, 640, 1800]), `manifest variants' widths: ${JSON.stringify(widths)}`);
  for (const v of entry?.variants ?? []) {
    const expected = loader.blurkitURL({ src: entry.file, width: v.width }, { origin, key, expiresIn: 0 });
    check(v.url === expected, `manifest URL at ${v.width} is the loader's: ${v.url} ${expected}`);
    const response = await fetch(v.url);
    const [w] = jpegSize(new Uint8Array(await response.arrayBuffer()));
    check(response.status === 200 && w === v.width, `manifest URL at ${v.width}: ${response.status}, ${w} wide`);
  }
  check(entry?.srcset === entry?.variants?.map((v) => `${v.url} ${v.width}w`).join(', '), 'manifest srcset lists the variants');
  const placeholderTarget = '/placeholder/trip/cat%20photo.jpg?widths=100';
  const served = await fetch(origin + placeholderTarget + '&sig=' + createHmac('sha256', Buffer.from(key, 'hex')).update(placeholderTarget).digest('hex'));
  const json = served.status === 200 ? await served.json() : {};
  check(json.variants?.[0]?.url === loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 100 }, { origin: '', key, expiresIn: 0 }),
    `/placeholder?widths=100: ${served.status} ${JSON.stringify(json.variants)}`);

  // enlarge: the URL asks for it, and the answer is as wide as asked, past the image's own width.
  const enlarged = await fetch(loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 2000, enlarge: true }, { origin, key }));
  const [enlargedWidth] = jpegSize(new Uint8Array(await enlarged.arrayBuffer()));
  check(enlarged.status === 200 && enlargedWidth === 2000, `enlarge: ${enlarged.status}, ${enlargedWidth} wide (${enlarged.url})`);

  // Unsigned, tampered and expired URLs are refused; a lifetime in the future is answered.
  const unsigned = await fetch(loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 100 }, { key: '' }));
  check(unsigned.status === 403, `unsigned URL: ${unsigned.status}`);
  const tampered = await fetch(loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 100 }).replace('width=100', 'width=101'));
  check(tampered.status === 403, `tampered URL: ${tampered.status}`);
  const expired = await fetch(loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 100 }, { expiresIn: 60, now: Date.now() - 3600e3 }));
  check(expired.status === 403, `URL that expired an hour ago: ${expired.status}`);
  const living = await fetch(loader.blurkitURL({ src: 'trip/cat photo.jpg', width: 100 }, { expiresIn: 600 }));
  await living.arrayBuffer();
  check(living.status === 200 && !/immutable/.test(living.headers.get('cache-control') ?? ''), `URL with 600 s to live: ${living.status}, ${living.headers.get('cache-control')}`);
} finally {
  server.kill('SIGTERM');
  await new Promise((done) => server.once('exit', done));
  rmSync(work, { recursive: true, force: true });
}
console.log(`${passes}/${passes + failures} checks passed`);
process.exit(failures ? 1 : 0);
