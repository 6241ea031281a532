import BlurCore
import BlurTestSupport
import Testing

@Suite struct BitmapTests {
    /// A rectangle outside the image is a programming error: the drawing calls trap, as an array
    /// index out of range does, instead of writing past the pixels.
    @Test func drawingOutsideTheImageTrapsInsteadOfWritingPastIt() async {
        await #expect(processExitsWith: .failure) {
            var image = try! Bitmap(width: 4, height: 4)
            image.composite(Color(white: 1), mode: .normal, in: PixelRect(x: 2, y: 2, width: 4, height: 4))
        }
        await #expect(processExitsWith: .failure) {
            var image = try! Bitmap(width: 4, height: 4)
            image.composite(try! Bitmap(width: 2, height: 2), at: PixelRect(x: -1, y: 0, width: 2, height: 2))
        }
    }

    /// The bug this test was written for: the fast paths wrote rows at the input's stride into
    /// tight output, past the end of the heap block (AddressSanitizer: heap-buffer-overflow).
    /// Padded bytes are now copied tight by the initialiser, so every kernel sees one layout.
    @Test func paddedRowsAreCopiedTightAndEveryKernelAgrees() throws {
        let tight = TestImages.noise(width: 64, height: 48, seed: 64)
        for padding in [4, 64, 100] {
            let stride = 64 * 4 + padding
            var padded = [UInt8](repeating: 0xEE, count: stride * 48)
            for y in 0..<48 { padded.replaceSubrange((y * stride)..<(y * stride + 256), with: tight.premultipliedRGBA[(y * 256)..<(y * 256 + 256)]) }
            // 0xEE in the padding would fail the premultiplication check if it were read as pixels.
            for bytes in [padded, Array(padded.dropLast(padding))] {
                let image = try Bitmap(width: 64, height: 48, bytesPerRow: stride, premultipliedRGBA: bytes)
                #expect(image == tight && image.bytesPerRow == 256 && image.premultipliedRGBA == tight.premultipliedRGBA)
                for sigma in [1.0, 3, 9] {
                    let blur = try GaussianBlur(sigma: sigma)
                    #expect(blur.fastPath(image) == blur.fastPath(tight))
                    #expect(ImageDifference(blur.reference(image), blur.fastPath(image)).maximum <= 1)
                }
                #expect(
                    try image.reduced(PixelRect(x: 3, y: 5, width: 40, height: 30), by: 3)
                        == tight.reduced(PixelRect(x: 3, y: 5, width: 40, height: 30), by: 3))
                #expect(try image.resized(width: 17, height: 11) == tight.resized(width: 17, height: 11))
            }
        }
    }

    @Test func byteCountsAndStridesThatDoNotMatchAreErrors() {
        let row = [UInt8](repeating: 0, count: 16)
        // Surplus bytes past the last row, too few, and a stride shorter than a row.
        #expect(throws: BitmapError.byteCountMismatch(expected: 32, got: 48)) {
            try Bitmap(width: 4, height: 2, premultipliedRGBA: row + row + row)
        }
        #expect(throws: BitmapError.byteCountMismatch(expected: 36, got: 20)) {
            try Bitmap(width: 4, height: 2, bytesPerRow: 20, premultipliedRGBA: row + [0, 0, 0, 0])
        }
        #expect(throws: BitmapError.invalidStride(bytesPerRow: 12, width: 4)) {
            try Bitmap(width: 4, height: 2, bytesPerRow: 12, premultipliedRGBA: row + row)
        }
        #expect(throws: BitmapError.byteCountMismatch(expected: 32, got: 40)) {
            try Bitmap(width: 4, height: 2, straightRGBA: row + row + [0, 0, 0, 0, 0, 0, 0, 0])
        }
    }

    @Test func emptyOrOutsideRegionsAreErrorsNotTraps() throws {
        let image = TestImages.noise(width: 6, height: 5, seed: 3)
        let outside = BitmapError.regionOutOfBounds(x: 0, y: 0, width: 7, height: 5, imageWidth: 6, imageHeight: 5)
        #expect(throws: outside) { try image.reduced(PixelRect(x: 0, y: 0, width: 7, height: 5), by: 2) }
        #expect(throws: BitmapError.regionOutOfBounds(x: 2, y: 2, width: 0, height: 3, imageWidth: 6, imageHeight: 5)) {
            try image.reduced(PixelRect(x: 2, y: 2, width: 0, height: 3), by: 2)
        }
        #expect(throws: BitmapError.invalidSize(width: 0, height: 4)) {
            try image.placed(scaleX: 1, scaleY: 1, originX: 0, originY: 0, region: PixelRect(x: 0, y: 0, width: 0, height: 4))
        }
        #expect(throws: BitmapError.self) { try image.cropped(x: 1, y: 1, width: 0, height: 1) }
        // A tiny scale asks for a reduction factor past Int's range; it places nothing visible.
        #expect(
            try image.placed(scaleX: 1e-300, scaleY: 1, originX: 0, originY: 0, region: PixelRect(x: 0, y: 0, width: 2, height: 2)).isOpaque == false)
    }

    @Test func anAbsurdResizeIsAnErrorNotATrap() throws {
        let image = try Bitmap(width: 4, height: 3)
        #expect(throws: BitmapError.invalidSize(width: 0, height: 3)) { try image.resized(width: 0, height: 3) }
        #expect(throws: BitmapError.invalidSize(width: 2, height: -1)) { try image.resized(width: 2, height: -1) }
        ImageLimits.withMaximumPixelCount(10_000) {
            #expect(throws: BitmapError.tooLarge(width: 1000, height: 1000, limit: 10_000)) { try image.resized(width: 1000, height: 1000) }
        }
        #expect(try image.resized(width: 8, height: 6).width == 8)
    }

    @Test func aFilledBitmapIsTheColourCompositedOverTransparency() throws {
        for colour in [
            Color(white: 1), Color(red: 0.9, green: 0.2, blue: 0.5, alpha: 0.7), Color(white: 0.3, alpha: 0),
            Color(red: 0, green: 0.5, blue: 1, alpha: 0.01),
        ] {
            var expected = try Bitmap(width: 5, height: 3, scale: 2)
            expected.composite(colour, mode: .normal, in: PixelRect(x: 0, y: 0, width: 5, height: 3))
            #expect(try Bitmap(width: 5, height: 3, filledWith: colour, scale: 2) == expected, "\(colour)")
        }
        #expect(throws: BitmapError.self) { try Bitmap(width: 0, height: 3, filledWith: Color(white: 1)) }
    }

    /// A gradient fill is premultiplied source-over, s·a + d·(1 − a) rounded to nearest, on every
    /// pixel alike: rows of 1…9 pixels (four at a time, then one) against the definition in
    /// double precision, and each row against the same fill one column at a time.
    @Test func aGradientFillIsSourceOverOnEveryPixelAlike() throws {
        let color = Color(red: 0.9, green: 0.35, blue: 0.1, alpha: 0.8)
        for width in 1...9 {
            let image = TestImages.noise(width: width, height: 6, seed: UInt64(width))
            let coverage: [Float] = [0, 0.1, 0.25, 0.5, 0.77, 1]
            let rect = PixelRect(x: 0, y: 0, width: width, height: 6)
            for vertical in [true, false] {
                let lines = vertical ? coverage : (0..<width).map { coverage[$0 % 6] }
                var whole = image, byColumn = image
                whole.fill(rect, with: color, coverage: lines, vertical: vertical)
                for x in 0..<width {
                    byColumn.fill(
                        PixelRect(x: x, y: 0, width: 1, height: 6), with: color, coverage: vertical ? lines : [lines[x]], vertical: vertical)
                }
                #expect(whole == byColumn, "\(width) px, vertical \(vertical)")
                let straight = [color.red, color.green, color.blue, 1].map { $0 * 255 }
                for y in 0..<6 {
                    for x in 0..<width {
                        let a = color.alpha * Double(vertical ? lines[y] : lines[x])
                        for c in 0..<4 {
                            let d = Double(image.premultipliedRGBA[(y * width + x) * 4 + c])
                            // Rounded to nearest: within half a level of the exact value (and
                            // Float's error); untouched where the coverage is 0.
                            let exact = a > 0 ? straight[c] * a + d * (1 - a) : d
                            let got = Double(whole.premultipliedRGBA[(y * width + x) * 4 + c])
                            #expect(abs(got - exact) <= 0.5 + 1e-4, "\(width) px (\(x), \(y)) channel \(c): \(got) for \(exact)")
                        }
                    }
                }
            }
        }
    }

    @Test func rejectsInvalidSizesAndScales() {
        #expect(throws: BitmapError.invalidSize(width: 0, height: 5)) { try Bitmap(width: 0, height: 5) }
        #expect(throws: BitmapError.invalidSize(width: 3, height: -1)) { try Bitmap(width: 3, height: -1) }
        #expect(throws: BitmapError.self) { try Bitmap(width: 3, height: 3, scale: .nan) }
        #expect(throws: BitmapError.self) { try Bitmap(width: 3, height: 3, scale: 0) }
        #expect(throws: BitmapError.tooLarge(width: 1 << 20, height: 1 << 20, limit: ImageLimits.maximumPixelCount)) {
            try Bitmap(width: 1 << 20, height: 1 << 20)
        }
        #expect(throws: BitmapError.self) { try Bitmap(width: Int.max, height: 2) }
    }

    @Test func defaultLimitIs268Megapixels() {
        #expect(ImageLimits.defaultMaximumPixelCount == 268_435_456)
        #expect(throws: BitmapError.self) { try Bitmap(width: 16385, height: 16384) }
    }

    @Test func rejectsBytesThatAreNotPremultiplied() {
        #expect(throws: BitmapError.notPremultiplied(x: 1, y: 0)) {
            try Bitmap(width: 2, height: 1, premultipliedRGBA: [10, 10, 10, 10, 200, 0, 0, 100])
        }
        #expect(throws: BitmapError.byteCountMismatch(expected: 8, got: 4)) {
            try Bitmap(width: 2, height: 1, premultipliedRGBA: [0, 0, 0, 0])
        }
    }

    @Test func copiesAreIndependent() throws {
        var a = try Bitmap(width: 2, height: 2)
        a[0, 0] = RGBA8(r: 1, g: 2, b: 3, a: 4)
        var b = a
        b[0, 0] = RGBA8(r: 9, g: 9, b: 9, a: 9)
        #expect(a[0, 0] == RGBA8(r: 1, g: 2, b: 3, a: 4))
        #expect(b[0, 0] == RGBA8(r: 9, g: 9, b: 9, a: 9))
        #expect(a != b)
    }

    @Test func straightAlphaRoundTripsEveryPremultipliedValue() throws {
        // Every (colour, alpha) pair with colour ≤ alpha: premultiplied → straight → premultiplied.
        var bytes: [UInt8] = []
        for a in 0...255 {
            for c in 0...a { bytes += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)] }
        }
        let image = try Bitmap(width: bytes.count / 4, height: 1, premultipliedRGBA: bytes)
        let back = try Bitmap(width: image.width, height: 1, straightRGBA: image.straightRGBA)
        #expect(back == image)
    }

    /// The conversions pass over four opaque pixels at a time: runs of opaque pixels of every
    /// length at every offset, among translucent and clear ones, on rows of every width 1…13, give
    /// each pixel its definition, into separate memory as in place.
    @Test func alphaConversionsHoldTheirDefinitionAroundRunsOfOpaquePixels() throws {
        var state: UInt32 = 7
        func next() -> Int {
            state = state &* 1_664_525 &+ 1_013_904_223
            return Int(state >> 24)
        }
        for width in 1...13 {
            for _ in 0..<40 {
                // Straight pixels, mostly opaque in runs, the rest any alpha.
                var straight: [UInt8] = []
                for _ in 0..<(width * 3) {
                    let a = next() % 3 == 0 ? next() : 255
                    straight += [UInt8(next()), UInt8(next()), UInt8(next()), UInt8(a)]
                }
                let image = try Bitmap(width: width, height: 3, straightRGBA: straight)
                let premultiplied = image.premultipliedRGBA
                for i in stride(from: 0, to: straight.count, by: 4) {
                    let a = Int(straight[i + 3])
                    for c in 0..<3 {
                        let expected = a == 255 ? Int(straight[i + c]) : (Int(straight[i + c]) * a + 127) / 255
                        #expect(Int(premultiplied[i + c]) == expected, "width \(width), byte \(i + c)")
                    }
                }
                var out = [UInt8](repeating: 1, count: premultiplied.count)
                premultiplied.withUnsafeBufferPointer { source in
                    out.withUnsafeMutableBufferPointer { Bitmap.unpremultiply(source.baseAddress!, into: $0.baseAddress!, pixels: width * 3) }
                }
                #expect(out == image.straightRGBA, "width \(width): into other memory as in place")
                for i in stride(from: 0, to: out.count, by: 4) {
                    let a = Int(premultiplied[i + 3])
                    for c in 0..<3 {
                        let expected = a == 0 ? 0 : min(255, (Int(premultiplied[i + c]) * 255 + a / 2) / a)
                        #expect(Int(out[i + c]) == expected && out[i + 3] == premultiplied[i + 3], "width \(width), byte \(i + c)")
                    }
                }
            }
        }
    }

    @Test func premultipliesWithRounding() throws {
        let image = try Bitmap(width: 3, height: 1, straightRGBA: [255, 128, 1, 128, 200, 100, 50, 0, 9, 9, 9, 255])
        #expect(image[0, 0] == RGBA8(r: 128, g: 64, b: 1, a: 128))
        #expect(image[1, 0] == RGBA8(r: 0, g: 0, b: 0, a: 0))
        #expect(image[2, 0] == RGBA8(r: 9, g: 9, b: 9, a: 255))
        #expect(image.straightRGBA[0...3] == [255, 128, 2, 128])
    }

    @Test func cropsAndChecksBounds() throws {
        let image = TestImages.noise(width: 7, height: 5, seed: 1)
        let crop = try image.cropped(x: 2, y: 1, width: 4, height: 3)
        #expect(crop.width == 4 && crop.height == 3)
        for y in 0..<3 { for x in 0..<4 { #expect(crop[x, y] == image[x + 2, y + 1]) } }
        #expect(throws: BitmapError.self) { try image.cropped(x: 5, y: 0, width: 3, height: 1) }
        #expect(throws: BitmapError.self) { try image.cropped(x: 0, y: 0, width: 0, height: 1) }
        #expect(throws: BitmapError.self) { try image.cropped(x: -1, y: 0, width: 1, height: 1) }
    }

    @Test(arguments: ImageOrientation.allCases)
    func orientationsMoveTheCornersWhereEXIFSays(_ orientation: ImageOrientation) throws {
        // Stored 3 × 2; mark the stored top-left and top-right pixels.
        var stored = try Bitmap(width: 3, height: 2)
        let tl = RGBA8(r: 255, g: 0, b: 0, a: 255), tr = RGBA8(r: 0, g: 255, b: 0, a: 255)
        stored[0, 0] = tl
        stored[2, 0] = tr
        let shown = stored.oriented(orientation)
        #expect(shown.width == (orientation.swapsAxes ? 2 : 3))
        let (w, h) = (shown.width - 1, shown.height - 1)
        // Where the stored top-left and top-right end up (EXIF 2.3, tag 0x0112).
        let expected: ((Int, Int), (Int, Int)) =
            switch orientation {
            case .up: ((0, 0), (w, 0))
            case .upMirrored: ((w, 0), (0, 0))
            case .down: ((w, h), (0, h))
            case .downMirrored: ((0, h), (w, h))
            case .leftMirrored: ((0, 0), (0, h))
            case .right: ((w, 0), (w, h))
            case .rightMirrored: ((w, h), (w, 0))
            case .left: ((0, h), (0, 0))
            }
        #expect(shown[expected.0.0, expected.0.1] == tl)
        #expect(shown[expected.1.0, expected.1.1] == tr)
    }

    @Test func limitIsConfigurable() throws {
        let saved = ImageLimits.maximumPixelCount
        defer { ImageLimits.maximumPixelCount = saved }
        ImageLimits.maximumPixelCount = 2_000_000
        #expect(throws: BitmapError.tooLarge(width: 2000, height: 1001, limit: 2_000_000)) {
            try Bitmap(width: 2000, height: 1001)
        }
    }
}

