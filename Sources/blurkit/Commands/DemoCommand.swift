import BlurKit
import Foundation

/// `blurkit demo [DIR]`: renders the sample picture, its blurs and a gallery sheet into DIR.
enum DemoCommand {
    static let options: [OptionSpec] = [
        OptionSpec(name: "quiet", value: nil, help: "print nothing but errors"),
    ]

    static let help = helpText(
        usage: "blurkit demo [DIR] [options]",
        summary: """
            Renders the built-in sample picture (gradients, shapes, fine detail) and its Gaussian blurs
            at σ 2, 8 and 24 px, a cut-out blurred with transparent edges, and a gallery sheet of them
            all into DIR (default ./demo-output), then prints the paths.
            """,
        options: options)

    static func run(_ words: ArraySlice<String>) throws -> String? {
        let arguments = try ParsedArguments(words, options: options)
        if arguments.wantsHelp { return help }
        guard arguments.operands.count <= 1 else { throw CLIError.usage("demo takes at most one folder") }
        let folder = arguments.operands.first ?? "demo-output"
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw CLIError.failure("cannot create \(folder): \(error.localizedDescription)")
        }
        var written: [String] = []
        func save(_ image: Bitmap, _ name: String) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try ImageFile.write(image, to: path)
            written.append(path)
            if !arguments.has("quiet") { print(path) }
        }

        let sample = try SampleArt.render()
        try save(sample, "sample.png")
        var tiles = [(sample, "original")]
        for sigma in [2.0, 8, 24] {
            let blurred = try sample.gaussianBlurred(sigma: sigma)
            try save(blurred, "blur-sigma-\(Int(sigma)).png")
            tiles.append((blurred, "σ \(Int(sigma))"))
        }
        let cutout = try SampleArt.render(background: false)
        try save(cutout, "cutout.png")
        try save(try cutout.gaussianBlurred(sigma: 12, edges: .transparent), "cutout-blur-sigma-12-transparent.png")
        try save(try gallery(tiles.map(\.0)), "gallery.png")
        return nil
    }

    /// The images at half size in a 2 × 2 sheet with a 16-px white gutter.
    static func gallery(_ images: [Bitmap]) throws -> Bitmap {
        let tileW = images[0].width / 2, tileH = images[0].height / 2, gutter = 16
        let w = 2 * tileW + 3 * gutter, h = 2 * tileH + 3 * gutter
        var sheet = [UInt8](repeating: 255, count: w * h * 4)
        for (n, image) in images.prefix(4).enumerated() {
            let ox = gutter + (n % 2) * (tileW + gutter), oy = gutter + (n / 2) * (tileH + gutter)
            let src = image.premultipliedRGBA
            for y in 0..<tileH {
                for x in 0..<tileW {
                    for c in 0..<4 {
                        var sum = 0
                        for (dx, dy) in [(0, 0), (1, 0), (0, 1), (1, 1)] {
                            sum += Int(src[((2 * y + dy) * image.width + 2 * x + dx) * 4 + c])
                        }
                        sheet[((oy + y) * w + ox + x) * 4 + c] = UInt8((sum + 2) / 4)
                    }
                }
            }
        }
        return try Bitmap(width: w, height: h, premultipliedRGBA: sheet)
    }
}
