import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Testing

/// Placeholders against what they promise, computed here: the fitted size, the preview as the exact
/// area average of the image, the average colour as the exact mean, and the JPEG path (DCT scaling
/// at ½ … ⅛, EXIF orientation) giving what a full decode would.
@Suite struct PlaceholderTests {
    /// The exact area average of `image` resized to `w × h`, premultiplied, in Double.
    static func areaAverage(_ image: Bitmap, width w: Int, height h: Int) -> [SIMD4<Double>] {
        let sx = Double(image.width) / Double(w), sy = Double(image.height) / Double(h)
        func overlap(_ i: Int, _ scale: Double, _ k: Int) -> Double {
            max(0, min(Double(i + 1) * scale, Double(k + 1)) - max(Double(i) * scale, Double(k)))
        }
        var out: [SIMD4<Double>] = []
        for y in 0..<h {
            for x in 0..<w {
                var sum = SIMD4<Double>.zero, weight = 0.0
                for v in Int(Double(y) * sy)..<min(image.height, Int((Double(y + 1) * sy).rounded(.up))) {
                    let wy = overlap(y, sy, v)
                    for u in Int(Double(x) * sx)..<min(image.width, Int((Double(x + 1) * sx).rounded(.up))) {
                        let p = image[u, v], wxy = overlap(x, sx, u) * wy
                        sum += wxy * SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a))
                        weight += wxy
                    }
                }
                out.append(sum / weight)
            }
        }
        return out
    }

    @Test func theSizeFitsTheLongestSideAndKeepsTheAspect() throws {
        for (w, h, longest) in [(451, 300, 32), (300, 451, 32), (1000, 1, 32), (1, 1000, 10), (20, 10, 32), (64, 64, 64), (3, 2, 1)] {
            let image = try Bitmap(width: w, height: h)
            let (fw, fh) = image.sizeFitting(longestSide: longest)
            if max(w, h) <= longest {
                #expect((fw, fh) == (w, h))
            } else {
                let f = Double(longest) / Double(max(w, h))
                #expect(fw == max(1, Int((Double(w) * f).rounded())) && fh == max(1, Int((Double(h) * f).rounded())), "\(w)×\(h) → \(fw)×\(fh)")
                #expect(max(fw, fh) == longest)
            }
        }
    }

    @Test(arguments: [false, true])
    func thePreviewIsTheAreaAverageAndTheColourTheMean(_ thumbHash: Bool) throws {
        for image in [TestImages.photo, TestImages.translucentPhoto] {
            let placeholder = Placeholder.placeholder(of: image, longestSide: 32, thumbHash: thumbHash)
            let preview = placeholder.preview
            #expect((preview.width, preview.height) == image.sizeFitting(longestSide: 32))
            let exact = Self.areaAverage(image, width: preview.width, height: preview.height)
            var worst = 0.0
            for (i, e) in exact.enumerated() {
                let p = preview[i % preview.width, i / preview.width]
                let d = SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) - e
                worst = max(worst, abs(d[0]), abs(d[1]), abs(d[2]), abs(d[3]))
            }
            // Directly: rounding only. Through the ThumbHash's ≤ 100-px copy (a box of boxes whose
            // edges do not line up with the preview's): measured 5.4 and 6.2 levels on these photos.
            #expect(worst <= (thumbHash ? 7 : 1), "thumbHash \(thumbHash): \(worst)")
            // The average colour: the mean of the image (straight colour, mean alpha).
            var sum = SIMD4<Double>.zero
            for y in 0..<image.height {
                for x in 0..<image.width { let p = image[x, y]; sum += SIMD4(Double(p.r), Double(p.g), Double(p.b), Double(p.a)) }
            }
            let c = placeholder.averageColor, mean = sum / Double(image.width * image.height)
            #expect(abs(c.alpha * 255 - mean[3]) <= 1.5, "alpha \(c.alpha * 255) vs \(mean[3])")
            for (got, want) in zip([c.red, c.green, c.blue], [sum[0] / sum[3], sum[1] / sum[3], sum[2] / sum[3]]) {
                #expect(abs(got - want) * 255 <= 1.5, "\(got * 255) vs \(want * 255)")
            }
            #expect((placeholder.thumbHash != nil) == thumbHash)
        }
    }

    // The JPEG path decodes at ½ … ⅛ through DCT scaling; its previews match those of a full decode,
    // and an EXIF orientation that turns the image swaps the source size it reports.
    @Test(arguments: [(8, 2), (32, 4), (64, 8), (200, 1)])
    func jpegPlaceholdersMatchAFullDecode(_ longest: Int, _ expectedReduction: Int) throws {
        let photo = try TestImages.photo.resized(width: 400, height: 264)
        let jpeg = try JPEGCodec.encode(photo, quality: 95)
        let full = try JPEGCodec.decode(jpeg)
        let fast = try Placeholder.make(from: jpeg, longestSide: longest, thumbHash: false)
        let slow = Placeholder.placeholder(of: full, longestSide: longest, thumbHash: false)
        #expect((fast.sourceWidth, fast.sourceHeight) == (400, 264))
        #expect((fast.preview.width, fast.preview.height) == (slow.preview.width, slow.preview.height))
        let d = ImageDifference(fast.preview, slow.preview)
        #expect(d.psnr >= 30, "\(longest) px: \(d)")
        // The reduced decode the path relies on has the size DCT scaling gives.
        let reduced = try JPEGCodec.decode(jpeg, reduction: expectedReduction)
        #expect(
            (reduced.width, reduced.height) == ((400 + expectedReduction - 1) / expectedReduction, (264 + expectedReduction - 1) / expectedReduction))
        if expectedReduction > 1 {
            let box = try full.resized(width: reduced.width, height: reduced.height)
            #expect(ImageDifference(reduced, box).psnr >= 30, "½…⅛ decode at \(expectedReduction): \(ImageDifference(reduced, box))")
        }
    }

    @Test(arguments: [6, 8, 3])
    func anOrientationThatTurnsTheImageSwapsTheSourceSize(_ orientation: Int) throws {
        let jpeg = try JPEGCodecTests.orientedJPEG(orientation, bigEndian: orientation != 8)
        let placeholder = try Placeholder.make(from: jpeg, longestSide: 8, thumbHash: true)
        let swaps = orientation >= 5
        #expect((placeholder.sourceWidth, placeholder.sourceHeight) == (swaps ? (16, 32) : (32, 16)))
        #expect((placeholder.preview.width, placeholder.preview.height) == (swaps ? (4, 8) : (8, 4)))
        // The content turned too: the decoded, oriented image shrunk the same way.
        let upright = try JPEGCodec.decode(jpeg)
        let expected = Placeholder.placeholder(of: upright, longestSide: 8, thumbHash: false).preview
        #expect(ImageDifference(placeholder.preview, expected).maximum <= 24)
    }

    // Before: with the pixel limit lowered after an image was made, its ThumbHash or placeholder
    // trapped in a `try!` (the 100-px copy or the 32-px hash image "over the limit").
    @Test func aLowerLimitLaterDoesNotTrapTheShrinkingPaths() throws {
        let image = TestImages.photo
        let hash = image.thumbHash()
        try ImageLimits.withMaximumPixelCount(10) {
            #expect(image.thumbHash() == hash)
            let placeholder = Placeholder.placeholder(of: image, longestSide: 32)
            #expect(placeholder.preview.width == 32 && placeholder.thumbHash == hash)
            let decoded = try Bitmap(thumbHash: hash)
            #expect(decoded.width * decoded.height > 10)
        }
    }
}

