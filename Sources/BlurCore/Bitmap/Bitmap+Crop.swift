extension Bitmap {
    /// The pixels inside the rectangle (in pixels, origin top-left); the scale is kept.
    /// - Throws: ``BitmapError/cropOutOfBounds(x:y:width:height:)`` unless the rectangle is
    ///   non-empty and lies inside the image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws -> Bitmap {
        guard x >= 0, y >= 0, w > 0, h > 0, x <= width - w, y <= height - h else {
            throw BitmapError.cropOutOfBounds(x: x, y: y, width: w, height: h)
        }
        var out = try Bitmap.uninitialized(width: w, height: h, scale: scale)
        withUnsafePixels { src in
            let outStride = out.bytesPerRow
            out.withUnsafeMutablePixels { dst in
                for row in 0..<h {
                    let from = (y + row) * bytesPerRow + x * 4
                    let to = row * outStride
                    (dst.baseAddress! + to).update(from: src.baseAddress! + from, count: w * 4)
                }
            }
        }
        return out
    }
}
