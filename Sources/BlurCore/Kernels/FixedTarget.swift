/// Where a fixed-point pass (``Kernels/fixedHorizontal(_:weights:count:into:)``,
/// ``Kernels/fixedBlend(_:weights:count:into:)``) writes its sums, which carry 7 fractional bits:
/// bytes, rounded to nearest and clamped to 255, or another line that keeps the 7 bits for a
/// further pass (the progressive blur's coarse lines).
enum FixedTarget {
    case bytes(UnsafeMutablePointer<UInt8>)
    case line(UnsafeMutablePointer<UInt16>)

    /// What a pass adds to its sums before they are stored: half a byte's unit where the
    /// fractional bits are dropped, nothing where they are kept.
    var rounding: UInt16 {
        if case .bytes = self { return 1 &<< UInt16(FixedPointRows.lineBits - 1) }
        return 0
    }

    /// Stores 32 sums from element `i` on.
    @inline(__always)
    func store(_ a0: SIMD16<UInt16>, _ a1: SIMD16<UInt16>, at i: Int) {
        store(a0, at: i)
        store(a1, at: i + 16)
    }

    /// Stores 16 sums from element `i` on.
    @inline(__always)
    func store(_ a: SIMD16<UInt16>, at i: Int) {
        switch self {
        case let .bytes(out):
            UnsafeMutableRawPointer(out + i).storeBytes(of: Kernels.narrow(a &>> UInt16(FixedPointRows.lineBits)), as: SIMD16<UInt8>.self)
        case let .line(out):
            UnsafeMutableRawPointer(out + i).storeBytes(of: a, as: SIMD16<UInt16>.self)
        }
    }

    /// Stores one sum as element `i`.
    @inline(__always)
    func store(_ v: UInt16, at i: Int) {
        switch self {
        case let .bytes(out): out[i] = UInt8(truncatingIfNeeded: min(v &>> UInt16(FixedPointRows.lineBits), 255))
        case let .line(out): out[i] = v
        }
    }
}
