/// exp, cos and log10 in Swift alone, so that the native build and the WebAssembly one (which has no
/// C library) compute the same kernel weights, ThumbHash bases and mask curves from the same code.
///
/// Accuracy, checked against the C library by the tests over the ranges the kernels use: exp and
/// log10 within 2 ulp (relative 4.5 × 10⁻¹⁶), cos within 2.5 × 10⁻¹⁶ absolute for |x| ≤ 10⁴.
/// Range reduction is Cody–Waite with two constants, then Taylor polynomials on the reduced
/// interval, evaluated by Horner's rule.
package enum Elementary {
    private static let ln2High = 6.93147180369123816490e-01
    private static let ln2Low = 1.90821492927058770002e-10
    private static let piOver2High = 1.57079632673412561417e+00
    private static let piOver2Low = 6.07710050650619224932e-11

    /// eˣ: 0 below −745.2, ∞ above 709.8.
    package static func exp(_ x: Double) -> Double {
        if x.isNaN { return x }
        if x > 709.782712893384 { return .infinity }
        if x < -745.1332191019412 { return 0 }
        let k = (x / ln2High).rounded()
        let r = (x - k * ln2High) - k * ln2Low
        // Taylor to r¹³/13! on |r| ≤ ln 2 / 2: the first term left out is below 10⁻¹⁷ of the result.
        let p =
            1.0 + r
            * (1.0 + r
                * (0.5 + r
                    * (0.16666666666666666 + r
                        * (0.041666666666666664 + r
                            * (0.008333333333333333 + r
                                * (0.001388888888888889 + r
                                    * (0.0001984126984126984 + r
                                        * (2.48015873015873e-05 + r
                                            * (2.7557319223985893e-06 + r
                                                * (2.755731922398589e-07 + r
                                                    * (2.505210838544172e-08 + r * (2.08767569878681e-09 + r * (1.6059043836821613e-10)))))))))))))
        return Double(sign: .plus, exponent: Int(k), significand: p)
    }

    /// cos x for finite x (NaN otherwise).
    package static func cos(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let k = (x / piOver2High).rounded()
        let r = (x - k * piOver2High) - k * piOver2Low
        switch Int(k.truncatingRemainder(dividingBy: 4) + 4) % 4 {
        case 0: return cosine(r)
        case 1: return -sine(r)
        case 2: return -cosine(r)
        default: return sine(r)
        }
    }

    /// sin x for finite x (NaN otherwise): cos(x − π/2), the same reduction.
    package static func sin(_ x: Double) -> Double {
        guard x.isFinite else { return .nan }
        let k = (x / piOver2High).rounded()
        let r = (x - k * piOver2High) - k * piOver2Low
        switch Int(k.truncatingRemainder(dividingBy: 4) + 4) % 4 {
        case 0: return sine(r)
        case 1: return cosine(r)
        case 2: return -sine(r)
        default: return -cosine(r)
        }
    }

    /// log₁₀ x for x > 0 (−∞ at 0, NaN below).
    package static func log10(_ x: Double) -> Double {
        let ln = log(x)
        return ln.isFinite ? ln / 2.302585092994045684 : ln
    }

    /// xʸ for x ≥ 0, as e^(y ln x) (1 for y = 0; 0 for x = 0 and y > 0).
    package static func pow(_ x: Double, _ y: Double) -> Double {
        if y == 0 { return 1 }
        if x == 0 { return y > 0 ? 0 : .infinity }
        return exp(y * log(x))
    }

    /// ln x for x > 0 (−∞ at 0, NaN below).
    package static func log(_ x: Double) -> Double {
        if x.isNaN || x < 0 { return .nan }
        if x == 0 { return -.infinity }
        if x.isInfinite { return x }
        // x = m · 2ᵉ with m in [√½, √2): ln m = 2 atanh s, s = (m − 1)/(m + 1), |s| < 0.172.
        var e = Double(x.exponent), m = x.significand
        if m > 1.4142135623730951 {
            m /= 2
            e += 1
        }
        let s = (m - 1) / (m + 1), s2 = s * s
        var series = 0.0
        for n in stride(from: 21, through: 1, by: -2) { series = series * s2 + 1 / Double(n) }
        return e * ln2High + (e * ln2Low + 2 * s * series)
    }

    /// cos r on |r| ≤ π/4: Taylor to r¹⁸/18!.
    private static func cosine(_ r: Double) -> Double {
        let r2 = r * r
        return 1.0 + r2
            * (-0.5 + r2
                * (0.041666666666666664 + r2
                    * (-0.001388888888888889 + r2
                        * (2.48015873015873e-05 + r2
                            * (-2.755731922398589e-07 + r2
                                * (2.08767569878681e-09 + r2
                                    * (-1.1470745597729725e-11 + r2 * (4.779477332387385e-14 + r2 * (-1.5619206968586225e-16)))))))))
    }

    /// sin r on |r| ≤ π/4: Taylor to r¹⁹/19!.
    private static func sine(_ r: Double) -> Double {
        let r2 = r * r
        return r
            * (1.0 + r2
                * (-0.16666666666666666 + r2
                    * (0.008333333333333333 + r2
                        * (-0.0001984126984126984 + r2
                            * (2.7557319223985893e-06 + r2
                                * (-2.505210838544172e-08 + r2
                                    * (1.6059043836821613e-10 + r2
                                        * (-7.647163731819816e-13 + r2 * (2.8114572543455206e-15 + r2 * (-8.22063524662433e-18))))))))))
    }
}
