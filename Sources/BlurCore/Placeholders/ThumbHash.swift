// ThumbHash, the image placeholder format by Evan Wallace (https://evanw.github.io/thumbhash/).
//
// Written from the published algorithm. Every step uses Double and the same order of
// operations as the JavaScript reference (`rgbaToThumbHash`, `thumbHashToRGBA`), with its
// rounding (`Math.round`: halves go up) and its byte conversion (Uint8Array: truncation), so
// hashes and decoded pixels match it bit for bit wherever `cos` agrees. There is no global
// state: the same input always gives the same output.
//
// Layout, little-endian:
//   bytes 0–2  header24: L dc (6 bits) | P dc (6) | Q dc (6) | L scale (5) | hasAlpha (1)
//   bytes 3–4  header16: L count on the shorter side (3) | P scale (6) | Q scale (6) | isLandscape (1)
//   byte  5    only with alpha: A dc (4) | A scale (4)
//   then       4-bit AC terms, low nibble first: L, P, Q, then A with alpha.

/// Why a ThumbHash could not be made or read.
public enum ThumbHashError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The image to encode is not 1…100 px on each side.
    case invalidSize(width: Int, height: Int)
    /// The RGBA buffer does not hold exactly 4 × width × height bytes.
    case byteCountMismatch(expected: Int, got: Int)
    /// The hash is shorter than its header requires.
    case hashTooShort(expected: Int, got: Int)
    /// The header gives 0 luminance terms along the shorter side; a valid hash has 1…7.
    case zeroLuminanceCount

    /// The error as one line of text, for messages.
    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            return "ThumbHash needs an image of 1…100 px per side, got \(w)×\(h)"
        case let .byteCountMismatch(expected, got):
            return "ThumbHash needs \(expected) bytes of RGBA (4 per pixel), got \(got)"
        case let .hashTooShort(expected, got):
            return "ThumbHash is \(got) byte\(got == 1 ? "" : "s") long, its header needs at least \(expected)"
        case .zeroLuminanceCount:
            return "ThumbHash header is malformed: it gives 0 luminance terms on the shorter side (expected 1…7)"
        }
    }
}

/// ThumbHash encoding and decoding.
///
/// Pixels are straight (not premultiplied) RGBA8, row-major, tightly packed (4 bytes a pixel).
/// `encode` gives 17…25 bytes (17…24 opaque, 23…25 with alpha).
public enum ThumbHash {
    /// The largest width or height `encode` accepts, in px. Downscale larger images first.
    public static let maximumSide = 100

    // MARK: Encoding

    /// The ThumbHash of an image.
    ///
    /// - Parameters:
    ///   - width: 1…100 px.
    ///   - height: 1…100 px.
    ///   - rgba: straight RGBA8, row-major, exactly `4 × width × height` bytes.
    /// - Returns: the hash, 17…25 bytes.
    public static func encode(width: Int, height: Int, rgba: [UInt8]) throws(ThumbHashError) -> [UInt8] {
        try validate(width: width, height: height, count: rgba.count)
        return rgba.withUnsafeBufferPointer { encodeValidated(width: width, height: height, rgba: $0) }
    }

    /// The ThumbHash of an image, from a borrowed buffer; limits as for the `[UInt8]` form.
    public static func encode(width: Int, height: Int, rgba: UnsafeBufferPointer<UInt8>) throws(ThumbHashError) -> [UInt8] {
        try validate(width: width, height: height, count: rgba.count)
        return encodeValidated(width: width, height: height, rgba: rgba)
    }

    private static func validate(width: Int, height: Int, count: Int) throws(ThumbHashError) {
        guard (1...maximumSide).contains(width), (1...maximumSide).contains(height) else {
            throw .invalidSize(width: width, height: height)
        }
        guard count == width * height * 4 else {
            throw .byteCountMismatch(expected: width * height * 4, got: count)
        }
    }

