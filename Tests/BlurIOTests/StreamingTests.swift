import BlurCore
import BlurIO
import BlurTestSupport
import Foundation
import Testing

/// The streaming chain against the whole-image API: the same bytes for every band size, thread
/// count, σ, edge mode and codec; its own accounting of what it holds; failures that leave nothing.
@Suite struct StreamingTests {
    /// Every row of `stage` over `image`, pulled in bands of `band` rows.
    static func streamed(_ image: Bitmap, _ stage: any RowStage, band: Int, parts: Int?) throws -> Bitmap {
        try StagedSource(stage, over: BitmapSource(image), parts: parts, bandRows: band).collect(bandRows: band)
    }

    static let sigmas: [Double] = [0.5, 1, 2, 3.9, 4, 6, 8, 24, 64]

    @Test(arguments: [EdgeMode.clamp, .transparent])
    func theGaussianStreamedIsTheWholeImageBlur(edges: EdgeMode) throws {
        let image = TestImages.noise(width: 83, height: 97, seed: 14)
        for sigma in Self.sigmas {
            let blur = try GaussianBlur(sigma: sigma, edges: edges)
            let whole = blur.fastPath(image)
            // Band sizes: one row, a prime, the whole image; one thread and several.
            for (band, parts) in [(1, 1), (7, 3), (97, nil), (13, 2)] as [(Int, Int?)] {
                let rows = try Self.streamed(image, blur.stage(width: image.width, height: image.height), band: band, parts: parts)
                #expect(rows == whole, "σ \(sigma), bands of \(band), \(parts.map(String.init) ?? "all") parts")
            }
        }
    }

    /// Area-average resizing streamed (a chunk of source rows at a time) is `resized`, to any size.
    @Test func shrinkingStreamedIsTheWholeImageResize() throws {
        let image = TestImages.noise(width: 301, height: 203, seed: 5)
        for (w, h) in [(1, 1), (7, 5), (100, 67), (150, 202), (301, 203)] {
            let stage = AreaAverageStage(sourceWidth: 301, sourceHeight: 203, width: w, height: h)
            for band in [1, 3, h] {
                let rows = try StagedSource(stage, over: BitmapSource(image), parts: 1, bandRows: band).collect(
                    bandRows: band, scale: Double(w) / 301)
                #expect(rows == (try image.resized(width: w, height: h)), "\(w)×\(h), bands of \(band)")
            }
        }
    }

    /// Placeholders from a file (streamed: a PNG shrunk as its rows arrive) are those of the
    /// decoded image, for every size and with or without a ThumbHash.
    @Test(arguments: [ImageFormat.png, .jpeg, .pam])
    func placeholdersFromFilesAreThoseOfTheDecodedImage(format: ImageFormat) throws {
        let folder = TestImages.temporaryFolder()
        let path = folder + "/in.\(format)"
        try ImageFile.write(TestImages.translucentPhoto, to: path)
        let decoded = try ImageFile.read(path)
        for side in [8, 32, 64, 200] {
            for hash in [true, false] {
                let streamed = try Placeholder.make(fromFile: path, longestSide: side, thumbHash: hash)
                let fromBytes = try Placeholder.make(from: AtomicFile.read(path), longestSide: side, thumbHash: hash)
                #expect(streamed.preview == fromBytes.preview && streamed.thumbHash == fromBytes.thumbHash)
                #expect((streamed.sourceWidth, streamed.sourceHeight) == (451, 300))
                if format != .jpeg {
                    let whole = Placeholder.placeholder(of: decoded, longestSide: side, thumbHash: hash)
                    #expect(streamed.preview == whole.preview && streamed.thumbHash == whole.thumbHash, "\(format) \(side) px")
                }
            }
        }
    }

