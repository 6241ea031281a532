import BlurCore
import Foundation

enum IOTestImages {
    /// Random premultiplied pixels from a fixed seed; some transparent, some opaque.
    static func noise(width: Int, height: Int, seed: UInt64, opaque: Bool = false) -> Bitmap {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        func byte() -> Int {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return Int(truncatingIfNeeded: (state >> 24) & 0xFF)
        }
        var bytes = [UInt8]()
        for _ in 0..<(width * height) {
            let pick = byte()
            let a = opaque || pick < 64 ? 255 : (pick < 96 ? 0 : byte())
            bytes += [UInt8(byte() % (a + 1)), UInt8(byte() % (a + 1)), UInt8(byte() % (a + 1)), UInt8(a)]
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
    }

    /// Smooth opaque content (gradients, a disc): what JPEG is made for.
    static func smooth(width: Int, height: Int) -> Bitmap {
        var bytes = [UInt8]()
        for y in 0..<height {
            for x in 0..<width {
                let d = ((Double(x) - Double(width) / 2) * (Double(x) - Double(width) / 2) + (Double(y) - Double(height) / 2) * (Double(y) - Double(height) / 2)).squareRoot()
                let disc = d < Double(min(width, height)) / 3
                bytes += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), disc ? 200 : 60, 255]
            }
        }
        return try! Bitmap(width: width, height: height, premultipliedRGBA: bytes)
    }

    static func temporaryFolder() -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("blurkit-tests-\(UUID().uuidString)").path
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}