    private static func encodeValidated(width w: Int, height h: Int, rgba: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let n = w * h

        // Average colour, weighted by alpha.
        var avgR = 0.0, avgG = 0.0, avgB = 0.0, avgA = 0.0
        for i in 0..<n {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            avgR += alpha / 255 * Double(rgba[j])
            avgG += alpha / 255 * Double(rgba[j + 1])
            avgB += alpha / 255 * Double(rgba[j + 2])
            avgA += alpha
        }
        if avgA != 0 {
            avgR /= avgA
            avgG /= avgA
            avgB /= avgA
        }

        let hasAlpha = avgA < Double(n)
        let lLimit = hasAlpha ? 5 : 7  // fewer luminance terms when alpha needs room
        let longSide = Double(max(w, h))
        let lx = max(1, Int(jsRound(Double(lLimit * w) / longSide)))
        let ly = max(1, Int(jsRound(Double(lLimit * h) / longSide)))

        // RGBA → LPQA, composited over the average colour.
        var l = [Double](repeating: 0, count: n)
        var p = [Double](repeating: 0, count: n)
        var q = [Double](repeating: 0, count: n)
        var a = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let j = i * 4
            let alpha = Double(rgba[j + 3]) / 255
            let r = avgR * (1 - alpha) + alpha / 255 * Double(rgba[j])
            let g = avgG * (1 - alpha) + alpha / 255 * Double(rgba[j + 1])
            let b = avgB * (1 - alpha) + alpha / 255 * Double(rgba[j + 2])
            l[i] = (r + g + b) / 3
            p[i] = (r + g) / 2 - b
            q[i] = r - g
            a[i] = alpha
        }

        // Cosine tables: cosX[cx * w + x] = cos(π / w · cx · (x + ½)), likewise cosY. No channel
        // uses more than 7 terms per axis.
        let maxTerms = 7
        var cosX = [Double](repeating: 0, count: maxTerms * w)
        var cosY = [Double](repeating: 0, count: maxTerms * h)
        for c in 0..<maxTerms {
            for x in 0..<w { cosX[c * w + x] = Elementary.cos(Double.pi / Double(w) * Double(c) * (Double(x) + 0.5)) }
            for y in 0..<h { cosY[c * h + y] = Elementary.cos(Double.pi / Double(h) * Double(c) * (Double(y) + 0.5)) }
        }

