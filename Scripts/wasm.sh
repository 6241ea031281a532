#!/usr/bin/env bash
# make wasm: blurkit.wasm from BlurCore's own sources and Web/Exports.swift (Embedded Swift,
# wasm32-unknown-none-wasm), Web/runtime.c (memory and the few C routines the compiler calls) with
# the toolchain's clang, linked by its wasm-ld; then the ES module and the static page beside it.
# Nothing is downloaded: everything comes with the Swift toolchain.
set -euo pipefail
out=${1:-demo-output/web}
SIMD=${SIMD:--Xcc -msimd128 -Xllvm -mattr=+simd128}
bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
embedded=$(dirname "$bin")/lib/swift/embedded/wasm32-unknown-none-wasm
work=.build/wasm
mkdir -p "$work" "$out"
sources=$(find Sources/BlurCore -name '*.swift' | sort)
"$bin/swiftc" -target wasm32-unknown-none-wasm -enable-experimental-feature Embedded -wmo -O -parse-as-library \
    -package-name BlurKit -module-name BlurKitWasm -Xfrontend -disable-stack-protector -suppress-warnings $SIMD \
    $sources Web/Exports.swift -c -o "$work/blurkit.o"
"$bin/clang" --target=wasm32 -O2 -nostdlib -ffreestanding -c Web/runtime.c -o "$work/runtime.o"
exports=$(grep -o '@_cdecl("[a-z_]*")' Web/Exports.swift | sed 's/@_cdecl("\(.*\)")/--export=\1/')
"$bin/wasm-ld" --no-entry --gc-sections --strip-all $exports -z stack-size=1048576 \
    "$work/blurkit.o" "$work/runtime.o" "$embedded/libswiftUnicodeDataTables.a" -o "$work/blurkit.wasm.partial"
mv "$work/blurkit.wasm.partial" "$out/blurkit.wasm"
cp Web/blurkit.mjs "$out/blurkit.mjs"
# The TypeScript declarations, from the module's own description of its operations; .d.mts is
# the same file under the name Node16 resolution pairs with blurkit.mjs.
node Scripts/dts.mjs "$out" >/dev/null
cp "$out/blurkit.d.ts" "$out/blurkit.d.mts"
[ -f Web/index.html ] && cp Web/index.html "$out/index.html"

# The page's sample picture: the test fixture with only its pixel chunks (no colour profile, so a
# browser draws the bytes the native decoder reads).
python3 - Tests/Fixtures/chelsea.png "$out/sample.png" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
out, at = [data[:8]], 8
while at < len(data):
    length, kind = struct.unpack(">I4s", data[at:at + 8])
    if kind in (b"IHDR", b"PLTE", b"IDAT", b"IEND"):
        out.append(data[at:at + 12 + length])
    at += 12 + length
open(sys.argv[2], "wb").write(b"".join(out))
PY
echo "$out/blurkit.wasm: $(wc -c < "$out/blurkit.wasm") bytes"
