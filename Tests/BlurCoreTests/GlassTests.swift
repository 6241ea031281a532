import BlurCore
import BlurTestSupport
import Foundation
import Testing

/// Liquid Glass: the outline's geometry, the contract's promises, and the fast path against the
/// float64 reference (bounds below), parallel against serial.
@Suite struct GlassTests {
    /// What the fast path is held to on every case of ``fastPathMeetsTheReference``, and what it achieves
    /// (worst case measured): the blur's own bound plus the tone and the layer rounded to bytes.
    static let bar = (psnr: 50.0, maximum: 3)

    // Ring 1: the outline.

    @Test func capsuleDistanceIsNegativeInsideZeroOnTheEdgePositiveOutside() {
        // 240 × 64 pt at 1 px/pt: ends are half-discs of radius 32 centred at x = 32 and x = 208.
        let s = GlassSurface([(.capsule, Rect(x: 0, y: 0, width: 240, height: 64))], scale: 1, k: 0)
        #expect(abs(s.distance(120, 32) + 32) < 1e-9)
        #expect(abs(s.distance(120, 0)) < 1e-9 && abs(s.distance(0, 32)) < 1e-9 && abs(s.distance(240, 32)) < 1e-9)
        #expect(abs(s.distance(250, 32) - 10) < 1e-9)
        let diagonal = 32 / 2.squareRoot()
        #expect(abs(s.distance(32 - diagonal, 32 - diagonal)) < 1e-9, "on the end cap's arc")
        #expect(s.distance(1, 1) > 0, "outside the rounded end, inside the frame")
        for (x, y) in [(5.0, 32.0), (120, 5), (230, 40)] { #expect(s.distance(x, y) < 0) }
    }

    @Test func capsuleNormalsAreVerticalOnTheSidesAndRadialAtTheEnds() {
        let s = GlassSurface([(.capsule, Rect(x: 0, y: 0, width: 240, height: 64))], scale: 1, k: 0)
        #expect(abs(s.normal(120, 4).y + 1) < 1e-9 && abs(s.normal(120, 60).y - 1) < 1e-9)
        for angle in stride(from: 100.0, through: 260, by: 20) {
            let a = angle * .pi / 180, (cx, cy) = (cos(a), sin(a))
            let n = s.normal(32 + 28 * cx, 32 + 28 * cy)
            #expect(abs(n.x - cx) < 1e-3 && abs(n.y - cy) < 1e-3, "\(angle)°: \(n)")
        }
    }

    @Test func roundedRectangleNormalsAreRadialInTheCornersFromTheOpticalRadius() {
        // Corner radius 20 → optical radius 30: arc centre at (30, 30) from the top-left corner.
        let s = GlassSurface([(.roundedRectangle(cornerRadius: 20), Rect(x: 0, y: 0, width: 200, height: 120))], scale: 1, k: 0)
        for angle in stride(from: 190.0, through: 260, by: 10) {
            let a = angle * .pi / 180, (cx, cy) = (cos(a), sin(a))
            let n = s.normal(30 + 25 * cx, 30 + 25 * cy)
            #expect(abs(n.x - cx) < 1e-3 && abs(n.y - cy) < 1e-3, "\(angle)°: \(n)")
        }
        #expect(s.normal(100, 3) == SIMD2(0, -1) && s.normal(197, 60) == SIMD2(1, 0))
        #expect(abs(s.distance(100, 60) + 60) < 1e-9 && s.distance(0.5, 0.5) > 0 && s.distance(6, 6) < 0)
    }

    @Test func shapesCloserThanTheSpacingMerge() {
        // Two 40-pt squares 10 pt apart: the gap's midpoint is outside with spacing 0 or 4, inside with 12.
        let members: [(GlassShape, Rect)] = [
            (.roundedRectangle(cornerRadius: 0), Rect(x: 0, y: 0, width: 40, height: 40)),
            (.roundedRectangle(cornerRadius: 0), Rect(x: 50, y: 0, width: 40, height: 40)),
        ]
        #expect(GlassSurface(members, scale: 1, k: 0).distance(45, 20) == 5)
        let apart = GlassSurface(members, scale: 1, k: 8)
        #expect(apart.distance(45, 20) > 0 && apart.distance(50, 20) == 0, "a gap over twice the spacing: outlines untouched")
        #expect(GlassSurface(members, scale: 1, k: 24).distance(45, 20) < 0, "joined by a bridge")
        #expect(GlassSurface(members, scale: 2, k: 0).distance(90, 40) == 10, "points become pixels")
    }

    // Ring 1: the contract.

    static let frame = Rect(x: 12, y: 10, width: 90, height: 40)
    static var backdrop: Bitmap { try! TestImages.photo.cropped(x: 150, y: 60, width: 120, height: 70) }

    static let effects: [GlassEffect] = {
        var all: [GlassEffect] = []
        for variant in [GlassVariant.regular, .clear] {
            for appearance in Appearance.allCases {
                all.append(GlassEffect(variant, appearance: appearance))
            }
        }
        all.append(GlassEffect(.regular, tint: Color(red: 0.1, green: 0.5, blue: 1, alpha: 0.3), shape: .roundedRectangle(cornerRadius: 12)))
        all.append(GlassEffect(.clear, shape: .roundedRectangle, appearance: .dark, reduceTransparency: true))
        all.append(GlassEffect(.regular, appearance: .dark, increaseContrast: true, dispersion: 1))
        all.append(
            GlassEffect(
                .clear, tint: Color(red: 1, green: 0.2, blue: 0.1, alpha: 0.5), reduceTransparency: true, increaseContrast: true, dispersion: 0.5))
        return all
    }()

    @Test func identityLeavesTheBytesUnchanged() {
        let image = Self.backdrop
        for scale in [1.0, 2] {
            let same = GlassEffect(.identity).render(over: image, frame: Self.frame, scale: scale) == image
            #expect(same)
        }
        let same = GlassEffect(.identity).reference(over: image, frame: Self.frame, scale: 1) == image
        #expect(same)
    }

    @Test func nothingIsDrawnForAnEmptyFrameABadScaleOrAFrameOutside() {
        let image = Self.backdrop
        let effect = GlassEffect()
        for (frame, scale) in [
            (Rect(x: 0, y: 0, width: 0, height: 20), 1.0), (Self.frame, .nan), (Self.frame, 0), (Rect(x: 500, y: 0, width: 40, height: 20), 1),
        ] {
            let same = effect.render(over: image, frame: frame, scale: scale) == image
            #expect(same, "\(frame) ×\(scale)")
        }
    }

    @Test func opaqueStaysOpaque() {
        let image = Self.backdrop
        for effect in Self.effects {
            #expect(effect.render(over: image, frame: Self.frame, scale: 1).isOpaque, "\(effect)")
        }
    }

    /// Clear casts no shadow: every pixel whose centre is outside the outline by half a pixel keeps its
    /// bytes. Regular's shadow only darkens, and nothing past its reach changes.
    @Test func outsideTheShapeOnlyTheOuterShadowChanges() {
        let image = Self.backdrop, scale = 1.0
        let surface = GlassSurface([(.capsule, Self.frame)], scale: scale, k: 0)
        for effect in [GlassEffect(.clear), GlassEffect(.clear, appearance: .dark), GlassEffect(.regular), GlassEffect(.regular, appearance: .dark)] {
            let out = effect.render(over: image, frame: Self.frame, scale: scale)
            for y in 0..<image.height {
                for x in 0..<image.width {
                    let d = surface.distance(Double(x) + 0.5, Double(y) + 0.5)
                    guard d >= 0.5 else { continue }
                    let (a, b) = (image[x, y], out[x, y])
                    if effect.variant == .clear || d > 7 {
                        #expect(a == b, "\(effect.variant) (\(x), \(y)) at \(d) px")
                    } else {
                        #expect(b.r <= a.r && b.g <= a.g && b.b <= a.b && b.a == 255, "\(effect.variant) (\(x), \(y))")
                    }
                }
            }
        }
    }

    @Test func validationNamesTheParameter() throws {
        #expect(throws: ParameterError.self) { try GlassEffect(dispersion: 2).validated() }
        #expect(throws: ParameterError.self) { try GlassEffect(shape: .roundedRectangle(cornerRadius: -1)).validated() }
        do {
            _ = try GlassEffect(dispersion: .nan).validated()
            Issue.record("NaN dispersion accepted")
        } catch { #expect(error.parameter == "dispersion") }
        do {
            var tint = Color.white
            tint.alpha = 1.5
            _ = try GlassEffect(tint: tint).validated()
            Issue.record("tint alpha 1.5 accepted")
        } catch { #expect(error.parameter == "tint") }
        do {
            _ = try GlassContainer(spacing: -1, members: []).validated()
            Issue.record("negative spacing accepted")
        } catch { #expect(error.parameter == "spacing") }
        _ = try GlassEffect(.clear, tint: .black, shape: .roundedRectangle, dispersion: 1).validated()
    }

    @Test func storedDefaultsAreTheTablesDefaults() {
        let effect = GlassEffect()
        #expect(effect.dispersion == GlassEffect.dispersionSpec.defaultValue)
        #expect(effect.variant == GlassVariant.spec.defaultValue && effect.appearance == Appearance.spec.defaultValue)
        #expect(effect.shape == .capsule && effect.tint == nil && !effect.reduceTransparency && !effect.increaseContrast)
        #expect(GlassShape.roundedRectangle == .roundedRectangle(cornerRadius: GlassShape.cornerRadiusSpec.defaultValue!))
        #expect(GlassContainer(members: []).spacing == GlassContainer.spacingSpec.defaultValue)
        #expect(GlassShape.capsule.cornerRadius(width: 30, height: 10) == 5)
        #expect(GlassShape.roundedRectangle(cornerRadius: 40).cornerRadius(width: 30, height: 10) == 5)
        #expect(GlassShape.roundedRectangle(cornerRadius: .nan).cornerRadius(width: 30, height: 10) == 0)
    }

    // Ring 2: fast path against the reference; parallel against serial.

    @Test func fastPathMeetsTheReference() {
        let opaque = Self.backdrop
        let translucent = try! TestImages.translucentPhoto.cropped(x: 150, y: 60, width: 120, height: 70)
        let small = Rect(x: 6, y: 5, width: 45, height: 24)
        var worst = (psnr: Double.infinity, maximum: 0)
        // The last three blur the whole depth widely: the layer is reduced by 2, 4 and 2.
        for (effect, image, scale, frame) in Self.effects.map({ ($0, opaque, 1.0, Self.frame) }) + [
            (GlassEffect(), opaque, 2, small), (GlassEffect(.clear, appearance: .dark), opaque, 2, small),
            (GlassEffect(.regular, dispersion: 1), translucent, 1, Self.frame),
            (GlassEffect(.clear, reduceTransparency: true), translucent, 1, Self.frame),
            (GlassEffect(.regular, reduceTransparency: true), opaque, 2, small),
            (
                GlassEffect(.regular, shape: .roundedRectangle, appearance: .dark, reduceTransparency: true), opaque, 3,
                Rect(x: 4, y: 3, width: 38, height: 21)
            ),
            (
                GlassEffect(.regular, shape: .roundedRectangle), try! TestImages.photo.cropped(x: 100, y: 40, width: 220, height: 220), 1,
                Rect(x: 16, y: 16, width: 188, height: 188)
            ),
        ] {
            let d = ImageDifference(effect.reference(over: image, frame: frame, scale: scale), effect.render(over: image, frame: frame, scale: scale))
            #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "\(effect) ×\(scale): \(d)")
            worst = (min(worst.psnr, d.psnr), max(worst.maximum, d.maximum))
        }
        let members = [
            GlassContainer.Member(frame: Rect(x: 8, y: 10, width: 44, height: 30)),
            GlassContainer.Member(.roundedRectangle(cornerRadius: 8), frame: Rect(x: 58, y: 14, width: 50, height: 40)),
        ]
        for effect in [GlassEffect(), GlassEffect(.clear, appearance: .dark)] {
            let container = GlassContainer(effect: effect, spacing: 8, members: members)
            let d = ImageDifference(container.reference(over: opaque, scale: 1), container.render(over: opaque, scale: 1))
            #expect(d.psnr >= Self.bar.psnr && d.maximum <= Self.bar.maximum, "container \(effect): \(d)")
            worst = (min(worst.psnr, d.psnr), max(worst.maximum, d.maximum))
        }
        print("glass fast vs reference, worst: PSNR \(worst.psnr) dB, max \(worst.maximum)")
    }

    @Test func sameBytesWhateverTheThreadCount() {
        let image = TestImages.noise(width: 300, height: 200, seed: 11, opaque: true)
        let members = [
            GlassContainer.Member(frame: Rect(x: 10, y: 20, width: 120, height: 50)),
            GlassContainer.Member(.roundedRectangle(cornerRadius: 10), frame: Rect(x: 140, y: 30, width: 140, height: 150)),
        ]
        for effect in [GlassEffect(), GlassEffect(.clear, appearance: .dark, dispersion: 1)] {
            let container = GlassContainer(effect: effect, spacing: 12, members: members)
            let serial = container.render(over: image, scale: 1, threads: 1)
            for threads in [2, 3, 7, 64] {
                let same = container.render(over: image, scale: 1, threads: threads) == serial
                #expect(same, "\(threads) threads")
            }
            let same = container.render(over: image, scale: 1) == serial
            #expect(same, "default threads")
        }
    }

    // Issue 51, finding 1: a capsule of 100,000 points over an 8×8 image asked for 400 GB (its
    // corner's table was sized by the corner, not by what the image shows) and killed the process.
    // Now the table is left out when it would outgrow the canvas, and the corners are drawn pixel
    // by pixel over the pixels the image has.
    @Test func aCapsuleFarLargerThanTheImageIsDrawnWithinTheImage() throws {
        let image = try Bitmap(width: 8, height: 8, premultipliedRGBA: (0..<256).map { $0 % 4 == 3 ? 255 : UInt8($0) })
        for frame in [Rect(x: 0, y: 0, width: 100_000, height: 100_000), Rect(x: -500_000, y: -500_000, width: 1_000_000, height: 1_000_000)] {
            for scale in [1.0, 16] {
                let drawn = GlassEffect().render(over: image, frame: frame, scale: scale)
                #expect(drawn.width == 8 && drawn.height == 8)
            }
        }
    }
}
