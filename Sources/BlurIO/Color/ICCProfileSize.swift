/// The memory lcms2 (2.14) would allocate to open an ICC profile and read its tags, computed from
/// the sizes the header and the tags declare, without opening it.
///
/// lcms2 allocates and zeroes a table from its declared size before it reads the table's data: a
/// 353-byte profile whose three lut16 (`mft2`) tags declare 255³-point CLUTs of 15 outputs makes it
/// zero about 500 MB three times before it notices the data is missing. This reader walks the header
/// and the tag table and adds up, for every tag, what its type allocates from its declared counts:
///
/// - `curv`: the table (2 bytes an entry, copied once: 4) and the curve's own tables (16 KB);
///   `para`: 16 KB;
/// - `mft1` (lut8), `mft2` (lut16): the CLUT, outputs × points^inputs entries of 2 bytes, read
///   into one table and copied into another (plus the 8-bit read buffer for lut8), and the input
///   and output curves;
/// - `mAB `, `mBA ` (lutAtoB, lutBtoA): the CLUT (the product of the 16 grid sizes the CLUT block
///   declares × outputs × 2 bytes) and the A, M and B curve sets, each curve as above;
/// - `mpet` (multiProcessElement): `clut` (4-byte floats), `matf` and `cvst` elements, with the
///   sampled segments of every curve;
/// - `mluc`, `ncl2`, `dict`: their declared record counts; any other type: twice its size.
///
/// The sum is a bound, not a measurement: linked tags are counted once each, and the tables lcms2
/// makes later for a transform (a few hundred KB for a CLUT profile) are not counted.
///
/// A profile is malformed — ``Malformed`` — when it is shorter than a header and a tag count, lacks
/// the `acsp` signature, declares more tags than lcms2's 100, or when a tag, or an offset inside one
/// (a CLUT, a curve, an element), lies outside the profile.
package struct ICCProfileSize {
    /// Why a profile's cost cannot be read from it.
    package struct Malformed: Error, Equatable {
        /// What is wrong, for people: "tag 'A2B0' runs past the end of the profile (353 bytes)".
        package let reason: String
    }

    /// Bytes lcms2 would allocate, at most, to open the profile and read every tag (saturates at
    /// `Int.max`).
    package let bytes: Int

    /// What lcms2 allocates for one tone curve besides its table: the curve, its segments and
    /// the 4096-entry table it evaluates through.
    static let curveBytes = 16 << 10

    /// The most tags lcms2 reads (its `MAX_TABLE_TAG`); a profile with more is refused.
    static let maximumTags = 100

    /// Reads `data`'s header and tag table; throws ``Malformed``.
    package init(_ data: [UInt8]) throws(Malformed) {
        let reader = Reader(data: data)
        guard data.count >= 132 else { throw Malformed(reason: "it is \(data.count) bytes, shorter than a header and a tag count") }
        guard try reader.signature(36) == "acsp" else { throw Malformed(reason: "it has no 'acsp' signature") }
        // lcms2 reads up to the smaller of the declared size and the bytes there are.
        let end = min(data.count, try reader.u32(0))
        let count = try reader.u32(128)
        guard count <= ICCProfileSize.maximumTags else {
            throw Malformed(reason: "it declares \(count) tags, over lcms2's \(ICCProfileSize.maximumTags)")
        }
        guard 132 + 12 * count <= end else { throw Malformed(reason: "its tag table runs past the end of the profile (\(end) bytes)") }
        var total = data.count
        for index in 0..<count {
            let entry = 132 + 12 * index
            let name = try reader.signature(entry), offset = try reader.u32(entry + 4), size = try reader.u32(entry + 8)
            // lcms2 skips an empty entry.
            if size == 0 || offset == 0 { continue }
            guard size >= 8, offset <= end - size else {
                throw Malformed(reason: "tag '\(name)' (\(size) bytes at \(offset)) lies outside the profile (\(end) bytes)")
            }
            let tag = Reader(data: data, end: end)
            total = ICCProfileSize.plus(total, try tag.cost(at: offset, size: size, name: name))
        }
        bytes = total
    }

    /// `a + b`, saturating.
    static func plus(_ a: Int, _ b: Int) -> Int {
        let (sum, overflow) = a.addingReportingOverflow(b)
        return overflow ? .max : sum
    }

    /// `a × b`, saturating (both ≥ 0).
    static func times(_ a: Int, _ b: Int) -> Int {
        let (product, overflow) = a.multipliedReportingOverflow(by: b)
        return overflow ? .max : product
    }

    /// Big-endian reads within the first `end` bytes, and what each tag type allocates.
    private struct Reader {
        let data: [UInt8]
        var end: Int

        init(data: [UInt8], end: Int? = nil) {
            self.data = data
            self.end = end ?? data.count
        }

        func u8(_ at: Int) throws(Malformed) -> Int {
            guard at >= 0, at < end else { throw Malformed(reason: "an offset (\(at)) points outside the profile (\(end) bytes)") }
            return Int(data[at])
        }

        func u16(_ at: Int) throws(Malformed) -> Int { try u8(at) << 8 | u8(at + 1) }

        func u32(_ at: Int) throws(Malformed) -> Int { try u16(at) << 16 | u16(at + 2) }

        func signature(_ at: Int) throws(Malformed) -> String {
            let bytes = [try u8(at), try u8(at + 1), try u8(at + 2), try u8(at + 3)]
            return String(decoding: bytes.map { UInt8($0) }, as: Unicode.ASCII.self)
        }

        /// The bytes lcms2 allocates to read the tag of `size` bytes at `offset` (`name` for messages).
        func cost(at offset: Int, size: Int, name: String) throws(Malformed) -> Int {
            let body = offset + 8
            switch try signature(offset) {
            case "curv": return try curve(at: offset).bytes
            case "para": return ICCProfileSize.curveBytes
            case "mft1", "mft2":
                let eight = try signature(offset) == "mft1"
                let inputs = try u8(body), outputs = try u8(body + 1), points = try u8(body + 2)
                let entries = ICCProfileSize.times(outputs, ICCProfileSize.power(points, inputs))
                // lut8: 256-entry curves, the CLUT read as bytes then widened; lut16: declared lengths.
                let inputEntries = try eight ? 256 : u16(body + 40), outputEntries = try eight ? 256 : u16(body + 42)
                let clut = ICCProfileSize.times(entries, eight ? 5 : 4)
                let curves = inputs * (inputEntries * 4 + ICCProfileSize.curveBytes) + outputs * (outputEntries * 4 + ICCProfileSize.curveBytes)
                return ICCProfileSize.plus(clut, curves)
            case "mAB ", "mBA ": return try lut(at: offset, aToB: try signature(offset) == "mAB ")
            case "mpet": return try elements(at: offset)
            case "mluc": return ICCProfileSize.plus(ICCProfileSize.times(try u32(body), 16), size * 2)
            case "ncl2": return ICCProfileSize.times(try u32(body + 4), 300)
            case "dict": return ICCProfileSize.plus(ICCProfileSize.times(try u32(body), 64), size * 2)
            default: return size * 2
            }
        }

        /// A `curv` or `para` curve at `at`: what lcms2 allocates for it and its length in bytes.
        func curve(at: Int) throws(Malformed) -> (bytes: Int, length: Int) {
            switch try signature(at) {
            case "curv":
                let count = try u32(at + 8)
                return (
                    ICCProfileSize.plus(ICCProfileSize.times(count, 4), ICCProfileSize.curveBytes),
                    ICCProfileSize.plus(12, ICCProfileSize.times(count, 2))
                )
            case "para":
                let parameters = [1, 3, 4, 5, 7]
                let function = try u16(at + 8)
                guard function < parameters.count else { throw Malformed(reason: "a parametric curve has the unknown function \(function)") }
                return (ICCProfileSize.curveBytes, 12 + 4 * parameters[function])
            case let other:
                throw Malformed(reason: "a curve has the unknown type '\(other)'")
            }
        }

        /// `count` curves one after another from `at` (each 4-byte aligned), as lutAtoB and lutBtoA hold them.
        func curves(at: Int, count: Int) throws(Malformed) -> Int {
            var position = at, total = 0
            for _ in 0..<count {
                let (bytes, length) = try curve(at: position)
                total = ICCProfileSize.plus(total, bytes)
                position = ICCProfileSize.plus(position, (length + 3) & ~3)
            }
            return total
        }

        /// The product of the first `inputs` of the 16 grid sizes at `at` (at most 15 count, as lcms2's).
        func grid(at: Int, inputs: Int) throws(Malformed) -> Int {
            var product = 1
            for i in 0..<min(inputs, 16) { product = ICCProfileSize.times(product, try u8(at + i)) }
            return product
        }

        /// lutAtoB or lutBtoA: the CLUT and the A, M and B curve sets.
        func lut(at offset: Int, aToB: Bool) throws(Malformed) -> Int {
            let inputs = try u8(offset + 8), outputs = try u8(offset + 9)
            let b = try u32(offset + 12), m = try u32(offset + 20), clut = try u32(offset + 24), a = try u32(offset + 28)
            // A curves sit on the CLUT's input side, B on the tag's output side; M between matrix and B.
            let sets = aToB ? [(a, inputs), (m, outputs), (b, outputs)] : [(b, inputs), (m, inputs), (a, outputs)]
            var total = 0
            for (relative, count) in sets where relative != 0 {
                total = ICCProfileSize.plus(total, try curves(at: offset + relative, count: count))
            }
            if clut != 0 {
                let entries = ICCProfileSize.times(outputs, try grid(at: offset + clut, inputs: inputs))
                total = ICCProfileSize.plus(total, ICCProfileSize.times(entries, 2))
            }
            return total
        }

        /// multiProcessElement: its `clut`, `matf` and `cvst` elements.
        func elements(at offset: Int) throws(Malformed) -> Int {
            let count = try u32(offset + 12)
            var total = 0
            for index in 0..<count {
                let element = offset + (try u32(offset + 16 + 8 * index))
                let inputs = try u16(element + 8), outputs = try u16(element + 10)
                switch try signature(element) {
                case "clut":
                    let entries = ICCProfileSize.times(outputs, try grid(at: element + 12, inputs: inputs))
                    total = ICCProfileSize.plus(total, ICCProfileSize.times(entries, 4))
                case "matf":
                    total = ICCProfileSize.plus(total, (inputs * outputs + outputs) * 8)
                case "cvst":
                    for curve in 0..<inputs {
                        total = ICCProfileSize.plus(total, try segmentedCurve(at: element + (try u32(element + 12 + 8 * curve))))
                    }
                default: total = ICCProfileSize.plus(total, 64)
                }
            }
            return total
        }

        /// A `curf` segmented curve: its segments and their sampled points (4-byte floats, copied once).
        func segmentedCurve(at: Int) throws(Malformed) -> Int {
            guard try signature(at) == "curf" else { throw Malformed(reason: "a multiProcessElement curve is not 'curf'") }
            let segments = try u16(at + 8)
            var position = at + 12 + 4 * max(0, segments - 1)
            var total = ICCProfileSize.plus(ICCProfileSize.curveBytes, segments * 128)
            for _ in 0..<segments {
                switch try signature(position) {
                case "parf":
                    let parameters = [4, 5, 5], function = try u16(position + 8)
                    guard function < parameters.count else { throw Malformed(reason: "a curve segment has the unknown function \(function)") }
                    position += 12 + 4 * parameters[function]
                case "samf":
                    let points = try u32(position + 8)
                    total = ICCProfileSize.plus(total, ICCProfileSize.times(points + 1, 8))
                    position = ICCProfileSize.plus(position, ICCProfileSize.plus(12, ICCProfileSize.times(points, 4)))
                case let other:
                    throw Malformed(reason: "a curve segment has the unknown type '\(other)'")
                }
            }
            return total
        }
    }

    /// `base ^ exponent` (both ≥ 0), saturating; 0 when `base` is 0 (no CLUT).
    static func power(_ base: Int, _ exponent: Int) -> Int {
        guard base > 0 else { return 0 }
        var result = 1
        for _ in 0..<exponent { result = times(result, base) }
        return result
    }
}
