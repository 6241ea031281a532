/// How far apart two images of the same size are, channel by channel (premultiplied bytes).
public struct ImageDifference: Sendable, Hashable, CustomStringConvertible {
    /// The largest absolute difference of any byte, 0…255.
    public let maximum: Int
    /// Mean squared difference over all bytes.
    public let meanSquared: Double

    /// Peak signal-to-noise ratio in dB (∞ for identical images).
    public var psnr: Double {
        meanSquared == 0 ? .infinity : 10 * log10(of: 255 * 255 / meanSquared)
    }

    /// - Precondition: the images have the same width and height.
    public init(_ a: Bitmap, _ b: Bitmap) {
        precondition(a.width == b.width && a.height == b.height, "images differ in size")
        let pa = a.premultipliedRGBA, pb = b.premultipliedRGBA
        var maximum = 0, sum = 0.0
        for i in pa.indices {
            let d = Int(pa[i]) - Int(pb[i])
            maximum = max(maximum, abs(d))
            sum += Double(d * d)
        }
        self.maximum = maximum
        self.meanSquared = sum / Double(pa.count)
    }

    /// `PSNR p dB, max m`, the PSNR truncated to two decimals: for messages and test failures.
    public var description: String {
        let p = psnr.isInfinite ? "∞" : String(Double(Int(psnr * 100)) / 100)
        return "PSNR \(p) dB, max \(maximum)"
    }
}
