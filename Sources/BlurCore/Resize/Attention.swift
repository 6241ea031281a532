/// libvips's `attention` crop: the window of the crop's size whose pixels draw the eye most — edges
/// (the luma's gradient), colourfulness (chroma) and skin tones — found on a small copy of the
/// image and placed on the image itself. Ties (a flat image) go to the window nearest the centre.
package enum Attention {
    /// The longest side of the copy the interest is measured on.
    static let side = 96

    /// The top-left corner of the `width × height` window of `image` that holds the most interest.
    package static func crop(of image: Bitmap, width: Int, height: Int) -> (x: Int, y: Int) {
        let roomX = image.width - width, roomY = image.height - height
        guard roomX > 0 || roomY > 0 else { return (0, 0) }
        let small = image.shrunk(toFit: side)
        let sw = small.width, sh = small.height
        let fx = Double(sw) / Double(image.width), fy = Double(sh) / Double(image.height)
        // Interest per pixel of the copy.
        var interest = [Double](repeating: 0, count: sw * sh)
        small.withPixels { view in
            var luma = [Double](repeating: 0, count: sw * sh)
            for y in 0..<sh {
                let row = view.row(y)
                for x in 0..<sw {
                    let r = Double(row[x * 4]), g = Double(row[x * 4 + 1]), b = Double(row[x * 4 + 2])
                    luma[y * sw + x] = 0.299 * r + 0.587 * g + 0.114 * b
                    let high = max(r, g, b), low = min(r, g, b)
                    var value = (high - low) / 2
                    if r > 95 && g > 40 && b > 20 && r > g && r > b && r - min(g, b) > 15 && abs(r - g) > 15 { value += 64 }
                    interest[y * sw + x] = value
                }
            }
            for y in 0..<sh {
                for x in 0..<sw {
                    func l(_ dx: Int, _ dy: Int) -> Double { luma[min(sh - 1, max(0, y + dy)) * sw + min(sw - 1, max(0, x + dx))] }
                    let gx = (l(1, -1) + 2 * l(1, 0) + l(1, 1)) - (l(-1, -1) + 2 * l(-1, 0) + l(-1, 1))
                    let gy = (l(-1, 1) + 2 * l(0, 1) + l(1, 1)) - (l(-1, -1) + 2 * l(0, -1) + l(1, -1))
                    interest[y * sw + x] += (abs(gx) + abs(gy)) / 4
                }
            }
        }
        // Sums over every window by an integral image.
        var integral = [Double](repeating: 0, count: (sw + 1) * (sh + 1))
        for y in 0..<sh {
            var line = 0.0
            for x in 0..<sw {
                line += interest[y * sw + x]
                integral[(y + 1) * (sw + 1) + x + 1] = integral[y * (sw + 1) + x + 1] + line
            }
        }
        let ww = max(1, min(sw, Int((Double(width) * fx).rounded()))), wh = max(1, min(sh, Int((Double(height) * fy).rounded())))
        let centreX = Double(sw - ww) / 2, centreY = Double(sh - wh) / 2
        var best = (x: 0, y: 0), bestSum = -1.0, bestDistance = Double.infinity
        for y in 0...(sh - wh) {
            for x in 0...(sw - ww) {
                let sum =
                    integral[(y + wh) * (sw + 1) + x + ww] - integral[y * (sw + 1) + x + ww] - integral[(y + wh) * (sw + 1) + x]
                    + integral[y * (sw + 1) + x]
                let distance = (Double(x) - centreX) * (Double(x) - centreX) + (Double(y) - centreY) * (Double(y) - centreY)
                // A sum within a millionth counts as a tie: the window nearer the centre wins.
                let margin = max(1e-9, bestSum * 1e-6)
                if sum > bestSum + margin || (abs(sum - bestSum) <= margin && distance < bestDistance) {
                    (best, bestSum, bestDistance) = ((x, y), sum, distance)
                }
            }
        }
        let x = roomX <= 0 ? 0 : min(roomX, max(0, Int((Double(best.x) / fx).rounded())))
        let y = roomY <= 0 ? 0 : min(roomY, max(0, Int((Double(best.y) / fy).rounded())))
        return (x, y)
    }
}

/// The `attention` crop as a stage: gathers the scaled image, finds the window (``Attention``) and
/// hands its rows on.
package final class AttentionCropStage: RowStage {
    package let width: Int
    package let height: Int
    private let sourceWidth: Int, sourceHeight: Int
    private var image: Bitmap?
    private var corner = (x: 0, y: 0)

    /// A `width × height` window of a `sourceWidth × sourceHeight` image.
    package init(sourceWidth: Int, sourceHeight: Int, width: Int, height: Int) {
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.width = width
        self.height = height
    }

    package func produce(_ rows: Range<Int>, from input: RowWindow, into output: MutablePixelView, parts: Int?) throws {
        if image == nil {
            let whole = try input.gathered(height: sourceHeight, scale: 1)
            try input.checkpoint()
            corner = Attention.crop(of: whole, width: width, height: height)
            image = whole
        }
        image!.withPixels { view in
            for y in rows { output.row(y).update(from: view.row(y + corner.y) + corner.x * 4, count: width * 4) }
        }
        if rows.upperBound >= height { image = nil }
    }

    package func heldBytes(bandRows: Int) -> Int { sourceWidth * sourceHeight * 4 }
    package func inputBytes(bandRows: Int) -> Int { sourceWidth * sourceHeight * 4 }
}
