/// The eight orientations of EXIF (TIFF tag 0x0112): how stored pixels must be turned to be seen
/// upright. Raw values match the tag.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    /// Stored upright (EXIF 1): shown as is.
    case up = 1
    /// Mirrored left to right (EXIF 2).
    case upMirrored
    /// Upside down (EXIF 3): turned 180° to be seen upright.
    case down
    /// Mirrored top to bottom (EXIF 4).
    case downMirrored
    /// Transposed (EXIF 5): mirrored across the diagonal from top-left to bottom-right.
    case leftMirrored
    /// Turned 90° clockwise to be seen upright (EXIF 6); width and height trade places.
    case right
    /// Transversed (EXIF 7): mirrored across the diagonal from top-right to bottom-left.
    case rightMirrored
    /// Turned 90° counter-clockwise to be seen upright (EXIF 8); width and height trade places.
    case left

    /// True when width and height trade places.
    public var swapsAxes: Bool { rawValue >= 5 }
}

extension Bitmap {
    /// The image as a viewer should show it, given the orientation its file recorded.
    public func oriented(_ orientation: ImageOrientation) -> Bitmap {
        if orientation == .up { return self }
        let w = width, h = height
        let (ow, oh) = orientation.swapsAxes ? (h, w) : (w, h)
        // Where output pixel (x, y) comes from.
        func source(_ x: Int, _ y: Int) -> (Int, Int) {
            switch orientation {
            case .up: return (x, y)
            case .upMirrored: return (w - 1 - x, y)
            case .down: return (w - 1 - x, h - 1 - y)
            case .downMirrored: return (x, h - 1 - y)
            case .leftMirrored: return (y, x)
            case .right: return (y, h - 1 - x)
            case .rightMirrored: return (w - 1 - y, h - 1 - x)
            case .left: return (w - 1 - y, x)
            }
        }
        // The same pixel count as this image, so the size is valid.
        var out = Bitmap(validatedWidth: ow, height: oh, scale: scale)
        withPixels { pixels in
            out.withMutablePixels { target in
                for y in 0..<oh {
                    let line = UnsafeMutableRawPointer(target.row(y))
                    for x in 0..<ow {
                        let (sx, sy) = source(x, y)
                        let pixel = UnsafeRawPointer(pixels.row(sy)).loadUnaligned(fromByteOffset: sx * 4, as: UInt32.self)
                        line.storeBytes(of: pixel, toByteOffset: x * 4, as: UInt32.self)
                    }
                }
            }
        }
        return out
    }
}