        // DCT into a DC term and AC terms normalised to 0…1 by the largest |AC|.
        func encodeChannel(_ channel: [Double], nx: Int, ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, scale = 0.0
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) {
                    var f = 0.0
                    for y in 0..<h {
                        let fy = cosY[cy * h + y]
                        for x in 0..<w {
                            f += channel[x + y * w] * cosX[cx * w + x] * fy
                        }
                    }
                    f /= Double(n)
                    if cx > 0 || cy > 0 {
                        ac.append(f)
                        scale = max(scale, abs(f))
                    } else {
                        dc = f
                    }
                    cx += 1
                }
            }
            if scale != 0 {
                for i in ac.indices { ac[i] = 0.5 + 0.5 / scale * ac[i] }
            }
            return (dc, ac, scale)
        }

        let lc = encodeChannel(l, nx: max(3, lx), ny: max(3, ly))
        let pc = encodeChannel(p, nx: 3, ny: 3)
        let qc = encodeChannel(q, nx: 3, ny: 3)
        let ac = hasAlpha ? encodeChannel(a, nx: 5, ny: 5) : (dc: 1.0, ac: [], scale: 1.0)

        let isLandscape = w > h
        let header24 =
            quantize(63 * lc.dc)
            | (quantize(31.5 + 31.5 * pc.dc) << 6)
            | (quantize(31.5 + 31.5 * qc.dc) << 12)
            | (quantize(31 * lc.scale) << 18)
            | ((hasAlpha ? 1 : 0) << 23)
        let header16 =
            (isLandscape ? ly : lx)
            | (quantize(63 * pc.scale) << 3)
            | (quantize(63 * qc.scale) << 9)
            | ((isLandscape ? 1 : 0) << 15)

        var hash: [UInt8] = [
            byte(header24), byte(header24 >> 8), byte(header24 >> 16),
            byte(header16), byte(header16 >> 8),
        ]
        if hasAlpha {
            hash.append(byte(quantize(15 * ac.dc) | (quantize(15 * ac.scale) << 4)))
        }
        let acStart = hash.count
        var acIndex = 0
        for terms in hasAlpha ? [lc.ac, pc.ac, qc.ac, ac.ac] : [lc.ac, pc.ac, qc.ac] {
            for f in terms {
                let k = acStart + (acIndex >> 1)
                if k == hash.count { hash.append(0) }
                hash[k] |= byte(quantize(15 * f) << ((acIndex & 1) << 2))
                acIndex += 1
            }
        }
        return hash
    }

    // MARK: Decoding

    /// The placeholder image of a hash: straight RGBA8, row-major, at most 32 px per side
    /// (the longer side is 32 px, the other follows the approximate aspect ratio).
    ///
    /// Bytes past the length the header requires are ignored.
    /// - Throws: ``ThumbHashError/hashTooShort(expected:got:)`` or
    ///   ``ThumbHashError/zeroLuminanceCount`` for a malformed hash.
    public static func decode(_ hash: [UInt8]) throws(ThumbHashError) -> (width: Int, height: Int, rgba: [UInt8]) {
        let hd = try Header(hash)

        // AC terms. P and Q are boosted 1.25× to make up for quantisation.
        var acIndex = 0
        func decodeChannel(nx: Int, ny: Int, scale: Double) -> [Double] {
            var ac: [Double] = []
            for cy in 0..<ny {
                var cx = cy > 0 ? 0 : 1
                while cx * ny < nx * (ny - cy) {
                    let nibble = (hash[hd.acStart + (acIndex >> 1)] >> UInt8((acIndex & 1) << 2)) & 15
                    ac.append((Double(nibble) / 7.5 - 1) * scale)
                    acIndex += 1
                    cx += 1
                }
            }
            return ac
        }
        let lAC = decodeChannel(nx: hd.lx, ny: hd.ly, scale: hd.lScale)
        let pAC = decodeChannel(nx: 3, ny: 3, scale: hd.pScale * 1.25)
        let qAC = decodeChannel(nx: 3, ny: 3, scale: hd.qScale * 1.25)
        let aAC = hd.hasAlpha ? decodeChannel(nx: 5, ny: 5, scale: hd.aScale) : []

        let ratio = hd.aspectRatio
        let w = Int(jsRound(ratio > 1 ? 32 : 32 * ratio))
        let h = Int(jsRound(ratio > 1 ? 32 / ratio : 32))

        // Cosine tables: cosX[x * nx + cx] = cos(π / w · (x + ½) · cx), likewise cosY.
        let nx = max(hd.lx, hd.hasAlpha ? 5 : 3)
        let ny = max(hd.ly, hd.hasAlpha ? 5 : 3)
        var cosX = [Double](repeating: 0, count: w * nx)
        var cosY = [Double](repeating: 0, count: h * ny)
        for x in 0..<w {
            for cx in 0..<nx { cosX[x * nx + cx] = Elementary.cos(Double.pi / Double(w) * (Double(x) + 0.5) * Double(cx)) }
        }
        for y in 0..<h {
            for cy in 0..<ny { cosY[y * ny + cy] = Elementary.cos(Double.pi / Double(h) * (Double(y) + 0.5) * Double(cy)) }
        }

        var rgba = [UInt8](repeating: 0, count: w * h * 4)
        var i = 0
        for y in 0..<h {
            for x in 0..<w {
                var l = hd.lDC, p = hd.pDC, q = hd.qDC, a = hd.aDC
                let fx = x * nx, fy = y * ny

                var j = 0
                for cy in 0..<hd.ly {
                    var cx = cy > 0 ? 0 : 1
                    let fy2 = cosY[fy + cy] * 2
                    while cx * hd.ly < hd.lx * (hd.ly - cy) {
                        l += lAC[j] * cosX[fx + cx] * fy2
                        cx += 1
                        j += 1
                    }
                }

                j = 0
                for cy in 0..<3 {
                    let fy2 = cosY[fy + cy] * 2
                    for cx in (cy > 0 ? 0 : 1)..<(3 - cy) {
                        let f = cosX[fx + cx] * fy2
                        p += pAC[j] * f
                        q += qAC[j] * f
                        j += 1
                    }
                }

                if hd.hasAlpha {
                    j = 0
                    for cy in 0..<5 {
                        let fy2 = cosY[fy + cy] * 2
                        for cx in (cy > 0 ? 0 : 1)..<(5 - cy) {
                            a += aAC[j] * cosX[fx + cx] * fy2
                            j += 1
                        }
                    }
                }

                let b = l - 2.0 / 3.0 * p
                let r = (3 * l - b + q) / 2
                let g = r - q
                rgba[i] = channelByte(r)
                rgba[i + 1] = channelByte(g)
                rgba[i + 2] = channelByte(b)
                rgba[i + 3] = channelByte(a)
                i += 4
            }
        }
        return (w, h, rgba)
    }

    /// The average colour of a hash: straight (not premultiplied) RGBA, each 0…1.
    /// - Throws: as ``decode(_:)`` does.
    public static func averageColor(_ hash: [UInt8]) throws(ThumbHashError) -> (r: Double, g: Double, b: Double, a: Double) {
        let hd = try Header(hash)
        let b = hd.lDC - 2.0 / 3.0 * hd.pDC
        let r = (3 * hd.lDC - b + hd.qDC) / 2
        let g = r - hd.qDC
        return (clamp01(r), clamp01(g), clamp01(b), hd.aDC)
    }

    /// The approximate aspect ratio (width / height) of the hashed image, 1/7…7. Coarse: it is
    /// the ratio of the luminance term counts, 1…7 on the shorter side (1…5 with alpha) over 7
    /// (5 with alpha) on the longer.
    /// - Throws: as ``decode(_:)`` does.
    public static func approximateAspectRatio(_ hash: [UInt8]) throws(ThumbHashError) -> Double {
        try Header(hash).aspectRatio
    }

    // MARK: Internals

    /// The fields of a hash whose length and header have been checked.
    private struct Header {
        var lDC: Double, pDC: Double, qDC: Double, aDC: Double
        var lScale: Double, pScale: Double, qScale: Double, aScale: Double
        var hasAlpha: Bool
        /// Luminance term counts as stored (1…7 on the shorter side; 5 or 7 on the longer).
        var storedLX: Int, storedLY: Int
        /// Luminance term counts as decoded (at least 3).
        var lx: Int, ly: Int
        var acStart: Int

        var aspectRatio: Double { Double(storedLX) / Double(storedLY) }

        init(_ hash: [UInt8]) throws(ThumbHashError) {
            guard hash.count >= 5 else { throw .hashTooShort(expected: 5, got: hash.count) }
            let header24 = Int(hash[0]) | (Int(hash[1]) << 8) | (Int(hash[2]) << 16)
            let header16 = Int(hash[3]) | (Int(hash[4]) << 8)
            hasAlpha = (header24 >> 23) != 0
            let isLandscape = (header16 >> 15) != 0
            let longSide = hasAlpha ? 5 : 7
            let shortSide = header16 & 7
            guard shortSide != 0 else { throw .zeroLuminanceCount }
            storedLX = isLandscape ? longSide : shortSide
            storedLY = isLandscape ? shortSide : longSide
            lx = max(3, storedLX)
            ly = max(3, storedLY)
            acStart = hasAlpha ? 6 : 5

            let acCount =
                Header.termCount(nx: lx, ny: ly) + 2 * Header.termCount(nx: 3, ny: 3)
                + (hasAlpha ? Header.termCount(nx: 5, ny: 5) : 0)
            let needed = acStart + (acCount + 1) / 2
            guard hash.count >= needed else { throw .hashTooShort(expected: needed, got: hash.count) }

            lDC = Double(header24 & 63) / 63
            pDC = Double((header24 >> 6) & 63) / 31.5 - 1
            qDC = Double((header24 >> 12) & 63) / 31.5 - 1
            lScale = Double((header24 >> 18) & 31) / 31
            pScale = Double((header16 >> 3) & 63) / 63
            qScale = Double((header16 >> 9) & 63) / 63
            aDC = hasAlpha ? Double(hash[5] & 15) / 15 : 1
            aScale = hasAlpha ? Double(hash[5] >> 4) / 15 : 0
        }

        /// The number of AC terms of an nx × ny triangle (the DC term excluded).
        static func termCount(nx: Int, ny: Int) -> Int {
            var count = 0
            for cy in 0..<ny {
                var cx = 0
                while cx * ny < nx * (ny - cy) { count += 1; cx += 1 }
            }
            return count - 1
        }
    }

    /// JavaScript's `Math.round`: nearest integer, halves towards +∞. Exact for every Double.
    @inline(__always)
    private static func jsRound(_ x: Double) -> Double {
        let f = x.rounded(.down)
        return x - f >= 0.5 ? f + 1 : f
    }

    /// A quantised field value. The encoder's inputs keep these within 0…63.
    @inline(__always)
    private static func quantize(_ x: Double) -> Int { Int(jsRound(x)) }

    @inline(__always)
    private static func byte(_ v: Int) -> UInt8 { UInt8(truncatingIfNeeded: v) }

    /// 255 · clamp(v, ≤ 1), floored at 0 and truncated, as a JavaScript Uint8Array store does.
    @inline(__always)
    private static func channelByte(_ v: Double) -> UInt8 {
        let x = max(0, 255 * min(1, v))
        return x.isNaN ? 0 : UInt8(x)
    }

    @inline(__always)
    private static func clamp01(_ v: Double) -> Double { max(0, min(1, v)) }
}
