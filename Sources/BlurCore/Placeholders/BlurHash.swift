// BlurHash, the image placeholder format by Wolt (https://blurha.sh, github.com/woltapp/blurhash).
//
// Written from the published algorithm, held to Wolt's own encoder for Python, `blurhash-python`
// (its C encoder): each component summed over the rows, then the pixels of a row; the largest AC
// magnitude quantised by 166; levels truncated after adding a half. The arithmetic here is double
// throughout, so the same pixels give the same string but for a rare tie of rounding
// (Tests/Service/test_blurhash.py states the corpus and the agreement). cos, pow and the logarithm
// are ``Elementary``'s, the same in the native and WebAssembly builds. (Wolt's TypeScript encoder
// takes the largest AC value signed and rounds its levels up by a half more: its strings can differ.)
//
// Layout, base 83 digits: 1 the components (x − 1 + 9 (y − 1)), 1 the largest AC magnitude
// quantised (0…82), 4 the DC colour as sRGB bytes (R·2¹⁶ + G·2⁸ + B), then 2 for each AC term (19³
// levels: each channel's signed square root of its share of the largest, in 19 steps).

/// Why a BlurHash could not be made or read.
public enum BlurHashError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Components outside 1…9 on an axis.
    case invalidComponents(x: Int, y: Int)
    /// An image to encode with no pixel, or whose bytes are not 4 × width × height.
    case invalidImage(width: Int, height: Int, bytes: Int)
    /// A hash whose length is not what its first character says (6 + 2 per AC term).
    case invalidLength(expected: Int, got: Int)
    /// A character outside BlurHash's 83.
    case invalidCharacter(Character)

    /// The error as one line of text, for messages.
    public var description: String {
        switch self {
        case let .invalidComponents(x, y): "BlurHash takes 1…9 components on each axis, got \(x)×\(y)"
        case let .invalidImage(w, h, bytes): "BlurHash needs 4 bytes of RGBA for each pixel of a non-empty image, got \(bytes) for \(w)×\(h)"
        case let .invalidLength(expected, got): "this BlurHash is \(got) characters long, its first says \(expected)"
        case let .invalidCharacter(c): "\"\(c)\" is not a BlurHash character"
        }
    }
}

/// BlurHash encoding and decoding over straight (not premultiplied) RGBA8, row-major, tightly packed.
/// Alpha is ignored, as the format has none.
public enum BlurHash {
    /// Components on each axis: 1…9.
    public static let components = 1...9
    /// The default components, as Wolt's examples and Next.js users take them: 4 across, 3 down.
    public static let defaultComponents = Components(x: 4, y: 3)
    /// The parameter table entry of the components: `blurhash`, 1…9 each way (`4x3`).
    public static let componentSpec = ParameterSpec(
        name: "blurhash", unit: "", range: 1...9, defaultValue: nil, integer: true, summary: "BlurHash components across and down")

    /// Components across (`x`) and down (`y`), 1…9 each.
    public struct Components: Sendable, Hashable, CustomStringConvertible {
        /// Components across.
        public var x: Int
        /// Components down.
        public var y: Int
        /// `x` across and `y` down (checked when a hash is made).
        public init(x: Int, y: Int) { (self.x, self.y) = (x, y) }
        /// `XxY`, as the parameter is written.
        public var description: String { "\(x)x\(y)" }
    }

    private static let digits = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~".utf8)

    // MARK: Encoding

    /// The BlurHash of an image (typically a preview of 20…100 px; the cost is components × pixels).
    public static func encode(width: Int, height: Int, rgba: [UInt8], x: Int = 4, y: Int = 3) throws(BlurHashError) -> String {
        guard components.contains(x), components.contains(y) else { throw .invalidComponents(x: x, y: y) }
        guard width > 0, height > 0, width.multipliedReportingOverflow(by: height).partialValue * 4 == rgba.count,
            !width.multipliedReportingOverflow(by: height).overflow
        else { throw .invalidImage(width: width, height: height, bytes: rgba.count) }
        let linear = linearTable
        // cos(π c p / size) per term c and position p, as the reference computes each.
        func bases(_ count: Int, _ size: Int) -> [Double] {
            var table = [Double](repeating: 0, count: count * size)
            for c in 0..<count {
                for p in 0..<size { table[c * size + p] = Elementary.cos(Double.pi * Double(c) * Double(p) / Double(size)) }
            }
            return table
        }
        let across = bases(x, width), down = bases(y, height)
        var factors = [Double](repeating: 0, count: x * y * 3)
        rgba.withUnsafeBufferPointer { pixels in
            for j in 0..<y {
                for i in 0..<x {
                    var r = 0.0, g = 0.0, b = 0.0
                    for row in 0..<height {
                        let cy = down[j * height + row]
                        for column in 0..<width {
                            let basis = across[i * width + column] * cy
                            let p = (row * width + column) * 4
                            r += basis * linear[Int(pixels[p])]
                            g += basis * linear[Int(pixels[p + 1])]
                            b += basis * linear[Int(pixels[p + 2])]
                        }
                    }
                    let scale = (i == 0 && j == 0 ? 1 : 2) / Double(width * height)
                    let k = (j * x + i) * 3
                    (factors[k], factors[k + 1], factors[k + 2]) = (r * scale, g * scale, b * scale)
                }
            }
        }
        var hash: [UInt8] = []
        hash.reserveCapacity(6 + 2 * (x * y - 1))
        append(x - 1 + (y - 1) * 9, length: 1, to: &hash)
        var maximum = 1.0
        if x * y > 1 {
            let largest = factors[3...].reduce(0) { max($0, abs($1)) }
            let quantised = Int(max(0, min(82, (largest * 166 - 0.5).rounded(.down))))
            maximum = Double(quantised + 1) / 166
            append(quantised, length: 1, to: &hash)
        } else {
            append(0, length: 1, to: &hash)
        }
        append((sRGB(factors[0]) << 16) + (sRGB(factors[1]) << 8) + sRGB(factors[2]), length: 4, to: &hash)
        for k in stride(from: 3, to: factors.count, by: 3) {
            func level(_ value: Double) -> Int {
                Int(max(0, min(18, (signedPow(value / maximum, 0.5) * 9 + 9.5).rounded(.down))))
            }
            append(level(factors[k]) * 361 + level(factors[k + 1]) * 19 + level(factors[k + 2]), length: 2, to: &hash)
        }
        return String(decoding: hash, as: UTF8.self)
    }

