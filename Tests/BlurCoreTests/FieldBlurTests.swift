import BlurCore
import BlurTestSupport
import Foundation
import Testing

/// The blur of a σ field (the ramp at any angle, blur areas) against its float64 reference, and
/// the same bytes whatever the threads and bands.
@Suite struct FieldBlurTests {
    static let bar = (psnr: 58.0, maximum: 3)

    /// A piece of the photo with an alpha ramp (premultiplied), small enough for the O(σ²) reference.
    static let piece = try! TestImages.translucentPhoto.cropped(x: 150, y: 40, width: 120, height: 84)

    static func ramp(
        _ angle: Double, start: Double = 0.2, stop: Double = 0.8, maximum: Double = 10, tint: DynamicColor? = nil
    )
        -> VariableBlurEffect
    {
        var effect = VariableBlurEffect(direction: .down)
        effect.maximumBlurRadius = maximum
        effect.dimmingTintColor = tint
        effect.ramp = ProgressiveRamp(angle: angle, start: start, stop: stop)
        return effect
    }

    // Before: 1e-300° (a step across the row far beyond any Int) trapped the server.
    @Test(arguments: [0.0, 1, 30, 45, 89, 90, 91, 135, 179, 180, 200, 269, 270, 333, -45, 1e-300, -5e-324, 90 + 1e-13, 359.999_999_999_9, 1e-9])
    func rampAtAnyAngleMeetsTheBar(_ angle: Double) throws {
        let image = Self.piece
        let frame = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let effect = Self.ramp(angle, tint: .systemBackground)
        let d = ImageDifference(effect.reference(over: image, frame: frame), effect.render(over: image, frame: frame))
        #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "angle \(angle): \(d)")
    }

    /// The pyramid steps (σ ≥ 6) at a large maximum, in a region of the image, and start = stop.
    @Test(arguments: [(24.0, 0.0, 1.0), (24, 0.5, 0.5), (16, 0, 0.3), (3, 0.1, 0.9)])
    func rampShapesMeetTheBar(_ shape: (maximum: Double, start: Double, stop: Double)) throws {
        let image = try TestImages.photo.cropped(x: 200, y: 100, width: 72, height: 56)
        let frame = Rect(x: 6, y: 4, width: 60, height: 46)
        let effect = Self.ramp(57, start: shape.start, stop: shape.stop, maximum: shape.maximum)
        let reference = effect.reference(over: image, frame: frame), fast = effect.render(over: image, frame: frame)
        let d = ImageDifference(reference, fast)
        #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "\(shape): \(d)")
        // Outside the frame nothing changes.
        let outside = try image.cropped(x: 0, y: 0, width: 72, height: 4)
        #expect(try fast.cropped(x: 0, y: 0, width: 72, height: 4) == outside)
    }

    /// Clockwise from down: 90° is `right` (full at the right), so the right edge is the blurriest.
    @Test func angleNamesTheWayTheWordsDo() throws {
        let image = TestImages.noise(width: 64, height: 64, seed: 3, opaque: true)
        let frame = Rect(x: 0, y: 0, width: 64, height: 64)
        func detail(_ b: Bitmap, x: Int, y: Int) throws -> Double {
            let tile = try b.cropped(x: x, y: y, width: 8, height: 8)
            let p = tile.premultipliedRGBA.map(Double.init), mean = p.reduce(0, +) / Double(p.count)
            return p.reduce(0) { $0 + ($1 - mean) * ($1 - mean) }
        }
        for (angle, full, clear) in [(0.0, (28, 0), (28, 56)), (90, (56, 28), (0, 28)), (180, (28, 56), (28, 0)), (270, (0, 28), (56, 28))] {
            let out = Self.ramp(angle, start: 0, stop: 1, maximum: 6).render(over: image, frame: frame)
            #expect(try detail(out, x: full.0, y: full.1) < detail(out, x: clear.0, y: clear.1), "angle \(angle)")
        }
    }

    /// A ramp over a frame partly outside the image is measured across the frame (the view), not
    /// the part of it inside the image: its σ at a pixel is the whole frame's.
    @Test func rampIsMeasuredAcrossTheFrame() throws {
        let whole = PixelRect(x: 0, y: 0, width: 200, height: 100), inside = PixelRect(x: 50, y: 20, width: 100, height: 60)
        let frame = Rect(x: 0, y: 0, width: 200, height: 100)
        let clipped = LinearRamp(degrees: 37, start: 0.1, stop: 0.9, minimum: 0, maximum: 12, region: inside, frame: frame)
        let full = LinearRamp(degrees: 37, start: 0.1, stop: 0.9, minimum: 0, maximum: 12, region: whole)
        var a = [Double](repeating: 0, count: 100), b = [Double](repeating: 0, count: 100)
        for y in inside.rows {
            a.withUnsafeMutableBufferPointer { clipped.sigmas(row: y, columns: inside.columns, into: $0.baseAddress!) }
            b.withUnsafeMutableBufferPointer { full.sigmas(row: y, columns: inside.columns, into: $0.baseAddress!) }
            #expect(a == b, "row \(y)")
        }
    }

