/// A one-dimensional gradient as BlurUIKit renders it: `count` 8-bit values, one per point along the
/// gradient axis, 255 = full (maximum blur, or full dimming colour), 0 = clear.
///
/// A reference type so that a cache can hand the same mask to every view that asks for equal
/// parameters (`===` tells). Immutable and `Sendable`.
public final class GradientMask: Sendable {
    /// What a mask is made from; equal keys make equal masks.
    public struct Key: Sendable, Hashable {
        /// Entries (points along the axis), ≥ 1.
        public var length: Int
        /// Where the constant full region ends, as a fraction 0…1 of `length`.
        public var startLocation: Double
        /// Full at the last entry instead of the first (`.up`, `.right`).
        public var reversed: Bool
        /// Sine ease-in-out ½(1 − cos πt) (the dimming gradient) instead of linear (the blur mask).
        public var smooth: Bool
        /// Floor every value is lifted to, 0…1 (minimum ÷ maximum blur radius).
        public var minimumAlpha: Double
    }

    /// The parameters this mask was built from.
    public let key: Key
    /// The entries, `key.length` of them.
    public let values: [UInt8]

    init(_ key: Key) {
        self.key = key
        let n = key.length, s = key.startLocation
        let boundary = s > 0 ? Int((s * Double(n - 1)).rounded(.down)) + 1 : 0
        func ease(_ x: Double) -> Double {
            let t = min(1, max(0, x))
            return key.smooth ? easeInOutSine(t) : t
        }
        var values = [UInt8](repeating: 0, count: n)
        for i in 0..<n {
            let t = n > 1 ? Double(i) / Double(n - 1) : 0
            var a: Double
            if key.reversed {
                a = i >= n - boundary ? 1 : ease(t / (1 - s))
            } else {
                a = i < boundary ? 1 : 1 - ease((t - s) / (1 - s))
            }
            a = key.minimumAlpha + a * (1 - key.minimumAlpha)
            values[i] = UInt8(min(255, max(0, a * 255)))  // truncation, as BlurUIKit does
        }
        self.values = values
    }

    /// The value at a continuous position along the axis in points (entry i covers [i, i + 1)),
    /// interpolated linearly between entry centres, as a texture sampler does; 0…1.
    public func value(at position: Double) -> Double {
        let n = values.count
        let p = min(Double(n) - 0.5, max(0.5, position)) - 0.5
        let i = min(n - 1, Int(p)), f = p - Double(i)
        let a = Double(values[i]), b = Double(values[min(n - 1, i + 1)])
        return (a + (b - a) * f) / 255
    }
}
