extension Bitmap {
    /// The pixels inside the rectangle (in pixels, origin top-left); the scale is kept.
    /// - Throws: ``BitmapError/cropOutOfBounds(x:y:width:height:)`` unless the rectangle is
    ///   non-empty and lies inside the image.
    public func cropped(x: Int, y: Int, width w: Int, height h: Int) throws(BitmapError) -> Bitmap {
        guard x >= 0, y >= 0, w > 0, h > 0, x <= width - w, y <= height - h else {
            throw BitmapError.cropOutOfBounds(x: x, y: y, width: w, height: h)
        }
        return copying(PixelRect(x: x, y: y, width: w, height: h))
    }

    /// The pixels of `region`, which lies inside the image (checked); the scale is kept.
    package func copying(_ region: PixelRect) -> Bitmap {
        var out = Bitmap(validatedWidth: region.width, height: region.height, scale: scale)
        withPixels { whole in
            let source = whole.region(region)
            out.withMutablePixels { target in
                for row in 0..<region.height { target.row(row).copyBytes(from: source.row(row), count: region.width * 4) }
            }
        }
        return out
    }
}
