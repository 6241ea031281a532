extension Bitmap {
    /// This image resized to `width × height` by area averaging: each output pixel is the mean of the
    /// source area it covers, partial pixels weighted by their overlap (a box filter, the right one
    /// for shrinking: no source pixel is skipped, no aliasing). On premultiplied values; the scale
    /// is carried so point sizes stay. Enlarging repeats pixels (nearest).
    /// - Throws: ``BitmapError`` for a size below 1 × 1 or over the pixel limit.
    public func resized(width w: Int, height h: Int) throws(BitmapError) -> Bitmap {
        try Bitmap.validate(width: w, height: h, scale: scale * Double(w) / Double(width))
        return resampled(width: w, height: h)
    }

    /// This image shrunk to fit `longestSide` (``sizeFitting(longestSide:)``), or itself when it
    /// fits: never larger than the image, so no limit can refuse it.
    package func shrunk(toFit longestSide: Int) -> Bitmap {
        let (w, h) = sizeFitting(longestSide: longestSide)
        return (w, h) == (width, height) ? self : resampled(width: w, height: h)
    }

    /// ``resized(width:height:)`` for a size already validated (or no larger than this one's): the
    /// area-average stage over the image in memory.
    func resampled(width w: Int, height h: Int) -> Bitmap {
        AreaAverageStage(sourceWidth: width, sourceHeight: height, width: w, height: h).run(self, parts: 1)
    }

    /// The size that fits inside `longestSide × longestSide` keeping the aspect ratio (each side at
    /// least 1); the image's own size when it already fits.
    public func sizeFitting(longestSide: Int) -> (width: Int, height: Int) {
        Bitmap.sizeFitting(width: width, height: height, longestSide: longestSide)
    }

    /// ``sizeFitting(longestSide:)`` for an image of `width × height` not decoded yet.
    package static func sizeFitting(width: Int, height: Int, longestSide: Int) -> (width: Int, height: Int) {
        let longest = max(width, height)
        guard longest > longestSide, longestSide > 0 else { return (width, height) }
        let f = Double(longestSide) / Double(longest)
        return (max(1, Int((Double(width) * f).rounded())), max(1, Int((Double(height) * f).rounded())))
    }
}