    // MARK: Decoding

    /// The components a hash holds (from its first character), after checking its length and alphabet.
    public static func components(of hash: String) throws(BlurHashError) -> (x: Int, y: Int) {
        let bytes = Array(hash.utf8)
        guard let first = bytes.first else { throw .invalidLength(expected: 6, got: 0) }
        let size = try value(of: first)
        let x = size % 9 + 1, y = size / 9 + 1
        let expected = 4 + 2 * x * y
        guard bytes.count == expected else { throw .invalidLength(expected: expected, got: bytes.count) }
        for byte in bytes { _ = try value(of: byte) }
        return (x, y)
    }

    /// The image a hash describes, `width` × `height` straight RGBA8 (opaque). `punch` scales the
    /// AC terms (contrast; 1 as Wolt's decoders by default).
    public static func decode(_ hash: String, width: Int, height: Int, punch: Double = 1) throws(BlurHashError) -> [UInt8] {
        let (x, y) = try components(of: hash)
        guard width > 0, height > 0, !width.multipliedReportingOverflow(by: height * 4).overflow else {
            throw .invalidImage(width: width, height: height, bytes: 0)
        }
        let bytes = Array(hash.utf8)
        func number(_ range: Range<Int>) -> Int {
            // Checked by `components(of:)`.
            range.reduce(0) { $0 * 83 + ((try? value(of: bytes[$1])) ?? 0) }
        }
        let maximum = Double(number(1..<2) + 1) / 166 * punch
        var colours = [Double](repeating: 0, count: x * y * 3)
        let dc = number(2..<6)
        (colours[0], colours[1], colours[2]) = (linear(dc >> 16), linear((dc >> 8) & 255), linear(dc & 255))
        for k in 1..<(x * y) {
            let value = number((4 + 2 * k)..<(6 + 2 * k))
            func channel(_ level: Int) -> Double {
                let share = Double(level - 9) / 9
                return (share < 0 ? -1 : 1) * share * share * maximum
            }
            (colours[k * 3], colours[k * 3 + 1], colours[k * 3 + 2]) = (channel(value / 361), channel(value / 19 % 19), channel(value % 19))
        }
        var across = [Double](repeating: 0, count: x * width), down = [Double](repeating: 0, count: y * height)
        for i in 0..<x { for p in 0..<width { across[i * width + p] = Elementary.cos(Double.pi * Double(p) * Double(i) / Double(width)) } }
        for j in 0..<y { for p in 0..<height { down[j * height + p] = Elementary.cos(Double.pi * Double(p) * Double(j) / Double(height)) } }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for row in 0..<height {
            for column in 0..<width {
                var r = 0.0, g = 0.0, b = 0.0
                for j in 0..<y {
                    for i in 0..<x {
                        let basis = across[i * width + column] * down[j * height + row], k = (j * x + i) * 3
                        r += colours[k] * basis
                        g += colours[k + 1] * basis
                        b += colours[k + 2] * basis
                    }
                }
                let p = (row * width + column) * 4
                (pixels[p], pixels[p + 1], pixels[p + 2]) = (UInt8(sRGB(r)), UInt8(sRGB(g)), UInt8(sRGB(b)))
            }
        }
        return pixels
    }

    // MARK: The arithmetic, as the reference does it

    /// sRGB byte → linear: v / 12.92 up to 0.04045, else ((v + 0.055) / 1.055)^2.4, v = byte / 255.
    static func linear(_ level: Int) -> Double {
        let v = Double(level) / 255
        return v <= 0.04045 ? v / 12.92 : Elementary.pow((v + 0.055) / 1.055, 2.4)
    }

    /// ``linear(_:)`` for the levels a pixel has.
    static let linearTable: [Double] = (0..<256).map(linear)

    /// Linear → sRGB byte: clamped to 0…1, truncated after adding a half.
    static func sRGB(_ value: Double) -> Int {
        let v = max(0, min(1, value))
        return Int(v <= 0.0031308 ? v * 12.92 * 255 + 0.5 : (1.055 * Elementary.pow(v, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    /// The sign of `value` times |value|^exponent (a square root exactly for ½).
    static func signedPow(_ value: Double, _ exponent: Double) -> Double {
        let magnitude = exponent == 0.5 ? abs(value).squareRoot() : Elementary.pow(abs(value), exponent)
        return value < 0 ? -magnitude : magnitude
    }

    private static func append(_ value: Int, length: Int, to hash: inout [UInt8]) {
        var divisor = 1
        for _ in 1..<max(1, length) { divisor *= 83 }
        for _ in 0..<length {
            hash.append(digits[(value / divisor) % 83])
            divisor /= 83
        }
    }

    private static func value(of byte: UInt8) throws(BlurHashError) -> Int {
        guard let index = digits.firstIndex(of: byte) else { throw .invalidCharacter(Character(Unicode.Scalar(byte))) }
        return index
    }
}