    /// The material as a stage is `Material.render`, byte for byte: reduced (factor 8, 4, 2) and full
    /// size, rounded corners, a region inside and one touching the edges, light and dark, any bands.
    @Test func theMaterialStreamedIsTheWholeImageMaterial() throws {
        var image = TestImages.translucentPhoto
        image.scale = 2
        let cases: [(Material, Rect, Appearance)] = [
            (Material(style: .systemMaterial), Rect(x: 0, y: 0, width: 225.5, height: 150), .light),
            (Material(style: .systemThinMaterial, cornerRadius: 12), Rect(x: 20, y: 30, width: 150, height: 80), .dark),
            (Material(style: .systemThickMaterial, blurEffectRadius: 6), Rect(x: 10, y: 100, width: 200, height: 60), .light),
            (
                Material(style: .systemUltraThinMaterialDark, blurEffectRadius: 2, cornerRadius: 8), Rect(x: -10, y: -5, width: 100, height: 200),
                .dark
            ),
        ]
        for (material, frame, appearance) in cases {
            let whole = material.render(over: image, frame: frame, appearance: appearance)
            for (band, parts) in [(1, 1), (7, 3), (300, nil)] as [(Int, Int?)] {
                let stage = try #require(material.stage(width: 451, height: 300, scale: 2, frame: frame, appearance: appearance, threads: parts))
                let rows = try StagedSource(stage, over: BitmapSource(image), parts: parts, bandRows: band).collect(bandRows: band, scale: 2)
                #expect(rows == whole, "\(material.style) over \(frame), bands of \(band)")
            }
        }
    }

    /// The progressive blur as a stage, in every direction, is `VariableBlurEffect.render`, byte for
    /// byte, whatever the bands and threads: direct lines only, direct and pyramid lines mixed, a
    /// region with its dimming extension.
    @Test func theProgressiveBlurStreamedIsTheWholeImageRender() throws {
        var image = TestImages.translucentPhoto
        image.scale = 2
        var cases: [(VariableBlurEffect, Rect)] = []
        let directions: [(GradientDirection, Double)] = [
            (.down, 1.5), (.up, 12), (.down, 32), (.up, 100), (.left, 1.5), (.right, 12), (.left, 32), (.right, 100),
        ]
        for (direction, radius) in directions {
            var effect = VariableBlurEffect(direction: direction)
            effect.maximumBlurRadius = radius
            cases.append((effect, Rect(x: 0, y: 0, width: 225.5, height: 150)))
            effect.minimumBlurRadius = radius / 4
            effect.dimmingTintColor = nil
            cases.append((effect, Rect(x: 20, y: 30, width: 150, height: 60)))
            effect.blurMaximumRadiusInset = .relative(fraction: 0.4)
            cases.append((effect, Rect(x: 0, y: 10, width: 225.5, height: 130)))
        }
        for (effect, frame) in cases {
            let whole = effect.render(over: image, frame: frame, appearance: .dark)
            #expect(whole != image, "the case draws something")
            for (band, parts) in [(1, 1), (7, 3), (300, nil)] as [(Int, Int?)] {
                let stage = effect.stage(width: 451, height: 300, scale: 2, frame: frame, appearance: .dark)
                let rows = try StagedSource(stage, over: BitmapSource(image), parts: parts, bandRows: band).collect(bandRows: band, scale: 2)
                #expect(rows == whole, "\(effect.direction), radius \(effect.maximumBlurRadius) over \(frame), bands of \(band)")
            }
        }
    }

