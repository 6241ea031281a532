// Command-line harness for Scripts/thumbhash_check.py. Not part of the package.
//
// Build: swiftc -O -parse-as-library -swift-version 6 \
//          Sources/BlurCore/Placeholders/ThumbHash.swift Scripts/thumbhash_harness/Harness.swift -o harness
//
// Reads one request a line on stdin, writes one reply a line on stdout. Hex is lowercase, "-" is
// empty. Replies start with "OK" or "ERR <description>".
//   enc W H RGBAHEX  -> OK HASHHEX
//   dec HASHHEX      -> OK W H RGBAHEX
//   avg HASHHEX      -> OK r g b a        (shortest round-trip decimal)
//   ar HASHHEX       -> OK ratio
//   fuzz N SEED      -> OK <counts>  or  FAIL <what>   (decodes N arbitrary byte strings)

@main
struct Harness {
    static func main() {
        while let line = readLine() {
            let parts = line.split(separator: " ").map(String.init)
            guard let command = parts.first else { continue }
            print(reply(command, Array(parts.dropFirst())))
        }
    }

    static func reply(_ command: String, _ args: [String]) -> String {
        do {
            switch command {
            case "enc":
                guard args.count == 3, let w = Int(args[0]), let h = Int(args[1]), let rgba = unhex(args[2]) else {
                    return "ERR bad request"
                }
                return "OK " + hex(try ThumbHash.encode(width: w, height: h, rgba: rgba))
            case "dec":
                guard args.count == 1, let hash = unhex(args[0]) else { return "ERR bad request" }
                let img = try ThumbHash.decode(hash)
                return "OK \(img.width) \(img.height) " + hex(img.rgba)
            case "avg":
                guard args.count == 1, let hash = unhex(args[0]) else { return "ERR bad request" }
                let c = try ThumbHash.averageColor(hash)
                return "OK \(c.r) \(c.g) \(c.b) \(c.a)"
            case "ar":
                guard args.count == 1, let hash = unhex(args[0]) else { return "ERR bad request" }
                return "OK \(try ThumbHash.approximateAspectRatio(hash))"
            case "fuzz":
                guard args.count == 2, let n = Int(args[0]), let seed = UInt64(args[1]) else { return "ERR bad request" }
                return fuzz(count: n, seed: seed)
            default:
                return "ERR unknown command \(command)"
            }
        } catch {
            return "ERR \(error)"
        }
    }

    // MARK: Fuzzing

    /// Decodes structured and random byte strings; checks that the three readers agree on
    /// validity and that every result is in range.
    static func fuzz(count: Int, seed: UInt64) -> String {
        var rng = SplitMix64(state: seed)
        var ok = 0, tooShort = 0, zeroCount = 0
        var inputs: [[UInt8]] = []

        // Every combination of the fields that set the length (alpha bit, L count, landscape
        // bit) at every length 0…30, other bits random.
        for alpha in 0..<2 {
            for lCount in 0..<8 {
                for landscape in 0..<2 {
                    for length in 0...30 {
                        var bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                        if length > 2 { bytes[2] = (bytes[2] & 0x7f) | UInt8(alpha << 7) }
                        if length > 3 { bytes[3] = (bytes[3] & 0xf8) | UInt8(lCount) }
                        if length > 4 { bytes[4] = (bytes[4] & 0x7f) | UInt8(landscape << 7) }
                        inputs.append(bytes)
                    }
                }
            }
        }
        // Random strings, and real hashes truncated, extended or with a bit flipped.
        for _ in 0..<count {
            switch rng.next() % 3 {
            case 0:
                let length = Int(rng.next() % 40)
                inputs.append((0..<length).map { _ in UInt8(truncatingIfNeeded: rng.next()) })
            default:
                let w = 1 + Int(rng.next() % 12), h = 1 + Int(rng.next() % 12)
                let rgba = (0..<(w * h * 4)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
                guard var hash = try? ThumbHash.encode(width: w, height: h, rgba: rgba) else {
                    return "FAIL encode threw for \(w)×\(h)"
                }
                switch rng.next() % 3 {
                case 0: hash.removeLast(1 + Int(rng.next() % UInt64(hash.count)))
                case 1: hash.append(UInt8(truncatingIfNeeded: rng.next()))
                default:
                    let bit = Int(rng.next() % UInt64(hash.count * 8))
                    hash[bit / 8] ^= UInt8(1 << (bit % 8))
                }
                inputs.append(hash)
            }
        }

        for bytes in inputs {
            let image: (width: Int, height: Int, rgba: [UInt8])
            do {
                image = try ThumbHash.decode(bytes)
            } catch {
                if (try? ThumbHash.averageColor(bytes)) != nil || (try? ThumbHash.approximateAspectRatio(bytes)) != nil {
                    return "FAIL decode threw but averageColor/approximateAspectRatio did not: \(hex(bytes))"
                }
                switch error {
                case .hashTooShort: tooShort += 1
                case .zeroLuminanceCount: zeroCount += 1
                default: return "FAIL unexpected error \(error) for \(hex(bytes))"
                }
                continue
            }
            guard (1...32).contains(image.width), (1...32).contains(image.height),
                  max(image.width, image.height) == 32,
                  image.rgba.count == image.width * image.height * 4
            else { return "FAIL bad image \(image.width)×\(image.height) for \(hex(bytes))" }
            guard let c = try? ThumbHash.averageColor(bytes), let ratio = try? ThumbHash.approximateAspectRatio(bytes) else {
                return "FAIL decode succeeded but averageColor/approximateAspectRatio threw: \(hex(bytes))"
            }
            guard [c.r, c.g, c.b, c.a].allSatisfy({ (0...1).contains($0) }),
                  ratio >= 1.0 / 7 - 1e-12, ratio <= 7
            else { return "FAIL out of range colour/ratio for \(hex(bytes))" }
            ok += 1
        }
        return "OK inputs=\(inputs.count) decoded=\(ok) tooShort=\(tooShort) zeroLuminanceCount=\(zeroCount)"
    }

    // MARK: Hex

    static func hex(_ bytes: [UInt8]) -> String {
        if bytes.isEmpty { return "-" }
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func unhex(_ s: String) -> [UInt8]? {
        if s == "-" { return [] }
        let u = Array(s.utf8)
        guard u.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case 48...57: return c - 48
            case 97...102: return c - 87
            case 65...70: return c - 55
            default: return nil
            }
        }
        var out: [UInt8] = []
        out.reserveCapacity(u.count / 2)
        var i = 0
        while i < u.count {
            guard let hi = nibble(u[i]), let lo = nibble(u[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }
}

struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