    static func areas(_ text: String, sigma: Double = 8, feather: Double = 0) throws -> BlurAreasEffect {
        let operation = BlurOperation(BlurAreasOperation.self)
        let arguments = try operation.read(
            [("areas", text), ("sigma", formatNumber(sigma)), ("feather", formatNumber(feather))], as: .key, in: .javascript)
        return try BlurAreasOperation.effect(arguments)
    }

    @Test(arguments: [
        "rect:10,10,40,30", "ellipse:30%,20%,40%,50%:12:6", "rect:5,5,50,50,12:9:4;ellipse:40,30,60,40:4:20",
        "rect:-20,-20,50,50:10:8;rect:100,70,80,80:6", "ellipse:50,35,4,4:7:60", "rect:0,0,100%,100%:10",
    ])
    func areasMeetTheBar(_ text: String) throws {
        let image = Self.piece
        let effect = try Self.areas(text)
        let run = BlurOperation(BlurAreasOperation.self).image!
        let prepared = try run.prepare(try BlurOperation(BlurAreasOperation.self).read([("areas", text), ("sigma", "8")], as: .key, in: .javascript))
        let whole = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let fast = try prepared.draw(image, EffectContext(frame: whole, appearance: .light))
        let reference = FieldBlur.reference(image, field: effect.field(width: image.width, height: image.height, scale: image.scale))
        let d = ImageDifference(reference, fast)
        #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "\(text): \(d)")
        #expect(fast != image, "\(text) changed nothing")
    }

    /// An area wholly outside the image changes nothing; a thousand small ones draw.
    @Test func areasOutsideAndMany() throws {
        let image = Self.piece
        let outside = try Self.areas("rect:500,500,20,20:10:5;ellipse:-100,-100,50,50")
        #expect(try outside.render(image, threads: nil, checkpoint: {}) == image)
        let many = (0..<1000).map { i in "ellipse:\(i % 40 * 3),\(i / 40 * 3),4,4:\(1 + i % 7)" }.joined(separator: ";")
        let effect = try Self.areas(many)
        let d = ImageDifference(
            FieldBlur.reference(image, field: effect.field(width: 120, height: 84, scale: 1)), try effect.render(image, threads: nil, checkpoint: {}))
        #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "1000 areas: \(d)")
    }

    /// The same bytes whatever the threads and the bands, through the streaming chain too.
    @Test func sameBytesWhateverTheThreadsAndBands() throws {
        let image = TestImages.noise(width: 211, height: 157, seed: 11)
        let frame = Rect(x: 0, y: 0, width: 211, height: 157)
        let effect = Self.ramp(33, start: 0.1, stop: 0.7, maximum: 14, tint: .systemBackground)
        let one = effect.render(over: image, frame: frame, threads: 1)
        for threads in [2, 5] { #expect(effect.render(over: image, frame: frame, threads: threads) == one) }
        let stage = effect.stage(width: 211, height: 157, scale: 1, frame: frame)
        #expect(stage.run(image, parts: 3, bandRows: 7) == one)
        let areas = try Self.areas("ellipse:20,20,90,60:9:12;rect:100,80,60,60,10:20")
        let whole = try areas.render(image, threads: nil, checkpoint: {})
        for bands in [5, 16, 64] {
            let staged = BlurAreasOperation.stages(areas, width: 211, height: 157, scale: 1, in: EffectContext(frame: frame, appearance: .light))
            #expect(staged[0].run(image, parts: 2, bandRows: bands) == whole, "bands of \(bands)")
        }
    }

    /// The checkpoint is asked inside a band (every few rows), so a deadline stops a row-heavy field
    /// (ten thousand areas over the whole image, no pyramid step) before the band ends.
    @Test func checkpointIsAskedInsideABand() throws {
        let image = TestImages.noise(width: 64, height: 64, seed: 5)
        let effect = try Self.areas((0..<10_000).map { _ in "0,0,100%,100%:3" }.joined(separator: ";"))
        final class Count: @unchecked Sendable { var n = 0 }
        let count = Count()
        struct Stop: Error {}
        #expect(throws: Stop.self) {
            _ = try BlurAreasOperation.stages(
                effect, width: 64, height: 64, scale: 1, in: EffectContext(frame: Rect(x: 0, y: 0, width: 64, height: 64), appearance: .light))[0]
                .run(image, parts: 1, bandRows: 64) {
                    count.n += 1
                    if count.n > 1 { throw Stop() }
                }
        }
    }

