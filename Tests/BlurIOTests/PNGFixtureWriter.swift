/// A minimal, independent PNG encoder for tests: any colour type and bit depth, PLTE and tRNS,
/// zlib with stored (uncompressed) blocks. It lets the tests make every kind of PNG without
/// trusting the codec under test.
struct PNGFixtureWriter {
    var width: Int, height: Int
    var bitDepth: UInt8
    var colourType: UInt8  // 0 gray, 2 RGB, 3 palette, 4 gray+alpha, 6 RGBA
    var palette: [UInt8] = []
    var transparency: [UInt8]? = nil
    /// Unfiltered scanlines, already packed at `bitDepth` (without the filter byte).
    var rows: [[UInt8]]
    /// Adam7 interlacing (byte-aligned depths only: 8 and 16 bits a sample).
    var interlaced = false

    func encode() -> [UInt8] {
        var out: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var ihdr = be32(width) + be32(height)
        ihdr += [bitDepth, colourType, 0, 0, interlaced ? 1 : 0]
        out += chunk("IHDR", ihdr)
        if !palette.isEmpty { out += chunk("PLTE", palette) }
        if let transparency { out += chunk("tRNS", transparency) }
        var raw: [UInt8] = []
        if interlaced {
            // The seven passes of Adam7, each a small image of every n-th pixel, empty ones left out.
            let channels = [0: 1, 2: 3, 4: 2, 6: 4][Int(colourType)] ?? 1, bytes = channels * Int(bitDepth) / 8
            for (x0, y0, dx, dy) in [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            where x0 < width {
                for y in stride(from: y0, to: height, by: dy) {
                    raw.append(0)
                    for x in stride(from: x0, to: width, by: dx) { raw += rows[y][(x * bytes)..<(x * bytes + bytes)] }
                }
            }
        } else {
            for row in rows { raw += [0] + row }
        }
        out += chunk("IDAT", zlibStored(raw))
        out += chunk("IEND", [])
        return out
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    private func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(data.count) + body + be32(Int(PNGFixtureWriter.crc32(body)))
    }

    private func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let n = min(65535, data.count - at)
            let final: UInt8 = at + n == data.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += data[at..<(at + n)]
            at += n
        } while at < data.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return out + be32(Int(b << 16 | a))
    }
}

func be32(_ v: Int) -> [UInt8] {
    [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
}

/// Packs samples of `depth` bits (1, 2, 4, 8, 16) into a scanline, most significant first.
func pack(_ samples: [Int], depth: Int) -> [UInt8] {
    if depth == 16 { return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] } }
    if depth == 8 { return samples.map { UInt8($0) } }
    var out: [UInt8] = [], bits = 0, current = 0
    for s in samples {
        current = current << depth | s
        bits += depth
        if bits == 8 { out.append(UInt8(current)); bits = 0; current = 0 }
    }
    if bits > 0 { out.append(UInt8(current << (8 - bits))) }
    return out
}
