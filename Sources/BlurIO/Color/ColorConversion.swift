import BlurCore
import CLCMS2
import Foundation

/// The conversion of an input profile's pixels to sRGB through lcms2, the step every decoder
/// takes by default before any effect: relative colorimetric with black-point compensation (the
/// usual choice for photographs; a matrix profile such as Display P3 has no perceptual tables, so
/// the two intents agree on it). Colours outside sRGB are clipped to its gamut.
///
/// It works on straight (not premultiplied) RGBA8 rows in place, alpha unchanged, a band at a time
/// on all cores, or turns a CMYK JPEG's rows into RGBA. lcms2's transforms keep no state between
/// calls, so the bytes do not depend on how rows are split among threads. A matrix/TRC profile's
/// conversion runs in ``MatrixShaper`` instead (a third of lcms2's cost on a 24-MP photo), once it has matched lcms2's
/// within one level on a 17-step grid of the RGB cube.
package final class ColorConversion: @unchecked Sendable {
    /// What the conversion reads.
    package enum Input: Sendable, Equatable {
        /// Straight RGBA8 rows, converted in place.
        case rgba
        /// CMYK8 as a JPEG stores it: `inverted` when an Adobe marker says the values are 255 − ink.
        case cmyk(inverted: Bool)
    }

    private let transform: cmsHTRANSFORM
    /// The same conversion done here for a matrix/TRC profile, when it agrees with `transform`.
    private let shaper: MatrixShaper?
    /// What the conversion reads.
    package let input: Input

    /// The conversion from `profile` to sRGB, or nil when there is nothing to convert: the profile
    /// is not one lcms2 reads, is not of `input`'s space (a gray profile, say), or is sRGB in all
    /// but name (converting its colours moves none by more than one level: the input's bytes are
    /// kept as they are).
    package init?(from profile: ColorProfile, input: Input = .rgba) {
        let space: cmsColorSpaceSignature = input == .rgba ? cmsSigRgbData : cmsSigCmykData
        let inputFormat: cmsUInt32Number
        switch input {
        case .rgba: inputFormat = BK_TYPE_RGBA_8
        case let .cmyk(inverted): inputFormat = inverted ? BK_TYPE_CMYK_8_REV : BK_TYPE_CMYK_8
        }
        let made = profile.withHandle { source -> (cmsHTRANSFORM, MatrixShaper?)? in
            guard cmsGetColorSpace(source) == space, let sRGB = cmsCreate_sRGBProfile() else { return nil }
            defer { cmsCloseProfile(sRGB) }
            let flags = cmsUInt32Number(cmsFLAGS_BLACKPOINTCOMPENSATION) | (input == .rgba ? cmsUInt32Number(cmsFLAGS_COPY_ALPHA) : 0)
            let transform = cmsCreateTransform(
                source, inputFormat, sRGB, BK_TYPE_RGBA_8, cmsUInt32Number(INTENT_RELATIVE_COLORIMETRIC), flags)
            return transform.map { ($0, input == .rgba ? MatrixShaper(from: source) : nil) }
        }
        guard let made, let (transform, shaper) = made else { return nil }
        var agreed: MatrixShaper? = nil
        if input == .rgba {
            // lcms2's colours of a 17-step grid of the RGB cube, then the grid through the shaper.
            let steps = (0...16).map { UInt8(min(255, $0 * 16)) }
            var grid = [UInt8]()
            grid.reserveCapacity(17 * 17 * 17 * 4)
            for r in steps { for g in steps { for b in steps { grid += [r, g, b, 255] } } }
            var converted = grid
            converted.withUnsafeMutableBytes { target in
                grid.withUnsafeBytes { cmsDoTransform(transform, $0.baseAddress, target.baseAddress, UInt32(17 * 17 * 17)) }
            }
            if zip(grid, converted).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) {
                cmsDeleteTransform(transform)
                return nil
            }
            var shaped = grid
            shaper?.convert(&shaped, count: 17 * 17 * 17)
            if zip(shaped, converted).allSatisfy({ abs(Int($0) - Int($1)) <= 1 }) { agreed = shaper }
        }
        self.transform = transform
        self.shaper = agreed
        self.input = input
    }

    deinit { cmsDeleteTransform(transform) }

    /// Converts straight RGBA8 `rows` in place (an ``Input/rgba`` conversion), sharing the rows
    /// among the cores.
    package func convert(_ rows: MutablePixelView) {
        precondition(input == .rgba, "an RGBA conversion")
        let base = SendablePointer(rows.base), stride = rows.bytesPerRow, width = rows.width, height = rows.height
        let parts = max(1, min(height / 8, ProcessInfo.processInfo.activeProcessorCount))
        let transform = SendableTransform(value: transform), shaper = shaper
        DispatchQueue.concurrentPerform(iterations: parts) { part in
            for y in (height * part / parts)..<(height * (part + 1) / parts) {
                let row = base.value + y * stride
                if let shaper { shaper.convert(row, count: width) } else { cmsDoTransform(transform.value, row, row, UInt32(width)) }
            }
        }
    }

    /// Converts a premultiplied image in place: each translucent pixel straightened, converted and
    /// premultiplied again (opaque ones converted as they are).
    package func convert(premultiplied image: inout Bitmap) {
        image.withMutablePixels { pixels in
            for y in pixels.rows { Bitmap.unpremultiply(pixels.row(y), into: pixels.row(y), pixels: pixels.width) }
            convert(pixels)
            Bitmap.premultiply(pixels)
        }
    }

    /// Turns `count` CMYK8 pixels (4 bytes each) into opaque RGBA8 at `rgba` (a ``Input/cmyk(inverted:)``
    /// conversion). The two may not overlap.
    package func convert(cmyk: UnsafePointer<UInt8>, into rgba: UnsafeMutablePointer<UInt8>, count: Int) {
        cmsDoTransform(transform, cmyk, rgba, UInt32(count))
        for x in 0..<count { rgba[x * 4 + 3] = 255 }
    }
}

/// A row pointer handed to the threads of one band, each of which writes rows of its own.
private struct SendablePointer: @unchecked Sendable {
    let value: UnsafeMutablePointer<UInt8>
    init(_ value: UnsafeMutablePointer<UInt8>) { self.value = value }
}

/// lcms2's transform, read-only once made, shared by the threads of a band.
private struct SendableTransform: @unchecked Sendable {
    let value: cmsHTRANSFORM
}
