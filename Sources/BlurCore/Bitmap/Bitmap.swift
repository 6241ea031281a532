/// An RGBA image: 8 bits a channel, **premultiplied alpha**, sRGB-encoded values, rows top to bottom.
///
/// `Bitmap` is a value: copies share storage until one of them is written (copy-on-write).
/// Every colour channel is ≤ its alpha (the premultiplied invariant); initialisers that take bytes
/// from outside either promise that (`premultiplied:`) or convert straight alpha for you.
///
/// The pixel count is limited by ``ImageLimits/maximumPixelCount`` (268 MP by default), checked
/// before any memory is allocated.
public struct Bitmap: Sendable, Hashable {
    /// Width in pixels (≥ 1).
    public let width: Int
    /// Height in pixels (≥ 1).
    public let height: Int
    /// Bytes from the start of one row to the next (≥ `width * 4`).
    public let bytesPerRow: Int
    /// Pixels per point (1, 2, 3…): how component APIs in points map onto these pixels. Default 1.
    public var scale: Double
    @usableFromInline var storage: [UInt8]

    /// A transparent bitmap of `width × height` pixels.
    /// - Throws: ``BitmapError`` for a size ≤ 0 or over the pixel-count limit, or a scale that is
    ///   not a positive finite number.
    public init(width: Int, height: Int, scale: Double = 1) throws {
        try self.init(uninitializedWidth: width, height: height, scale: scale)
        storage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// A bitmap whose bytes the caller fills before anyone reads them (kernels and decoders).
    @usableFromInline
    init(uninitializedWidth width: Int, height: Int, scale: Double = 1) throws {
        try Bitmap.validate(width: width, height: height, scale: scale)
        self.width = width
        self.height = height
        self.bytesPerRow = width * 4
        self.scale = scale
        self.storage = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            Memory.preferHugePages(buffer.baseAddress, byteCount: buffer.count)
            count = width * height * 4
        }
    }

    /// A bitmap over premultiplied RGBA bytes, `bytesPerRow` apart (default: tightly packed).
    /// - Throws: ``BitmapError`` when the byte count does not match the size, or a colour exceeds
    ///   its alpha (the bytes are not premultiplied).
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, premultipliedRGBA bytes: [UInt8], scale: Double = 1) throws {
        try Bitmap.validate(width: width, height: height, scale: scale)
        let stride = bytesPerRow ?? width * 4
        guard stride >= width * 4, bytes.count >= stride * (height - 1) + width * 4 else {
            throw BitmapError.byteCountMismatch(expected: stride * (height - 1) + width * 4, got: bytes.count)
        }
        self.width = width
        self.height = height
        self.bytesPerRow = stride
        self.scale = scale
        self.storage = bytes
        if let (x, y) = firstPixelViolatingPremultiplication() {
            throw BitmapError.notPremultiplied(x: x, y: y)
        }
    }

    static func validate(width: Int, height: Int, scale: Double) throws {
        guard width > 0, height > 0 else { throw BitmapError.invalidSize(width: width, height: height) }
        let limit = ImageLimits.maximumPixelCount
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limit, width <= Int(Int32.max) / 4 else {
            throw BitmapError.tooLarge(width: width, height: height, limit: limit)
        }
        guard scale.isFinite, scale > 0 else { throw BitmapError.invalidScale(scale) }
    }

    /// Traps unless `region` lies wholly inside the bitmap: the check every public drawing call makes
    /// before its kernel writes through pointers (a bad rectangle is a programming error, as an
    /// array index out of range is).
    @inline(__always)
    func requireInside(_ region: PixelRect) {
        precondition(region.x >= 0 && region.y >= 0 && region.width >= 0 && region.height >= 0
                     && region.x <= width - region.width && region.y <= height - region.height,
                     "rectangle (\(region.x), \(region.y), \(region.width)×\(region.height)) is not inside the \(width)×\(height) image")
    }

    /// Width and height in points (pixels ÷ scale).
    public var pointSize: (width: Double, height: Double) {
        (Double(width) / scale, Double(height) / scale)
    }

    /// The premultiplied RGBA of pixel (x, y). Traps when out of bounds.
    public subscript(x: Int, y: Int) -> RGBA8 {
        get {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) out of bounds")
            let i = y * bytesPerRow + x * 4
            return RGBA8(r: storage[i], g: storage[i + 1], b: storage[i + 2], a: storage[i + 3])
        }
        set {
            precondition(x >= 0 && x < width && y >= 0 && y < height, "pixel (\(x), \(y)) out of bounds")
            precondition(newValue.r <= newValue.a && newValue.g <= newValue.a && newValue.b <= newValue.a,
                         "a premultiplied colour cannot exceed its alpha")
            let i = y * bytesPerRow + x * 4
            storage[i] = newValue.r
            storage[i + 1] = newValue.g
            storage[i + 2] = newValue.b
            storage[i + 3] = newValue.a
        }
    }

    /// The premultiplied bytes, tightly packed (`width * 4` a row).
    public var premultipliedRGBA: [UInt8] {
        if bytesPerRow == width * 4 { return storage }
        var packed = [UInt8]()
        packed.reserveCapacity(width * height * 4)
        for y in 0..<height {
            packed.append(contentsOf: storage[(y * bytesPerRow)..<(y * bytesPerRow + width * 4)])
        }
        return packed
    }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool {
        storage.withUnsafeBufferPointer { p in
            for y in 0..<height {
                var all: UInt8 = 255
                let row = y * bytesPerRow
                for x in 0..<width { all &= p[row &+ x &* 4 &+ 3] }
                if all != 255 { return false }
            }
            return true
        }
    }

    private func firstPixelViolatingPremultiplication() -> (Int, Int)? {
        storage.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * bytesPerRow
                // Negative as soon as a colour exceeds its alpha; no branch, so it vectorises.
                var flag: Int32 = 0
                for x in 0..<width {
                    let i = row &+ x &* 4, a = Int32(p[i &+ 3])
                    flag |= (a &- Int32(p[i])) | (a &- Int32(p[i &+ 1])) | (a &- Int32(p[i &+ 2]))
                }
                guard flag < 0 else { continue }
                for x in 0..<width {
                    let i = row + x * 4, a = p[i + 3]
                    if p[i] > a || p[i + 1] > a || p[i + 2] > a { return (x, y) }
                }
            }
            return nil
        }
    }

    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        guard lhs.width == rhs.width, lhs.height == rhs.height, lhs.scale == rhs.scale else { return false }
        if lhs.bytesPerRow == rhs.bytesPerRow { return lhs.storage == rhs.storage }
        return lhs.premultipliedRGBA == rhs.premultipliedRGBA
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(premultipliedRGBA)
    }
}

/// One premultiplied RGBA pixel.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    public var description: String { "RGBA8(\(r), \(g), \(b), \(a))" }
}
