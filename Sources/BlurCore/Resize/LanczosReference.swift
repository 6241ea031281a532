/// The float64 reference of ``LanczosStage``: the same taps (``LanczosTaps``, weights in double
/// precision), both passes in double with no rounding between them, each output channel rounded
/// once (colour never above alpha). What the fast stage is held to in the tests, and what
/// `BLURKIT_REFERENCE=1` draws.
package enum LanczosReference {
    /// `image` (premultiplied) resampled by `plan`.
    package static func resize(_ image: Bitmap, plan: ResizePlan) -> Bitmap {
        let columns = LanczosTaps(outputs: plan.width, offset: plan.x, scaled: plan.scaledWidth, source: image.width)
        let rows = LanczosTaps(outputs: plan.height, offset: plan.y, scaled: plan.scaledHeight, source: image.height)
        let w = plan.width, length = w * 4
        var across = [Double](repeating: 0, count: image.height * length)
        image.withPixels { view in
            for y in 0..<image.height {
                let row = view.row(y)
                for x in 0..<w {
                    for k in 0..<columns.count[x] {
                        let weight = columns.exact[x * columns.stride + k], p = (columns.start[x] + k) * 4
                        for c in 0..<4 { across[y * length + x * 4 + c] += weight * Double(row[p + c]) }
                    }
                }
            }
        }
        var out = Bitmap(validatedWidth: w, height: plan.height, scale: image.scale * Double(plan.scaledWidth) / Double(image.width))
        out.withMutablePixels { view in
            for y in 0..<plan.height {
                let o = view.row(y)
                for x in 0..<w {
                    var sum = [Double](repeating: 0, count: 4)
                    for k in 0..<rows.count[y] {
                        let weight = rows.exact[y * rows.stride + k], r = rows.start[y] + k
                        for c in 0..<4 { sum[c] += weight * across[r * length + x * 4 + c] }
                    }
                    let alpha = min(255, max(0, (sum[3] + 0.5).rounded(.down)))
                    o[x * 4 + 3] = UInt8(alpha)
                    for c in 0..<3 { o[x * 4 + c] = UInt8(min(alpha, max(0, (sum[c] + 0.5).rounded(.down)))) }
                }
            }
        }
        return out
    }
}
