import BlurCore
import BlurScene
import Foundation
import Testing

@Suite struct TimingCurveTests {
    /// y at x on a cubic Bézier, by dense sampling of its parameter: an independent reference.
    static func sampled(_ x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        var best = (distance: Double.infinity, y: 0.0)
        for i in 0...100_000 {
            let s = Double(i) / 100_000, u = 1 - s
            let bx = 3 * u * u * s * x1 + 3 * u * s * s * x2 + s * s * s
            if abs(bx - x) < best.distance { best = (abs(bx - x), 3 * u * u * s * y1 + 3 * u * s * s * y2 + s * s * s) }
        }
        return best.y
    }

    @Test(arguments: [TimingCurve.easeIn, .easeOut, .easeInOut, .default, .cubicBezier(x1: 0.2, y1: 0.9, x2: 0.4, y2: 1.4)])
    func beziersMatchTheirDefinition(_ curve: TimingCurve) throws {
        let p = try #require(curve.controlPoints)
        for x in stride(from: 0.0, through: 1.0, by: 0.05) {
            let got = curve.progress(at: x, duration: 1)
            #expect(abs(got - Self.sampled(x, p.x1, p.y1, p.x2, p.y2)) < 1e-4, "\(curve) at \(x)")
        }
        #expect(curve.progress(at: 0, duration: 1) == 0 && curve.progress(at: 1, duration: 1) == 1)
    }

    @Test func namedCurvesHaveTheirControlPoints() {
        #expect(TimingCurve.easeOut.controlPoints! == (0, 0, 0.58, 1))
        #expect(TimingCurve.easeIn.controlPoints! == (0.42, 0, 1, 1))
        #expect(TimingCurve.easeInOut.controlPoints! == (0.42, 0, 0.58, 1))
        #expect(TimingCurve.default.controlPoints! == (0.25, 0.1, 0.25, 1))
        let half = [TimingCurve.easeIn, .linear, .easeOut].map { $0.progress(at: 0.5, duration: 1) }
        #expect(half[0] < half[1] && half[1] < half[2])
        #expect(TimingCurve.cubicBezier(x1: .nan, y1: 0, x2: 7, y2: 1).controlPoints! == (0, 0, 1, 1))
    }

    @Test func springsSettleAndOnlyUnderdampedOnesOvershoot() {
        let critical = TimingCurve.spring(response: 0.5, dampingFraction: 1)
        let bouncy = TimingCurve.spring(response: 0.5, dampingFraction: 0.4)
        let critValues = stride(from: 0.0, through: critical.settlingDuration, by: 0.01).map {
            critical.progress(at: $0 / critical.settlingDuration, duration: critical.settlingDuration)
        }
        #expect(zip(critValues, critValues.dropFirst()).allSatisfy { $0 <= $1 + 1e-12 } && critValues.max()! <= 1)
        let bounce = stride(from: 0.0, through: 1, by: 0.005).map { bouncy.progress(at: $0, duration: bouncy.settlingDuration) }
        #expect(bounce.max()! > 1.05)
        let end = bouncy.settlingDuration
        #expect(abs(bouncy.progress(at: 0.999, duration: end) - 1) < 0.002)
    }
}

@Suite struct AnimatedValueTests {
    @Test func theModelChangesAtOnceAndThePresentationOverTime() {
        var radius = Animated(30.0)
        radius.set(0, at: 1, animation: Animation(duration: 0.45, curve: .linear))
        #expect(radius.model == 0)
        #expect(radius.value(at: 0.5) == 30 && radius.value(at: 1) == 30)
        #expect(abs(radius.value(at: 1 + 0.225) - 15) < 1e-9)
        #expect(abs(radius.value(at: 1.45)) < 1e-9 && radius.value(at: 9) == 0)
        #expect(radius.isAnimating(at: 1.2) && !radius.isAnimating(at: 1.5))
    }

    @Test func delaysHoldTheOldValue() {
        // Seed 004: setBlurRadiusAnimated(radius: 0, duration: 0.6, delay: 0.3).
        var radius = Animated(30.0)
        radius.set(0, at: 0, animation: Animation(duration: 0.6, delay: 0.3, curve: .linear))
        #expect(radius.value(at: 0.29) == 30)
        #expect(abs(radius.value(at: 0.6) - 15) < 1e-9)
        #expect(radius.value(at: 0.9) == 0)
    }

    @Test func aNewAnimationStartsFromThePresentationValue() {
        var opacity = Animated(0.0)
        opacity.set(1, at: 0, animation: Animation(duration: 1, curve: .linear))
        opacity.set(0, at: 0.25, animation: Animation(duration: 1, curve: .linear))  // interrupt at 0.25
        #expect(abs(opacity.value(at: 0.25) - 0.25) < 1e-9)
        #expect(abs(opacity.value(at: 0.75) - 0.125) < 1e-9)
        #expect(opacity.value(at: 1.25) == 0)
        // And rendering earlier times still shows the history.
        #expect(abs(opacity.value(at: 0.1) - 0.1) < 1e-9)
    }

    @Test func easeOutOverPointEightSecondsLikeTheBlurUpImage() {
        var opacity = Animated(0.0)
        opacity.set(1, at: 2, animation: Animation(duration: 0.8, curve: .easeOut))
        let expected = TimingCurve.easeOut.progress(at: 0.25, duration: 0.8)
        #expect(abs(opacity.value(at: 2.2) - expected) < 1e-12 && expected > 0.25)
    }

