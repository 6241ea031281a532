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
    /// Bytes from the start of one row to the next: always `width * 4`. A bitmap keeps its pixels
    /// tightly packed; bytes given with a wider stride are copied tight once, by the initialiser,
    /// so no kernel ever sees padding.
    public var bytesPerRow: Int { width &* 4 }
    /// Pixels per point (1, 2, 3…): how component APIs in points map onto these pixels. Default 1.
    public var scale: Double
    /// The parameter table entry for a scale given by a user (a command line, a scene file): 0.01…16.
    public static let scaleSpec = ParameterSpec(
        name: "scale", unit: "px/pt", range: 0.01...16, defaultValue: 1, summary: "pixels per point")
    /// Exactly `width * height * 4` bytes.
    @usableFromInline var storage: [UInt8]

    /// A transparent bitmap of `width × height` pixels.
    /// - Throws: ``BitmapError`` for a size ≤ 0 or over the pixel-count limit, or a scale that is
    ///   not a positive finite number.
    public init(width: Int, height: Int, scale: Double = 1) throws(BitmapError) {
        try Bitmap.validate(width: width, height: height, scale: scale)
        try Bitmap.admit(width: width, height: height)
        self.init(validatedWidth: width, height: height, scale: scale)
        storage.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// A bitmap whose bytes the caller fills before anyone reads them (kernels and decoders). The
    /// size and scale have been validated.
    init(validatedWidth width: Int, height: Int, scale: Double) {
        self.width = width
        self.height = height
        self.scale = scale
        self.storage = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            Memory.preferHugePages(buffer.baseAddress, byteCount: buffer.count)
            count = width * height * 4
        }
    }

    /// A bitmap over `storage`, exactly `width * height * 4` bytes, tightly packed: premultiplied,
    /// or made so by the caller before anyone reads them (the straight-alpha initialisers).
    init(validatedWidth width: Int, height: Int, scale: Double, storage: [UInt8]) {
        assert(storage.count == width * height * 4)
        self.width = width
        self.height = height
        self.scale = scale
        self.storage = storage
    }

    /// A bitmap over premultiplied RGBA bytes whose rows lie `bytesPerRow` apart (default: tightly
    /// packed, `width * 4`). Padded rows are copied into tight storage here, once.
    ///
    /// `bytes` must hold exactly the rows: `bytesPerRow × height` bytes, or that less the last row's
    /// padding (`bytesPerRow × (height − 1) + width × 4`).
    /// - Throws: ``BitmapError`` for an invalid size or scale, a stride below `width * 4`, a byte
    ///   count that does not match, or a colour that exceeds its alpha (the bytes are not
    ///   premultiplied).
    public init(width: Int, height: Int, bytesPerRow: Int? = nil, premultipliedRGBA bytes: [UInt8], scale: Double = 1) throws(BitmapError) {
        try Bitmap.validate(width: width, height: height, scale: scale)
        let packed = width * 4, stride = bytesPerRow ?? packed
        guard stride >= packed, stride <= Int(Int32.max) else { throw BitmapError.invalidStride(bytesPerRow: stride, width: width) }
        let full = stride * height, trimmed = full - (stride - packed)
        guard bytes.count == full || bytes.count == trimmed else {
            throw BitmapError.byteCountMismatch(expected: stride == packed ? full : trimmed, got: bytes.count)
        }
        if stride == packed {
            self.init(validatedWidth: width, height: height, scale: scale, storage: bytes)
        } else {
            self.init(validatedWidth: width, height: height, scale: scale)
            bytes.withUnsafeBufferPointer { source in
                let padded = PixelView(base: source.baseAddress!, width: width, height: height, bytesPerRow: stride)
                withMutablePixels { pixels in
                    for y in 0..<height { pixels.row(y).copyBytes(from: padded.row(y), count: packed) }
                }
            }
        }
        if let (x, y) = firstPixelViolatingPremultiplication() {
            throw BitmapError.notPremultiplied(x: x, y: y)
        }
    }

    package static func validate(width: Int, height: Int, scale: Double) throws(BitmapError) {
        guard width > 0, height > 0 else { throw BitmapError.invalidSize(width: width, height: height) }
        let limit = ImageLimits.maximumPixelCount
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= limit, width <= Int(Int32.max) / 4 else {
            throw BitmapError.tooLarge(width: width, height: height, limit: limit)
        }
        guard scale.isFinite, scale > 0 else { throw BitmapError.invalidScale(scale) }
    }

    /// Asks ``HeapGate`` for `width × height` pixels (validated): a bitmap that would take the heap
    /// past its ceiling is refused before it is allocated.
    package static func admit(width: Int, height: Int) throws(BitmapError) {
        #if hasFeature(Embedded)
        try HeapGate.admit(width * height * 4)
        #else
        do { try HeapGate.admit(width * height * 4) } catch { throw .overHeapCeiling(error) }
        #endif
    }

    /// Traps unless `region` lies wholly inside the bitmap: the check every public drawing call makes
    /// before its kernel writes through pointers (a bad rectangle is a programming error, as an
    /// array index out of range is).
    @inline(__always)
    func requireInside(_ region: PixelRect) {
        precondition(
            region.x >= 0 && region.y >= 0 && region.width >= 0 && region.height >= 0
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
            precondition(
                newValue.r <= newValue.a && newValue.g <= newValue.a && newValue.b <= newValue.a,
                "a premultiplied colour cannot exceed its alpha")
            let i = y * bytesPerRow + x * 4
            storage[i] = newValue.r
            storage[i + 1] = newValue.g
            storage[i + 2] = newValue.b
            storage[i + 3] = newValue.a
        }
    }

    /// The premultiplied bytes, tightly packed (`width * 4` a row).
    public var premultipliedRGBA: [UInt8] { storage }

    /// True when every pixel has alpha 255.
    public var isOpaque: Bool { withPixels { $0.isOpaque } }

    func firstPixelViolatingPremultiplication() -> (Int, Int)? {
        withPixels { pixels in
            for y in 0..<height {
                let p = pixels.row(y)
                // Negative as soon as a colour exceeds its alpha; no branch, so it vectorises.
                var flag: Int32 = 0
                for x in 0..<width {
                    let i = x &* 4, a = Int32(p[i &+ 3])
                    flag |= (a &- Int32(p[i])) | (a &- Int32(p[i &+ 1])) | (a &- Int32(p[i &+ 2]))
                }
                guard flag < 0 else { continue }
                for x in 0..<width {
                    let i = x * 4, a = p[i + 3]
                    if p[i] > a || p[i + 1] > a || p[i + 2] > a { return (x, y) }
                }
            }
            return nil
        }
    }

    /// Equal size, scale and pixels.
    public static func == (lhs: Bitmap, rhs: Bitmap) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.scale == rhs.scale && lhs.storage == rhs.storage
    }

    /// Hashes the size and pixels; the scale, which `==` also compares, is left out.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(width)
        hasher.combine(height)
        hasher.combine(storage)
    }
}

/// One premultiplied RGBA pixel.
public struct RGBA8: Sendable, Hashable, CustomStringConvertible {
    /// Red, green, blue and alpha, 0…255; the colours premultiplied, so each ≤ `a` (a bitmap traps on storing one that is not).
    public var r: UInt8, g: UInt8, b: UInt8, a: UInt8
    /// A pixel of these bytes, as given: premultiplication is checked only when a bitmap stores it.
    public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }
    /// `RGBA8(r, g, b, a)`, for messages.
    public var description: String { "RGBA8(\(r), \(g), \(b), \(a))" }
}
