// The Next.js and Astro snippets of docs/web.md that put <blur-up-image> on a page from the manifest
// `blurkit placeholder` writes, rendered here to HTML as their frameworks would on a server: the
// Next.js component's JSX compiled by TypeScript (the Debian package) to calls of a small renderer of
// React's rules (attributes as given, `className` as `class`, children escaped); the Astro component
// by its own rules (the frontmatter run with `Astro.props`, `{expression}` attributes and text). The
// markup must carry the manifest's `preview` (the WebP data URL, else the PNG's), `thumbhash`, `src`,
// `label`, and `width` and `height` (the element's aspect ratio), with an <img> inside for pages where
// scripts do not run.
//
//   node Tests/Web/test_snippets.mjs BLURKIT      (the release binary, to write the manifest)
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const blurkit = process.argv[2] ?? '.build/release/blurkit';
const require = createRequire(import.meta.url);
let ts;
try {
  ts = require('/usr/share/nodejs/typescript');
} catch {
  ts = require('typescript');
}
let failures = 0;
const check = (ok, what) => {
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${what}`);
  if (!ok) failures += 1;
};

/// The fenced block that follows `<!-- snippet: NAME -->` in docs/web.md.
function snippet(name) {
  const docs = readFileSync('docs/web.md', 'utf8');
  const at = docs.indexOf(`<!-- snippet: ${name} -->`);
  if (at < 0) throw new Error(`docs/web.md has no snippet ${name}`);
  const open = docs.indexOf('```', at), start = docs.indexOf('\n', open) + 1;
  return docs.slice(start, docs.indexOf('\n```', start));
}

const escape = (text) => String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const voids = new Set(['img', 'br', 'hr', 'input', 'meta', 'link', 'source']);

/// React's server rendering, as far as the snippet needs: an element's attributes in order (absent,
/// false or null ones left out, `className` as `class`), its children (text escaped, arrays flattened).
function h(type, props, ...children) {
  if (typeof type === 'function') return type({ ...props, children });
  const attributes = Object.entries(props ?? {})
    .filter(([name, value]) => name !== 'children' && name !== 'key' && value !== undefined && value !== null && value !== false)
    .map(([name, value]) => ` ${name === 'className' ? 'class' : name}${value === true ? '' : `="${escape(value)}"`}`).join('');
  const inner = children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false)
    .map((c) => (typeof c === 'object' && c.html !== undefined ? c.html : escape(c))).join('');
  return { html: `<${type}${attributes}>${voids.has(type) ? '' : `${inner}</${type}>`}` };
}

/// Astro's rendering of a component, as far as the snippet needs: the frontmatter run as a module
/// body with `Astro.props` and its imports given, then each `{expression}` of the template evaluated
/// in its scope — an attribute's escaped (left out when null, undefined or false), text's escaped.
function renderAstro(source, imports, props) {
  const [, frontmatter, template] = /^---\n([\s\S]*?)\n---\n([\s\S]*)$/.exec(source);
  const body = frontmatter.replace(/^import\s+(\w+)\s+from\s+['"]([^'"]+)['"];?$/gm, (_, name, from) => `const ${name} = imports[${JSON.stringify(from)}];`)
    .replace(/^import\s+['"][^'"]+['"];?$/gm, '');
  const names = [...body.matchAll(/^(?:const|let)\s+(?:\{([^}]*)\}|(\w+))\s*=/gm)].flatMap((m) => (m[1] ? m[1].split(',').map((n) => n.trim().split(':').pop().trim()) : [m[2]]));
  const scope = new Function('imports', 'Astro', `${body}\nreturn { ${names.join(', ')} };`)(imports, { props });
  const evaluate = (expression) => new Function(...Object.keys(scope), `return (${expression});`)(...Object.values(scope));
  return template
    .replace(/<script>[\s\S]*?<\/script>/g, '')
    .replace(/\s([\w-]+)=\{((?:[^{}]|\{[^{}]*\})*)\}/g, (_, name, expression) => {
      const value = evaluate(expression);
      return value === null || value === undefined || value === false ? '' : ` ${name}="${escape(value)}"`;
    })
    .replace(/\{((?:[^{}]|\{[^{}]*\})*)\}/g, (_, expression) => escape(evaluate(expression)));
}

/// The attributes of the first `<tag …>` in `html`.
function attributesOf(html, tag) {
  const open = new RegExp(`<${tag}\\b([^>]*)>`).exec(html);
  if (!open) return null;
  return Object.fromEntries([...open[1].matchAll(/([\w-]+)(?:="([^"]*)")?/g)].map(([, name, value]) => [name, (value ?? '').replace(/&quot;/g, '"').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&')]));
}

const work = mkdtempSync(join(tmpdir(), 'blurkit-snippets-'));
try {
  execFileSync(blurkit, ['placeholder', 'Tests/Fixtures', '--out', join(work, 'previews'), '--quiet']);
  const manifest = JSON.parse(readFileSync(join(work, 'previews', 'manifest.json'), 'utf8'));
  const entry = manifest.images.find((e) => e.file === 'chelsea.png');
  check(entry !== undefined, `the manifest lists chelsea.png (${manifest.images.length} images)`);
  const expected = {
    src: '/photos/chelsea.png', preview: entry.webpDataURI ?? entry.preview.dataURI, thumbhash: entry.thumbHash, label: 'A cat',
    width: String(entry.width), height: String(entry.height),
  };

  // Next.js: the component's JSX compiled as Next.js's compiler would, rendered on the "server".
  const jsx = snippet('next-blur-up');
  const compiled = ts.transpileModule(jsx, { compilerOptions: { jsx: ts.JsxEmit.React, jsxFactory: 'h', module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
  const body = compiled.replace(/^import\s+(\w+)\s+from\s+['"]([^'"]+)['"];?$/gm, (_, name, from) => `const ${name} = imports[${JSON.stringify(from)}];`)
    .replace(/^export default function (\w+)/m, 'return function $1');
  const component = new Function('imports', 'h', body)({ '../previews/manifest.json': manifest }, h);
  const next = component({ file: 'chelsea.png', alt: 'A cat' }).html;
  console.log(`Next.js: ${next.slice(0, 140)}…`);
  const nextAttributes = attributesOf(next, 'blur-up-image');
  for (const [name, value] of Object.entries(expected)) check(nextAttributes?.[name] === value, `Next.js: ${name} is the manifest's (${String(nextAttributes?.[name]).slice(0, 40)})`);
  check(/<blur-up-image[^>]*>\s*<img\b[^>]*alt="A cat"/.test(next), 'Next.js: an <img> inside for pages without scripts');

  // Astro: the component's frontmatter and template.
  const astro = renderAstro(snippet('astro-blur-up'), { '../previews/manifest.json': manifest }, { file: 'chelsea.png', alt: 'A cat' });
  console.log(`Astro: ${astro.trim().slice(0, 140)}…`);
  const astroAttributes = attributesOf(astro, 'blur-up-image');
  for (const [name, value] of Object.entries(expected)) check(astroAttributes?.[name] === value, `Astro: ${name} is the manifest's (${String(astroAttributes?.[name]).slice(0, 40)})`);
  check(/<blur-up-image[^>]*>\s*<img\b[^>]*alt="A cat"/.test(astro), 'Astro: an <img> inside for pages without scripts');
  check(/<script>\s*import 'blurkit\/elements';?\s*<\/script>/.test(snippet('astro-blur-up')), 'Astro: the page loads the elements');
} finally {
  rmSync(work, { recursive: true, force: true });
}
console.log(failures ? `${failures} failures` : 'ok');
process.exit(failures ? 1 : 0);