    /// A stage that needs the whole image does its work inside the first band; it asks the chain's
    /// checkpoint between its own bands there, so a deadline stops it part way, not after the
    /// image (the progressive blur left/right, and the whole-image stage of the reference kernels).
    @Test func aWholeImageStageStopsInsideItsFirstBandWhenTheCheckpointThrows() throws {
        struct Stop: Error {}
        let image = TestImages.noise(width: 300, height: 200, seed: 9)
        var effect = VariableBlurEffect(direction: .left)
        effect.maximumBlurRadius = 12
        let frame = Rect(x: 0, y: 0, width: 300, height: 200)
        let stages: [(String, () -> any RowStage)] = [
            ("progressive left", { effect.stage(width: 300, height: 200, scale: 1, frame: frame) }),
            ("whole image", { WholeImageStage(width: 300, height: 200) { $0 } }),
        ]
        for (name, stage) in stages {
            var asked = 0
            let chain = StagedSource(stage(), over: BitmapSource(image), parts: 1, bandRows: 16) {
                asked += 1
                if asked == 3 { throw Stop() }
            }
            var target = try Bitmap(width: 300, height: 16)
            #expect(throws: Stop.self, "\(name)") { try target.withMutablePixels { try chain.read(into: $0.band(0..<16)) } }
            #expect(asked == 3, "\(name): asked \(asked) times")
            // Never stopped, the same stage gives the whole-image bytes.
            var counted = 0
            let whole = try StagedSource(stage(), over: BitmapSource(image), parts: 1, bandRows: 16) { counted += 1 }.collect(bandRows: 16)
            #expect(counted > 3, "\(name): asked \(counted) times in all")
            #expect(whole == stage().run(image, parts: 1), "\(name)")
        }
    }

    /// A prefetching source (a thread of its own, a queue of bands) changes nothing either.
    @Test func readingAheadOnAnotherThreadChangesNoByte() throws {
        let image = TestImages.noise(width: 64, height: 211, seed: 3)
        let blur = try GaussianBlur(sigma: 8)
        let chain = StagedSource(blur.stage(width: 64, height: 211), over: PrefetchedSource(BitmapSource(image), bandRows: 5), bandRows: 16)
        #expect(try chain.collect(bandRows: 11) == blur.fastPath(image))
    }

    /// Codecs: the streamed decoders give the whole-image decoders' pixels, and the sinks the
    /// whole-image encoders' bytes.
    @Test(arguments: [true, false])
    func codecsStreamedAreTheWholeImageCodecs(opaque: Bool) throws {
        let folder = TestImages.temporaryFolder()
        // Wide enough that a PNG has several strips (256 KiB each).
        let image = TestImages.noise(width: 700, height: 240, seed: opaque ? 1 : 2, opaque: opaque)
        for format in [ImageFormat.png, .jpeg, .pam, .ppm] {
            let whole = try ImageFile.encode(image, as: format)
            let path = folder + "/out.\(format)"
            let file = try OutputFile(path: path)
            let sink = try ImagePipeline.sink(
                for: .init(format: format), width: image.width, height: image.height, alpha: !image.isOpaque, output: file, parts: 3)
            try ImagePipeline.drain(BitmapSource(image), into: sink, bandRows: 9)
            try file.commit()
            #expect(try AtomicFile.read(path) == whole, "\(format): the streamed file is the whole-image file")

            let (source, knownOpaque, _) = try ImagePipeline.open(try InputFile(path: path))
            #expect(knownOpaque == (format == .jpeg || format == .ppm || (opaque && format != .pam)), "\(format)")
            #expect(try source.collect(bandRows: 7) == ImageFile.decode(whole), "\(format): streamed rows are the decoded image")
        }
    }

    /// PNG strips, at every level and both colour types, read back by libpng and by Pillow.
    @Test func multiStripPNGIsReadByAnotherDecoder() throws {
        let folder = TestImages.temporaryFolder()
        let photo = TestImages.translucentPhoto
        for (level, image) in [(0, photo), (1, TestImages.photo), (9, photo)] {
            let bytes = try PNGCodec.encode(image, level: level)
            #expect(try PNGCodec.decode(bytes) == image)
            try AtomicFile.write(bytes, to: folder + "/l\(level).png")
            let (info, frames) = try IndependentDecoderTests.readWithPillow(folder + "/l\(level).png")
            #expect(info.width == image.width && info.height == image.height)
            #expect(frames.first == image, "Pillow reads the level-\(level) file as written")
        }
    }

