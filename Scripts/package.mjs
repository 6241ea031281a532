// The WebAssembly module as an npm package, in WEB_DIR/package (make wasm runs it after dts.mjs):
//   node Scripts/package.mjs WEB_DIR
// package.json (its version is BlurKitVersion's, read from the Swift source), the module, its
// types and Web/package/README.md. `npm pack` in that folder makes blurkit-VERSION.tgz; nothing
// is published.
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const web = resolve(process.argv[2] ?? 'demo-output/web');
const out = join(web, 'package');
const swift = readFileSync('Sources/BlurKit/BlurKitVersion.swift', 'utf8');
const version = swift.match(/static let string = "(\d+\.\d+\.\d+[^"]*)"/)?.[1];
if (!version) throw new Error('Sources/BlurKit/BlurKitVersion.swift: no `static let string = "X.Y.Z"`');

const files = ['blurkit.mjs', 'blurkit.wasm', 'blurkit-core.wasm', 'blurkit.d.ts', 'blurkit.d.mts', 'loader.mjs', 'loader.d.ts'];
const manifest = {
  name: 'blurkit',
  version,
  description: "Apple-style blur effects and resize (the Gaussian, BlurUIKit's progressive blur, UIBlurEffect materials, Liquid Glass, the scroll-edge effect, ThumbHash) in WebAssembly, for browsers and Node",
  keywords: ['blur', 'resize', 'lanczos', 'next-image-loader', 'gaussian', 'progressive-blur', 'material', 'liquid-glass', 'scroll-edge', 'thumbhash', 'webassembly', 'image'],
  type: 'module',
  main: './blurkit.mjs',
  types: './blurkit.d.ts',
  exports: {
    '.': { types: './blurkit.d.mts', import: './blurkit.mjs', default: './blurkit.mjs' },
    './blurkit.wasm': './blurkit.wasm',
    './blurkit-core.wasm': './blurkit-core.wasm',
    './loader': { types: './loader.d.ts', import: './loader.mjs', default: './loader.mjs' },
    './elements': { types: './elements/index.d.ts', import: './elements/index.mjs', default: './elements/index.mjs' },
    './elements/thumbhash.mjs': { types: './elements/thumbhash.d.ts', import: './elements/thumbhash.mjs', default: './elements/thumbhash.mjs' },
    './elements/*': './elements/*',
    './package.json': './package.json',
  },
  files: [...files, 'elements'],
  sideEffects: ['./elements/*.mjs'],
  engines: { node: '>=18' },
};

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const file of files) copyFileSync(file.startsWith('loader.') ? join('Web', file) : join(web, file), join(out, file));
copyFileSync('Web/package/README.md', join(out, 'README.md'));
// The web components, as Scripts/elements.mjs wrote them beside the module.
mkdirSync(join(out, 'elements'), { recursive: true });
for (const file of readdirSync(join(web, 'elements'))) copyFileSync(join(web, 'elements', file), join(out, 'elements', file));
writeFileSync(join(out, 'package.json'), JSON.stringify(manifest, null, 2) + '\n');
console.log(`${out}: blurkit ${version} (cd there and npm pack for blurkit-${version}.tgz)`);
