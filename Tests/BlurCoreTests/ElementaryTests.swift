import BlurCore
import Foundation
import Testing

/// ``Elementary``'s exp, cos and log10 (ours, so that the native and WebAssembly builds agree)
/// against the C library, at the accuracy its documentation states, over the ranges the kernels use
/// and beyond: exp of −t²/2σ² down to its underflow, cos of ThumbHash's and the masks' angles.
@Suite struct ElementaryTests {
    /// A spread of values in `range`: evenly spaced, plus a deterministic scatter in between.
    static func samples(_ range: ClosedRange<Double>, count: Int = 20_000) -> [Double] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { i in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let jitter = Double(state >> 11) / Double(1 << 53) / Double(count)
            return range.lowerBound + (range.upperBound - range.lowerBound) * (Double(i) / Double(count) + jitter)
        }
    }

    @Test func expIsWithinTwoUlp() {
        for x in Self.samples(-745...709.7) + Self.samples(-20...1) {
            let ours = Elementary.exp(x), libm = Foundation.exp(x)
            #expect(abs(ours - libm) <= 4.5e-16 * libm || abs(ours - libm) <= 2 * Double.leastNonzeroMagnitude, "exp(\(x)): \(ours) against \(libm)")
        }
        #expect(Elementary.exp(0) == 1 && Elementary.exp(-800) == 0 && Elementary.exp(800) == .infinity && Elementary.exp(.nan).isNaN)
    }

    @Test func cosIsWithinItsAbsoluteBound() {
        for x in Self.samples(-10_000...10_000) + Self.samples(0...(8 * Double.pi)) {
            let ours = Elementary.cos(x), libm = Foundation.cos(x)
            #expect(abs(ours - libm) <= 2.5e-16, "cos(\(x)): \(ours) against \(libm)")
        }
        #expect(Elementary.cos(0) == 1 && Elementary.cos(.infinity).isNaN)
    }

    @Test func log10IsWithinTwoUlp() {
        for x in Self.samples(1e-300...1e-290) + Self.samples(0.001...10) + Self.samples(1...1e300) {
            let ours = Elementary.log10(x), libm = Foundation.log10(x)
            #expect(abs(ours - libm) <= 4.5e-16 * max(1, abs(libm)), "log10(\(x)): \(ours) against \(libm)")
        }
        #expect(Elementary.log10(0) == -.infinity && Elementary.log10(-1).isNaN && abs(Elementary.log10(1000) - 3) <= 1.5e-15)
    }
}
