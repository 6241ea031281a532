/// The eight orientations of EXIF (TIFF tag 0x0112): how stored pixels must be turned to be seen
/// upright. Raw values match the tag.
public enum ImageOrientation: Int, Sendable, Hashable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left

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
        var out = try! Bitmap.uninitialized(width: ow, height: oh, scale: scale)
        withUnsafePixels { src in
            let outStride = out.bytesPerRow
            out.withUnsafeMutablePixels { dst in
                let words = UnsafeRawPointer(src.baseAddress!)
                let outWords = UnsafeMutableRawPointer(dst.baseAddress!)
                for y in 0..<oh {
                    for x in 0..<ow {
                        let (sx, sy) = source(x, y)
                        let pixel = words.loadUnaligned(fromByteOffset: sy * bytesPerRow + sx * 4, as: UInt32.self)
                        outWords.storeBytes(of: pixel, toByteOffset: y * outStride + x * 4, as: UInt32.self)
                    }
                }
            }
        }
        return out
    }
}
