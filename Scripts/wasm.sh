#!/usr/bin/env bash
# make wasm: blurkit.wasm from BlurCore's own sources and Web/Exports.swift (Embedded Swift,
# wasm32-unknown-none-wasm), Web/runtime.c (memory and the few C routines the compiler calls) and
# Web/describe.c (the registry's description, gzipped data) with the toolchain's clang, linked by its wasm-ld; then the ES module and the static page beside it,
# and the same module as an npm package in OUT/package (Scripts/package.mjs).
# Nothing is downloaded: everything comes with the Swift toolchain.
#
# The link leaves out the toolchain's libswiftUnicodeDataTables.a: the engine compares its words
# byte for byte (String+Bytes.swift), so a String `==`, `lowercased()` or Character walk that
# creeps onto the module's paths fails to link instead of adding the tables (about 120 KB with the
# code that reads them). OPT=-Osize makes the module about 90 KB smaller and the Gaussian blur and
# the material about 1.5× and 2× slower (Notes/wasm-size.md).
set -euo pipefail
out=${1:-demo-output/web}
SIMD=${SIMD:--Xcc -msimd128 -Xllvm -mattr=+simd128}
OPT=${OPT:--O}
bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
work=.build/wasm
mkdir -p "$work" "$out"
sources=$(find Sources/BlurCore -name '*.swift' | sort)
# The SIMD128 intrinsics (wasm_simd128.h in the toolchain's clang resource folder) as a module the
# kernels import as WasmSIMD (Sources/BlurCore/Kernels/Kernels+SIMD128.swift).
header=$(ls "$bin"/../lib/clang/*/include/wasm_simd128.h | head -n 1)
mkdir -p "$work/WasmSIMD"
printf 'module WasmSIMD [system] {\n    header "%s"\n    export *\n}\n' "$(readlink -f "$header")" > "$work/WasmSIMD/module.modulemap"
"$bin/clang" --target=wasm32 -O2 -mbulk-memory -nostdlib -ffreestanding -c Web/runtime.c -o "$work/runtime.o"
link() { "$bin/wasm-ld" --no-entry --gc-sections --strip-all -z stack-size=1048576 "$@"; }
exports=$(grep -o '@_cdecl("[a-z_]*")' Web/Exports.swift | grep -v 'bk_registry\|bk_components' | sed 's/@_cdecl("\(.*\)")/--export-if-defined=\1/')

# module NAME [SWIFT FLAGS…]: $out/NAME.wasm from the engine's sources compiled with the flags.
# The registry's description as data: a first link exports only `bk_registry` (Describe, the code
# behind blurkit --describe), Node asks it for the JSON and gzips it (19 KB → 3), and Web/describe.c
# embeds that as the module's `bk_describe`; the module itself is linked without `bk_registry`, so
# Describe's code is left out. Everything blurkit.mjs and blurkit.d.ts know still comes from the
# registry, at build time.
module() {
    local name=$1 dir="$work/$1"
    shift
    mkdir -p "$dir"
    "$bin/swiftc" -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo $OPT -parse-as-library \
        -package-name BlurKit -module-name BlurKitWasm -Xfrontend -disable-stack-protector -suppress-warnings $SIMD -Xllvm -mattr=+bulk-memory \
        -I "$work/WasmSIMD" "$@" $sources Web/Exports.swift -c -o "$dir/blurkit.o"
    link --export=bk_registry --export=bk_components --export=bk_error "$dir/blurkit.o" "$work/runtime.o" -o "$dir/registry.wasm"
    node --input-type=module - "$dir/registry.wasm" "$dir/description.json.gz" "$dir/components.json" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
const [wasm, gz, components] = process.argv.slice(2);
const { instance: { exports: e } } = await WebAssembly.instantiate(readFileSync(wasm), {});
const kept = () => { const m = new Uint8Array(e.memory.buffer, e.bk_error()); return m.slice(0, m.indexOf(0)); };
if (e.bk_registry() !== 0) throw new Error('bk_registry failed');
writeFileSync(gz, gzipSync(kept(), { level: 9 }));
// The web components' other numbers (the Blur Up Image's), for Scripts/elements.mjs.
if (e.bk_components() !== 0) throw new Error('bk_components failed');
writeFileSync(components, kept());
JS
    "$bin/clang" --target=wasm32 -std=c23 -O2 -nostdlib -ffreestanding --embed-dir="$dir" -c Web/describe.c -o "$dir/describe.o"
    link $exports --export=bk_describe --export=bk_describe_length "$dir/blurkit.o" "$work/runtime.o" "$dir/describe.o" \
        -o "$dir/$name.wasm.partial"
    mv "$dir/$name.wasm.partial" "$out/$name.wasm"
}
# ADD="FILE.swift …": the blurs with operations of one's own, as $out/blurkit-added.wasm, and
# nothing else. Each file declares its operations (an ImageOperation or RowImageOperation, without
# `import BlurCore` under Embedded) and, under BLURKIT_WASM_ADDED, `BlurOperation.added` listing them:
# they join the module's effects, its description, and so blurkit.mjs's functions.
if [ -n "${ADD:-}" ]; then
    module blurkit-added -D BLURKIT_WASM_CORE -D BLURKIT_WASM_ADDED $ADD
    exit 0
fi
# The whole engine, and the blurs alone (BLURKIT_WASM_CORE: BlurOperation.effects is the Gaussian,
# the progressive blur and the scroll edge): what a page that only blurs loads (blurkit.mjs's
# load({ operations }) picks the smaller module that holds them; the elements' exact mode loads it).
# The two are compiled side by side (each compile is one process).
module blurkit & whole=$!
module blurkit-core -D BLURKIT_WASM_CORE & core=$!
wait $whole && wait $core
# blurkit.mjs, with each module's operations written in (load({ operations }) picks by them).
node --input-type=module - "$out" <<'JS'
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
const out = process.argv[2];
const names = async (file) => {
  const { instance: { exports: e } } = await WebAssembly.instantiate(readFileSync(`${out}/${file}`), {});
  const gz = new Uint8Array(e.memory.buffer, e.bk_describe(), e.bk_describe_length());
  return JSON.parse(gunzipSync(gz).toString()).map((o) => o.name);
};
let source = readFileSync('Web/blurkit.mjs', 'utf8');
for (const [constant, file] of [['OPERATIONS', 'blurkit.wasm'], ['CORE_OPERATIONS', 'blurkit-core.wasm']]) {
  const line = `const ${constant} = [];`;
  if (!source.includes(line)) throw new Error(`Web/blurkit.mjs has no ${line}`);
  source = source.replace(line, `const ${constant} = ${JSON.stringify(await names(file))};`);
}
writeFileSync(`${out}/blurkit.mjs`, source);
JS
# The TypeScript declarations, from the module's own description of its operations; .d.mts is
# the same file under the name Node16 resolution pairs with blurkit.mjs.
node Scripts/dts.mjs "$out" >/dev/null
node Scripts/elements.mjs "$out" "$work/blurkit/components.json" >/dev/null
cp "$out/blurkit.d.ts" "$out/blurkit.d.mts"
# The same files as an npm package in $out/package (npm pack there makes the tarball).
node Scripts/package.mjs "$out" >/dev/null
for page in index.html scroll.html glass.html components.html; do cp "Web/$page" "$out/$page"; done

# The pages' pictures: the test fixture with only its pixel chunks as sample.png (no colour profile,
# so a browser draws the bytes the native decoder reads), and for scroll.html six square crops of it
# (mirrored, channels turned), photo-1.png … photo-6.png, 160 px, written the same way.
python3 - Tests/Fixtures/chelsea.png "$out" <<'PY'
import os, struct, sys, zlib
data, out = open(sys.argv[1], "rb").read(), sys.argv[2]
chunks, at = [], 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    chunks.append((kind, data[at:at + 12 + length], data[at + 8:at + 8 + length]))
    at += 12 + length
open(os.path.join(out, "sample.png"), "wb").write(
    data[:8] + b"".join(raw for kind, raw, _ in chunks if kind in (b"IHDR", b"PLTE", b"IDAT", b"IEND")))

width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunks[0][2])
assert (depth, colour, interlace) == (8, 2, 0), "the fixture is 8-bit RGB, not interlaced"
packed, stride = zlib.decompress(b"".join(body for kind, _, body in chunks if kind == b"IDAT")), width * 3
rows, previous = [], bytearray(stride)
for y in range(height):
    kind, row = packed[y * (stride + 1)], bytearray(packed[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
    for i in range(stride):
        a, b = row[i - 3] if i >= 3 else 0, previous[i]
        c = previous[i - 3] if i >= 3 else 0
        if kind == 1: row[i] = (row[i] + a) & 255
        elif kind == 2: row[i] = (row[i] + b) & 255
        elif kind == 3: row[i] = (row[i] + (a + b) // 2) & 255
        elif kind == 4:
            p, pa, pb, pc = a + b - c, abs(b - c), abs(a - c), abs(a + b - 2 * c)
            row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
    rows.append(bytes(row))
    previous = row

def chunk(kind, body):
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

side = 160
for n, (x, y, mirrored, order) in enumerate([
    (20, 40, False, (0, 1, 2)), (150, 10, False, (2, 1, 0)), (280, 120, True, (0, 1, 2)),
    (100, 130, True, (1, 2, 0)), (250, 0, False, (1, 0, 2)), (0, 140, True, (2, 0, 1)),
], start=1):
    lines = []
    for row in rows[y:y + side]:
        pixels = [row[(x + i) * 3:(x + i) * 3 + 3] for i in range(side)]
        if mirrored: pixels.reverse()
        lines.append(b"\0" + b"".join(bytes(p[k] for k in order) for p in pixels))
    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(b"".join(lines), 9)) + chunk(b"IEND", b"")
    open(os.path.join(out, f"photo-{n}.png"), "wb").write(png)
PY
echo "$out/blurkit.wasm: $(wc -c < "$out/blurkit.wasm") bytes"