    @Test func colorsAndFramesInterpolate() {
        var frame = Animated(Rect(x: 0, y: 0, width: 100, height: 50))
        frame.set(Rect(x: 100, y: 20, width: 200, height: 50), at: 0, animation: Animation(duration: 1, curve: .linear))
        #expect(frame.value(at: 0.5) == Rect(x: 50, y: 10, width: 150, height: 50))
        var tint = Animated(Color(red: 1, green: 0, blue: 0, alpha: 1))
        tint.set(.clear, at: 0, animation: Animation(duration: 1, curve: .linear))
        let half = tint.value(at: 0.5)
        #expect(abs(half.alpha - 0.5) < 1e-9 && abs(half.red - 1) < 1e-9)  // fades, does not darken
        #expect(Animation(duration: .nan, delay: -1).duration == 0 && Animation(duration: 1, delay: -1).delay == 0)
    }
}

/// Springs and overshooting Béziers pass their target as UIKit's do (`UISpringTimingParameters`,
/// `CAMediaTimingFunction` with control points outside 0…1): a scene's value follows the closed form,
/// computed here on its own, at every time until the animation ends.
@Suite struct OvershootTests {
    /// The unit step response of m·x″ + c·x′ + k·(x − 1) = 0 from x(0) = 0, x′(0) = `velocity`,
    /// written with ω = 2π / response and ζ = the damping fraction.
    static func spring(_ t: Double, response: Double, dampingFraction zeta: Double, velocity: Double = 0) -> Double {
        let omega = 2 * Double.pi / response
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * omega * t) * (cos(wd * t) + (zeta * omega - velocity) / wd * sin(wd * t))
        }
        if zeta == 1 { return 1 - exp(-omega * t) * (1 + (omega - velocity) * t) }
        let root = omega * (zeta * zeta - 1).squareRoot()
        let (r1, r2) = (-zeta * omega + root, -zeta * omega - root)
        return 1 + ((velocity + r2) * exp(r1 * t) - (velocity + r1) * exp(r2 * t)) / (r1 - r2)
    }

    static func sceneMovingX(to x: Double, curve: String, duration: Double = 0) throws -> Layer {
        let file = try SceneFile.parse(
            Array(
                """
                { "width": 300, "height": 40, "layers": [ { "name": "dot", "frame": [0, 0, 10, 10], "backgroundColor": "white" } ],
                  "animations": [ { "at": 1, "duration": \(duration), "curve": \(curve), "layer": "dot", "set": { "frame": [\(x), 0, 10, 10] } } ] }
                """.utf8))
        return try #require(file.layers["dot"])
    }

    @Test func aSpringOfDampingFractionPointSixPassesTwoHundred() throws {
        let dot = try Self.sceneMovingX(to: 200, curve: #"{"spring": {"response": 0.4, "dampingFraction": 0.6}}"#)
        #expect(abs(dot.presentation(at: 1.2).frame.x - 211.2) < 0.1)
        #expect(abs(dot.presentation(at: 1.25).frame.x - 219.0) < 0.1)
        for t in stride(from: 0.0, through: 1.5, by: 0.05) {
            let expected = 200 * Self.spring(t, response: 0.4, dampingFraction: 0.6)
            #expect(abs(dot.presentation(at: 1 + t).frame.x - expected) < 0.3, "t = \(t)")
        }
        #expect(dot.presentation(at: 9).frame.x == 200)
    }

    // Before: the scene took neither mass, stiffness and damping nor an initial velocity.
    @Test func massStiffnessDampingAndAnInitialVelocityFollowTheClosedForm() throws {
        // CASpringAnimation's defaults, mass 1, stiffness 100, damping 10: ω = 10 rad/s, ζ = 0.5.
        let dot = try Self.sceneMovingX(to: 200, curve: #"{"spring": {"mass": 1, "stiffness": 100, "damping": 10, "initialVelocity": 3}}"#)
        for t in stride(from: 0.0, through: 1.2, by: 0.05) {
            let expected = 200 * Self.spring(t, response: 2 * Double.pi / 10, dampingFraction: 0.5, velocity: 3)
            #expect(abs(dot.presentation(at: 1 + t).frame.x - expected) < 0.3, "t = \(t)")
        }
        #expect(throws: SceneFileError.self) { try Self.sceneMovingX(to: 200, curve: #"{"spring": {"mass": 1, "response": 0.5}}"#) }
    }

    // Before: an overdamped spring was taken as settled after (ln 1000 + 2) / ζω — 0.24 s for
    // ζ = 3 — and jumped to its target while its slow root still had far to go.
    @Test func anOverdampedSpringIsFollowedUntilItSettles() throws {
        let dot = try Self.sceneMovingX(to: 200, curve: #"{"spring": {"response": 0.5, "dampingFraction": 3, "initialVelocity": -2}}"#)
        for t in [0.05, 0.1, 0.3, 0.6, 1, 2, 3] {
            let expected = 200 * Self.spring(t, response: 0.5, dampingFraction: 3, velocity: -2)
            #expect(abs(dot.presentation(at: 1 + t).frame.x - expected) < 0.3, "t = \(t)")
        }
    }

    @Test func aBezierWithAControlPointAboveOneOvershoots() throws {
        let dot = try Self.sceneMovingX(to: 200, curve: "[0.3, 2.0, 0.7, 1.0]", duration: 1)
        var highest = 0.0
        for t in stride(from: 0.05, through: 0.95, by: 0.05) {
            let expected = 200 * TimingCurveTests.sampled(t, 0.3, 2.0, 0.7, 1.0)
            let x = dot.presentation(at: 1 + t).frame.x
            #expect(abs(x - expected) < 0.05, "t = \(t)")
            highest = max(highest, x)
        }
        #expect(highest > 240)
        #expect(dot.presentation(at: 2).frame.x == 200)
    }
}
