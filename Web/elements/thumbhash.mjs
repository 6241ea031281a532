// The image a ThumbHash stands for, in JavaScript: what a page loads to show a ThumbHash preview
// without the WebAssembly module. Held to the engine's decoder (`ThumbHash.decode`) by
// Tests/Web/test_thumbhash.mjs: the same size, each byte within 1 (JavaScript's cosine is not the
// engine's own).

/// `{ width, height, data }`: straight RGBA, at most 32 pixels a side; throws on a malformed hash.
export function thumbHashToRGBA(hash) {
  const h = Uint8Array.from(hash);
  if (h.length < 5) throw new Error(`thumbhash: ${h.length} bytes, fewer than the header's 5`);
  const h24 = h[0] | (h[1] << 8) | (h[2] << 16), h16 = h[3] | (h[4] << 8);
  const alpha = (h24 >> 23) & 1, landscape = h16 >> 15, short = h16 & 7, long = alpha ? 5 : 7;
  if (!short) throw new Error('thumbhash: no luminance terms');
  const sx = landscape ? long : short, sy = landscape ? short : long, lx = Math.max(3, sx), ly = Math.max(3, sy);
  const start = alpha ? 6 : 5;
  const count = (nx, ny) => { let n = 0; for (let cy = 0; cy < ny; cy++) for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++) n++; return n; };
  const needed = start + ((count(lx, ly) + 2 * count(3, 3) + (alpha ? count(5, 5) : 0) + 1) >> 1);
  if (h.length < needed) throw new Error(`thumbhash: ${h.length} bytes, fewer than the ${needed} it says it has`);
  let at = 0;
  const channel = (nx, ny, scale) => {
    const ac = [];
    for (let cy = 0; cy < ny; cy++) {
      for (let cx = cy ? 0 : 1; cx * ny < nx * (ny - cy); cx++, at++) ac.push((((h[start + (at >> 1)] >> ((at & 1) << 2)) & 15) / 7.5 - 1) * scale);
    }
    return ac;
  };
  const lDC = (h24 & 63) / 63, pDC = ((h24 >> 6) & 63) / 31.5 - 1, qDC = ((h24 >> 12) & 63) / 31.5 - 1;
  const lAC = channel(lx, ly, ((h24 >> 18) & 31) / 31);
  const pAC = channel(3, 3, ((h16 >> 3) & 63) / 63 * 1.25), qAC = channel(3, 3, ((h16 >> 9) & 63) / 63 * 1.25);
  const aDC = alpha ? (h[5] & 15) / 15 : 1, aAC = alpha ? channel(5, 5, (h[5] >> 4) / 15) : [];
  const ratio = sx / sy, w = Math.round(ratio > 1 ? 32 : 32 * ratio), ht = Math.round(ratio > 1 ? 32 / ratio : 32);
  const nx = Math.max(lx, alpha ? 5 : 3), ny = Math.max(ly, alpha ? 5 : 3);
  const cosX = new Float64Array(w * nx), cosY = new Float64Array(ht * ny);
  for (let x = 0; x < w; x++) for (let c = 0; c < nx; c++) cosX[x * nx + c] = Math.cos(Math.PI / w * (x + 0.5) * c);
  for (let y = 0; y < ht; y++) for (let c = 0; c < ny; c++) cosY[y * ny + c] = Math.cos(Math.PI / ht * (y + 0.5) * c);
  const data = new Uint8ClampedArray(w * ht * 4);
  const byte = (v) => { const x = Math.max(0, 255 * Math.min(1, v)); return Number.isNaN(x) ? 0 : Math.floor(x); };
  for (let y = 0, i = 0; y < ht; y++) {
    for (let x = 0; x < w; x++, i += 4) {
      let l = lDC, p = pDC, q = qDC, a = aDC, j = 0;
      for (let cy = 0; cy < ly; cy++) {
        const fy = cosY[y * ny + cy] * 2;
        for (let cx = cy ? 0 : 1; cx * ly < lx * (ly - cy); cx++) l += lAC[j++] * cosX[x * nx + cx] * fy;
      }
      j = 0;
      for (let cy = 0; cy < 3; cy++) {
        const fy = cosY[y * ny + cy] * 2;
        for (let cx = cy ? 0 : 1; cx < 3 - cy; cx++, j++) { const f = cosX[x * nx + cx] * fy; p += pAC[j] * f; q += qAC[j] * f; }
      }
      if (alpha) {
        j = 0;
        for (let cy = 0; cy < 5; cy++) {
          const fy = cosY[y * ny + cy] * 2;
          for (let cx = cy ? 0 : 1; cx < 5 - cy; cx++) a += aAC[j++] * cosX[x * nx + cx] * fy;
        }
      }
      const b = l - 2 / 3 * p, r = (3 * l - b + q) / 2, g = r - q;
      data[i] = byte(r); data[i + 1] = byte(g); data[i + 2] = byte(b); data[i + 3] = byte(a);
    }
  }
  return { width: w, height: ht, data };
}
