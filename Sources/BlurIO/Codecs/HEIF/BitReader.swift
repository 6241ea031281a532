/// Big-endian bits and bytes from a slice, for the boxes and codec headers of a HEIF file; every
/// read past the end throws ``End`` instead of trapping.
struct BitReader {
    /// A read went past the end of the data.
    struct End: Error {}

    private let bytes: ArraySlice<UInt8>
    /// Bits read so far.
    private(set) var position = 0

    init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }

    /// Bits left.
    var remaining: Int { bytes.count * 8 - position }

    /// The next `count` bits (0…64) as an unsigned number, most significant first.
    mutating func bits(_ count: Int) throws(End) -> UInt64 {
        guard count >= 0, count <= 64, count <= remaining else { throw End() }
        var value: UInt64 = 0
        for _ in 0..<count {
            let byte = bytes[bytes.startIndex + position >> 3]
            value = value << 1 | UInt64(byte >> (7 - UInt8(position & 7)) & 1)
            position += 1
        }
        return value
    }

    /// The next `count` bits as an `Int` (count ≤ 62, so that it cannot overflow).
    mutating func int(_ count: Int) throws(End) -> Int {
        guard count <= 62 else { throw End() }
        return Int(try bits(count))
    }

    /// Skips `count` bits.
    mutating func skip(_ count: Int) throws(End) {
        guard count >= 0, count <= remaining else { throw End() }
        position += count
    }

    /// An unsigned Exp-Golomb number (HEVC's `ue(v)`), at most 31 leading zeros.
    mutating func exponentialGolomb() throws(End) -> Int {
        var zeros = 0
        while try bits(1) == 0 {
            zeros += 1
            guard zeros < 32 else { throw End() }
        }
        return (1 << zeros) - 1 + (try int(zeros))
    }

    /// AV1's `uvlc()`: 32 or more leading zeros mean the largest value.
    mutating func variableLengthCode() throws(End) -> Int {
        var zeros = 0
        while try bits(1) == 0 { zeros += 1 }
        guard zeros < 32 else { return Int(UInt32.max) }
        return (1 << zeros) - 1 + (try int(zeros))
    }

    /// AV1's `leb128()`: up to 8 bytes of 7 bits, least significant first (byte aligned).
    mutating func leb128() throws(End) -> Int {
        var value = 0
        for i in 0..<8 {
            let byte = try int(8)
            value |= (byte & 0x7F) << (7 * i)
            if byte & 0x80 == 0 { return value }
        }
        return value
    }

    /// The next `count` whole bytes (the reader must be byte aligned).
    mutating func bytes(_ count: Int) throws(End) -> ArraySlice<UInt8> {
        guard position & 7 == 0, count >= 0, count <= remaining / 8 else { throw End() }
        let start = bytes.startIndex + position / 8
        position += count * 8
        return bytes[start..<start + count]
    }

    /// What is left, from the next whole byte.
    mutating func rest() throws(End) -> ArraySlice<UInt8> { try bytes(remaining / 8) }
}