@Suite struct MemoryBudgetTests {
    @Test func estimatesAreCheckedAgainstTheBudget() throws {
        #expect(ImageLimits.defaultMemoryBudget == 4 << 30)
        try ImageLimits.checkBudget(GaussianBlur.estimatedBytes(width: 6000, height: 4000), for: "blur")
        #expect(throws: BudgetError.self) { try ImageLimits.checkBudget(GaussianBlur.estimatedBytes(width: 1 << 20, height: 1 << 20), for: "blur") }
        do {
            try ImageLimits.checkBudget(5 << 30, for: "material")
            Issue.record("5 GiB passed a 4-GiB budget")
        } catch {
            #expect(error.description == "material needs about 5120 MB, over the memory budget of 4096 MB")
        }
        // A share of the budget (a frame's, several rendered at once) is said as one: before, it read
        // as the whole budget ("memory budget of 750 MB" under --memory-budget 1500).
        do {
            try ImageLimits.checkBudget(3 << 30, within: 2 << 30, for: "frames")
            Issue.record("3 GiB passed a 2-GiB share")
        } catch {
            #expect(error.description == "frames needs about 3072 MB, over its share of the memory budget, 2048 of 4096 MB")
        }
        #expect(GaussianBlur.estimatedBytes(width: .max, height: 2) == .max)
        #expect(VariableBlurEffect.estimatedBytes(width: 100, height: 100) > GaussianBlur.estimatedBytes(width: 100, height: 100))
        #expect(Material.estimatedBytes(width: 10, height: 10) > 0)
    }
}
