import CLCMS2

/// The conversion of a matrix/TRC RGB profile (Display P3, Adobe RGB, most camera and phone
/// profiles) to sRGB done here instead of in lcms2, whose generic 8-bit path costs about 29 ns a
/// pixel: each channel to linear light through a 256-entry table of the profile's own curve, one
/// 3 × 3 matrix into sRGB's primaries (both profiles' colorants, adapted to D50 as ICC profiles
/// store them), and sRGB's curve from a 16 385-entry table (a step of 0.2 level near black, where
/// the curve is steepest). ``ColorConversion`` uses it only when it agrees with lcms2's own
/// transform within one level on a grid of the RGB cube.
struct MatrixShaper: Sendable {
    /// Linear light for each 8-bit value, red's 256 then green's then blue's.
    private let linear: [Float]
    /// Row-major: sRGB's linear red, green, blue from the input's.
    private let matrix: [Float]
    /// sRGB's 8-bit value for linear light `i / encodingSteps`.
    private let encoding: [UInt8]
    private static let encodingSteps = 16_384

    /// What every conversion shares, made once from lcms2's sRGB profile: the inverse of its
    /// colorant matrix and its curve's encoding table.
    private static let sRGB: (inverse: [Double], encoding: [UInt8])? = {
        guard let profile = cmsCreate_sRGBProfile() else { return nil }
        defer { cmsCloseProfile(profile) }
        guard cmsIsMatrixShaper(profile) != 0, let colorants = colorants(profile), let inverse = inverse(colorants),
            let curve = cmsReadTag(profile, cmsSigRedTRCTag).map(OpaquePointer.init), let reversed = cmsReverseToneCurve(curve)
        else { return nil }
        defer { cmsFreeToneCurve(reversed) }
        let encoding = (0...encodingSteps).map { i in
            let v = cmsEvalToneCurveFloat(reversed, Float(i) / Float(encodingSteps))
            return UInt8(max(0, min(255, (v * 255).rounded())))
        }
        return (inverse, encoding)
    }()

    /// The matrix shaper of `source` into sRGB, or nil when it is not a matrix/TRC profile.
    init?(from source: cmsHPROFILE) {
        guard cmsIsMatrixShaper(source) != 0, let input = MatrixShaper.colorants(source), let (inverse, encoding) = MatrixShaper.sRGB
        else { return nil }
        let curves = [cmsSigRedTRCTag, cmsSigGreenTRCTag, cmsSigBlueTRCTag].compactMap {
            cmsReadTag(source, $0).map(OpaquePointer.init)
        }
        guard curves.count == 3 else { return nil }
        linear = curves.flatMap { curve in
            (0..<256).map { v in
                let y = cmsEvalToneCurveFloat(curve, Float(v) / 255)
                return y.isFinite ? y : 0
            }
        }
        var product = [Float](repeating: 0, count: 9)
        for row in 0..<3 {
            for column in 0..<3 {
                var sum = 0.0
                for k in 0..<3 { sum += inverse[row * 3 + k] * input[k * 3 + column] }
                product[row * 3 + column] = Float(sum)
            }
        }
        matrix = product
        self.encoding = encoding
        guard matrix.allSatisfy({ $0.isFinite && abs($0) < 1000 }) else { return nil }
    }

    /// Converts `count` straight RGBA8 pixels at `pixels` in place, alpha unchanged.
    func convert(_ pixels: UnsafeMutablePointer<UInt8>, count: Int) {
        linear.withUnsafeBufferPointer { linear in
            encoding.withUnsafeBufferPointer { encoding in
                let m = matrix, scale = Float(MatrixShaper.encodingSteps)
                let (m0, m1, m2, m3, m4, m5, m6, m7, m8) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8])
                func encoded(_ v: Float) -> UInt8 { encoding[Int(max(0, min(scale, v * scale + 0.5)))] }
                for x in 0..<count {
                    let p = pixels + x * 4
                    let r = linear[Int(p[0])], g = linear[256 + Int(p[1])], b = linear[512 + Int(p[2])]
                    p[0] = encoded(m0 * r + m1 * g + m2 * b)
                    p[1] = encoded(m3 * r + m4 * g + m5 * b)
                    p[2] = encoded(m6 * r + m7 * g + m8 * b)
                }
            }
        }
    }

    /// A profile's colorants as a row-major 3 × 3 matrix: XYZ (rows) of red, green, blue (columns).
    private static func colorants(_ profile: cmsHPROFILE) -> [Double]? {
        let tags = [cmsSigRedColorantTag, cmsSigGreenColorantTag, cmsSigBlueColorantTag]
        let columns = tags.compactMap { cmsReadTag(profile, $0)?.assumingMemoryBound(to: cmsCIEXYZ.self).pointee }
        guard columns.count == 3 else { return nil }
        return [columns[0].X, columns[1].X, columns[2].X, columns[0].Y, columns[1].Y, columns[2].Y, columns[0].Z, columns[1].Z, columns[2].Z]
    }

    /// The inverse of a row-major 3 × 3 matrix, or nil when it is singular.
    private static func inverse(_ m: [Double]) -> [Double]? {
        let cofactors = [
            m[4] * m[8] - m[5] * m[7], m[2] * m[7] - m[1] * m[8], m[1] * m[5] - m[2] * m[4],
            m[5] * m[6] - m[3] * m[8], m[0] * m[8] - m[2] * m[6], m[2] * m[3] - m[0] * m[5],
            m[3] * m[7] - m[4] * m[6], m[1] * m[6] - m[0] * m[7], m[0] * m[4] - m[1] * m[3],
        ]
        let determinant = m[0] * cofactors[0] + m[1] * cofactors[3] + m[2] * cofactors[6]
        guard abs(determinant) > 1e-12 else { return nil }
        return cofactors.map { $0 / determinant }
    }
}