/// The manifest's order is the sorted paths', whatever order the file system lists a folder in.
@Suite struct PlaceholderManifestOrderTests {
    @Test func entriesFollowSortedPathsNotTheDirectoryOrder() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-order-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/in"
        try FileManager.default.createDirectory(atPath: folder + "/sub", withIntermediateDirectories: true)
        // Created in sorted order; ext4 lists them in hash order and tmpfs newest first.
        let tile = try Bitmap(width: 6, height: 4)
        var names: [String] = []
        for i in 0..<24 { names.append(String(format: "p%02d.png", i)) }
        names += ["sub/a.png", "sub/b.png", "Z.png"]
        for name in names { try ImageFile.write(tile, to: folder + "/" + name) }
        let listed = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".png") }
        try #require(listed != listed.sorted(), "this file system lists the folder sorted: the test would show nothing")

        let output = base + "/out"
        let batch = try PlaceholderBatch(operands: [folder], output: output, settings: .init(size: 4))
        let report = try batch.run(parallel: 2)
        #expect(report.made == names.count)
        let manifest = try #require(PlaceholderManifest.read(output + "/manifest.json", matching: batch.settings))
        #expect(manifest.images.map(\.file) == names.sorted())
        #expect(batch.jobs.map(\.input) == names.sorted().map { folder + "/" + $0 })
    }
}