    /// Reads every row of `chain` in bands of the default size into one band's buffer, discarding them.
    static func drain(_ chain: StagedSource) throws {
        let (w, h) = (chain.width, chain.height)
        let band = StreamingDefaults.bandRows(width: w)
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: band * w * 4)
        defer { buffer.deallocate() }
        var y = 0
        while y < h {
            let rows = min(band, h - y)
            try chain.read(into: MutablePixelView(base: buffer, width: w, height: rows, bytesPerRow: w * 4, firstRow: y))
            y += rows
        }
    }

    /// What the chain holds, from its own accounting (window and intermediate rows as allocated),
    /// for a 3000 × 6000 image (72 MB): under a sixteenth of the image, whatever σ.
    @Test(arguments: [0.8, 2, 3.9, 8, 24, 64])
    func blurringHoldsAWindowNotTheImage(sigma: Double) throws {
        let (w, h, fraction) = (3000, 6000, 16)
        let blur = try GaussianBlur(sigma: sigma)
        let chain = StagedSource(blur.stage(width: w, height: h), over: ZeroRows(width: w, height: h))
        try Self.drain(chain)
        #expect(chain.heldBytes > 0)
        #expect(chain.heldBytes < w * h * 4 / fraction, "σ \(sigma): \(chain.heldBytes) bytes held")
    }

    /// The progressive blur over a band of the image holds what its estimate says, past the band
    /// too: the rows below a region were all kept once the region was done (a 64-pt band at the
    /// top of a 24-MP photo held 150 MB against an estimate of 11).
    @Test(arguments: [(0, 64), (1000, 64), (2936, 64)])
    func aProgressiveBandHoldsAWindowNotTheRestOfTheImage(top: Int, rows bandHeight: Int) throws {
        let (w, h) = (1500, 3000)
        var effect = VariableBlurEffect(direction: .down)
        effect.maximumBlurRadius = 6
        let stage = effect.stage(width: w, height: h, scale: 1, frame: Rect(x: 0, y: Double(top), width: Double(w), height: Double(bandHeight)))
        let chain = StagedSource(stage, over: ZeroRows(width: w, height: h))
        let estimate = chain.heldBytes
        try Self.drain(chain)
        #expect(chain.heldBytes <= estimate, "a band at row \(top): \(chain.heldBytes) bytes held, \(estimate) estimated")
        #expect(chain.heldBytes < w * h * 4 / 8, "a band at row \(top): \(chain.heldBytes) bytes held")
    }

    /// A file cut short in its pixel data fails partway through the stream: an error naming the
    /// format, and no output file.
    @Test(arguments: [ImageFormat.png, .jpeg, .pam])
    func aDecodeErrorMidStreamLeavesNoFile(format: ImageFormat) throws {
        let folder = TestImages.temporaryFolder()
        let image = TestImages.noise(width: 300, height: 200, seed: 9, opaque: true)
        let bytes = try ImageFile.encode(image, as: format)
        try AtomicFile.write(Array(bytes.prefix(bytes.count * 2 / 3)), to: folder + "/cut")
        let (source, _, _) = try ImagePipeline.open(try InputFile(path: folder + "/cut"))
        let file = try OutputFile(path: folder + "/out.png")
        let sink = try ImagePipeline.sink(for: .init(format: .png), width: 300, height: 200, alpha: false, output: file)
        #expect(throws: DecodingError.self) { try ImagePipeline.drain(source, into: sink) }
        file.discard()
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["cut"])
    }
}

/// Rows of zeros: a source of any size that costs no memory of its own.
final class ZeroRows: RowSource {
    let width: Int, height: Int
    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }
    var heldBytes: Int { 0 }
    func read(into rows: MutablePixelView) throws {
        for y in rows.rows { rows.row(y).update(repeating: 0, count: width * 4) }
    }
}
