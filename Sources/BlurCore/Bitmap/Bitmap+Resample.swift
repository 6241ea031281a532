extension Bitmap {
    /// Half the size (rounded up), each pixel the mean of a 2 × 2 block (edge pixels repeat for odd
    /// sizes). The scale halves too, so point sizes stay.
    public func halved() -> Bitmap {
        let w = (width + 1) / 2, h = (height + 1) / 2
        var out = try! Bitmap.uninitialized(width: w, height: h, scale: scale / 2)
        let src = bytesPerRow, dst = out.bytesPerRow, lastX = width - 1, lastY = height - 1
        withUnsafePixels { s in
            out.withUnsafeMutablePixels { d in
                for y in 0..<h {
                    let r0 = s.baseAddress! + min(2 * y, lastY) * src, r1 = s.baseAddress! + min(2 * y + 1, lastY) * src
                    let o = d.baseAddress! + y * dst
                    for x in 0..<w {
                        let a = 2 * x * 4, b = min(2 * x + 1, lastX) * 4
                        for c in 0..<4 {
                            let sum = UInt16(r0[a + c]) &+ UInt16(r0[b + c]) &+ UInt16(r1[a + c]) &+ UInt16(r1[b + c])
                            o[x * 4 + c] = UInt8(truncatingIfNeeded: (sum &+ 2) >> 2)
                        }
                    }
                }
            }
        }
        return out
    }

    /// This image resampled bilinearly to `width × height` (pixel centres aligned, edges clamped),
    /// with `scale` set so point sizes stay.
    public func resized(width w: Int, height h: Int) -> Bitmap {
        var out = try! Bitmap.uninitialized(width: w, height: h, scale: scale * Double(w) / Double(width))
        let fx = Double(width) / Double(w), fy = Double(height) / Double(h), src = bytesPerRow, dst = out.bytesPerRow
        withUnsafePixels { s in
            out.withUnsafeMutablePixels { d in
                for y in 0..<h {
                    let sy = min(Double(height - 1), max(0, (Double(y) + 0.5) * fy - 0.5))
                    let y0 = Int(sy), y1 = min(height - 1, y0 + 1), ty = Float(sy - Double(y0))
                    for x in 0..<w {
                        let sx = min(Double(width - 1), max(0, (Double(x) + 0.5) * fx - 0.5))
                        let x0 = Int(sx), x1 = min(width - 1, x0 + 1), tx = Float(sx - Double(x0))
                        for c in 0..<4 {
                            let p00 = Float(s[y0 * src + x0 * 4 + c]), p01 = Float(s[y0 * src + x1 * 4 + c])
                            let p10 = Float(s[y1 * src + x0 * 4 + c]), p11 = Float(s[y1 * src + x1 * 4 + c])
                            let top = p00 + (p01 - p00) * tx, bottom = p10 + (p11 - p10) * tx
                            d[y * dst + x * 4 + c] = UInt8((top + (bottom - top) * ty).rounded())
                        }
                    }
                }
            }
        }
        return out
    }
}