    /// Every area form reads back from its text; bad ones are named.
    @Test func areaForms() throws {
        let read = try Self.areas("Ellipse:10%,20,30,40.5:3:2; rect:1,2,3,4,1.5 ;rectangle:0,0,5,5::7")
        #expect(read.areas.count == 3)
        #expect(read.areas[0].shape == .ellipse && read.areas[0].x == .fraction(0.1) && read.areas[0].sigma == 3 && read.areas[0].feather == 2)
        #expect(read.areas[1].cornerRadius == 1.5 && read.areas[1].sigma == nil)
        #expect(read.areas[2].sigma == nil && read.areas[2].feather == 7)
        #expect(try Self.areas(ParameterValue.areas(read.areas).text).areas == read.areas)
        for bad in ["", "circle:1,2,3,4", "1,2,3", "1,2,0,4", "ellipse:1,2,3,4,5", "1,2,3,4:-1", "1,2,3,4:1:2:3", "1,2,x,4", "1,2,3,4:3000"] {
            #expect(throws: ParameterError.self, "\(bad)") { try Self.areas(bad) }
        }
        // A coordinate past the range says the range.
        #expect(throws: ParameterError.self) { try Self.areas("1000001,0,5,5") }
        do { _ = try Self.areas("1000001,0,5,5") } catch { #expect("\(error)".contains("1000000"), "\(error)") }
        let tooMany = (0...BlurArea.most).map { _ in "1,1,1,1" }.joined(separator: ";")
        #expect(throws: ParameterError.self) { try Self.areas(tooMany) }
    }

    /// start after stop, an angle beside a word, and the gradient's lengths beside a ramp are refused.
    @Test func rampArgumentsAreChecked() throws {
        let operation = BlurOperation(ProgressiveBlurOperation.self)
        func effect(_ pairs: [(String, String)]) throws -> VariableBlurEffect {
            try ProgressiveBlurOperation.effect(try operation.read(pairs.map { (name: $0.0, value: $0.1) }, as: .query, in: .http))
        }
        #expect(try effect([("angle", "30")]).ramp == ProgressiveRamp(angle: 30))
        #expect(try effect([("direction", "left"), ("start", "0.5")]).ramp == ProgressiveRamp(angle: 270, start: 0.5))
        #expect(try effect([("direction", "up")]).ramp == nil)
        for bad in [
            [("start", "0.8"), ("stop", "0.2")], [("angle", "10"), ("direction", "up")], [("angle", "10"), ("blur-inset", "20")],
            [("angle", "400")], [("stop", "1.5")],
        ] {
            #expect(throws: ParameterError.self, "\(bad)") { try effect(bad) }
        }
    }
}

/// BlurUIKit's gradient and the scroll edge's band as σ fields (`LineField`): the ladder over the
/// field and the direction words' own schedule are both held to the field's float64 reference, so
/// the two are schedules of one computation (and the words keep their bytes).
@Suite struct LineFieldTests {
    static let image = try! TestImages.photo.cropped(x: 180, y: 60, width: 96, height: 72)

    @Test(arguments: GradientDirection.allCases)
    func theWordsScheduleAndTheLadderComputeTheGradientsField(_ direction: GradientDirection) throws {
        var effect = VariableBlurEffect(direction: direction)
        effect.maximumBlurRadius = 9
        effect.dimmingTintColor = nil
        let image = Self.image, frame = Rect(x: 4, y: 3, width: 86, height: 64)
        let field = try #require(effect.lineField(width: image.width, height: image.height, scale: 1, frame: frame))
        #expect(field.maximumSigma > 8 && field.maximumSigma <= 9)
        let reference = FieldBlur.reference(image, field: field)
        let ladder = try FieldBlur.render(image, field: field, threads: 1, checkpoint: {})
        let words = effect.render(over: image, frame: frame)
        for (name, fast) in [("ladder", ladder), ("words", words)] {
            let d = ImageDifference(reference, fast)
            #expect(d.psnr >= FieldBlurTests.bar.psnr && d.maximum <= FieldBlurTests.bar.maximum, "\(direction) \(name): \(d)")
        }
        // The field is the words' own: their float64 reference is the field's.
        #expect(ImageDifference(reference, effect.reference(over: image, frame: frame)).maximum <= 1)
    }

    @Test(arguments: [ScrollEdgeStyle.soft, .hard], [ScrollEdge.top, .leading])
    func theScrollEdgesBandIsAField(_ style: ScrollEdgeStyle, _ edge: ScrollEdge) throws {
        var effect = ScrollEdgeEffect()
        effect.style = style
        effect.edge = edge
        effect.height = 30
        effect.maximumBlurRadius = 5
        let image = Self.image, frame = Rect(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let field = try #require(effect.field(width: image.width, height: image.height, scale: 1, frame: frame))
        // Inside the band only, and the whole maximum at the edge.
        let band = effect.band(in: frame)
        #expect(field.region == band.pixelRect(scale: 1, clippedTo: image.width, image.height))
        #expect(abs(field.maximumSigma - 5) < 0.5)
        let d = ImageDifference(FieldBlur.reference(image, field: field), try FieldBlur.render(image, field: field, threads: 2, checkpoint: {}))
        #expect(d.psnr >= FieldBlurTests.bar.psnr && d.maximum <= FieldBlurTests.bar.maximum, "\(style) \(edge): \(d)")
    }
}
