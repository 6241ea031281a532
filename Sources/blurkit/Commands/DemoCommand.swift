import BlurCommandLine
import BlurKit
import Foundation

/// `blurkit demo [DIR]`: renders the sample picture, its blurs and a gallery sheet into DIR.
enum DemoCommand: Command {
    static let name = "demo"
    static let summary = "render the built-in sample picture and its blurs into a folder"
    static let usage = "blurkit demo [DIR] [options]"
    static let operandCount = 0...1
    static let readsFirstWritesSecond = false
    /// The smallest photo the demo's layouts (text, cards, strips) fit on.
    static let minimumPhotoSide = 64

    static let options: [OptionSpec] =
        [
            OptionSpec(
                name: "photo", value: "FILE",
                help: "the photo for the progressive-blur examples, at least \(minimumPhotoSide)×\(minimumPhotoSide) (default: the sample picture)"),
            OptionSpec(name: "quiet", value: nil, help: "print nothing but errors"),
        ] + StandardOptions.limits

    static let details = """
        Renders into DIR (default ./demo-output), then prints the paths:
        - the built-in sample picture (gradients, shapes, fine detail), its Gaussian blurs at σ 2, 8
          and 24 px, a cut-out blurred with transparent edges, and a gallery sheet of them;
        - a progressive header band in each of the four directions over a photo, with the default
          dimming and without, and a sheet of all eight;
        - the material background's "World's Greatest Flag" card on each of the five materials, light and dark,
          a sheet of all ten, and the style picker;
        - BlurUIKit in motion: a view's blur animating away and a dialog's backdrop coming back into
          focus, as strips of frames and as animated WebP, a progressive header, and a reflection;
        - the Blur Up Image: "Mountains at dusk" at 18×24 and 900×1200, and BlurUpImage's loaded/unloaded loop
          and its Reduce Motion variant as animated WebP;
        - Liquid Glass: a card and a tab bar's capsule of each variant (Regular, Clear), light and
          dark, and the scroll-edge effect of each style (soft, hard) along the top and bottom;
        - index.html, a page showing all of them with captions.
        """

    static func run(_ arguments: ParsedArguments) throws -> String? {
        let folder = arguments.operands.first ?? "demo-output"
        // The photo first: a missing or unusable one must cost nothing.
        let given = try arguments.values["photo"].map { try ImageFiles.read($0) }
        if let given, min(given.width, given.height) < minimumPhotoSide {
            throw CLIError.usage(
                "--photo \(arguments.values["photo"]!) is \(given.width)×\(given.height); the demo needs at least \(minimumPhotoSide)×\(minimumPhotoSide)"
            )
        }
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
            if !arguments.has(StandardOptions.quiet.name) { print(path) }
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
        try save(try sheet(tiles.map(\.0), columns: 2, halve: true), "gallery.png")

        let photo = given ?? sample
        var progressive: [Bitmap] = []
        for dimmed in [true, false] {
            for direction in GradientDirection.allCases {
                let image = progressiveBand(over: photo, direction: direction, dimmed: dimmed)
                try save(image, "progressive-\(direction.rawValue)\(dimmed ? "-dimmed" : "").png")
                progressive.append(image)
            }
        }
        try save(try sheet(progressive, columns: 4, halve: photo.width > 800), "progressive-gallery.png")

        // Seed 003: "World's Greatest Flag" on each material, light and dark, and the style picker.
        var cards: [Bitmap] = []
        for appearance in Appearance.allCases {
            for style in MaterialStyle.adaptive {
                let card = try materialCard(over: photo, style: style, appearance: appearance)
                try save(card, "material-\(style.thickness.rawValue)-\(appearance.rawValue).png")
                cards.append(card)
            }
        }
        try save(try sheet(cards, columns: 5, halve: photo.width > 800), "materials-gallery.png")
        try save(try stylePicker(over: photo), "material-style-picker.png")

        // Liquid Glass: a tab-bar capsule and a card of each variant, light and dark; the scroll edge of each style.
        var glasses: [Bitmap] = []
        for appearance in Appearance.allCases {
            for variant in [GlassVariant.regular, .clear] {
                let image = glassDemo(over: photo, variant: variant, appearance: appearance)
                try save(image, "glass-\(variant.rawValue)-\(appearance.rawValue).png")
                glasses.append(image)
            }
        }
        try save(try sheet(glasses, columns: 2, halve: photo.width > 800), "glass-gallery.png")
        var edges: [Bitmap] = []
        for appearance in Appearance.allCases {
            for style in [ScrollEdgeStyle.soft, .hard] {
                let image = scrollEdgeDemo(over: photo, style: style, appearance: appearance)
                try save(image, "scroll-edge-\(style.rawValue)-\(appearance.rawValue).png")
                edges.append(image)
            }
        }
        try save(try sheet(edges, columns: 2, halve: photo.width > 800), "scroll-edge-gallery.png")

        // Seed 004 in motion, as strips of frames.
        try save(try sheet(viewBlurFrames(), columns: 6, halve: false), "scene-view-blur.png")
        try save(try sheet(dialogDismissalFrames(over: photo), columns: 5, halve: false), "scene-dialog-dismissal.png")
        let reflection = ReflectionView(frame: Rect(x: 0, y: 0, width: photo.pointSize.width, height: photo.pointSize.height))
        reflection.blur.maximumBlurRadius = 8
        let black = try Bitmap(
            width: photo.width, height: photo.height,
            straightRGBA: [UInt8](repeating: 0, count: photo.width * photo.height).flatMap { _ in [0, 0, 0, 255] }, scale: photo.scale)
        try save(reflection.render(content: photo, over: black), "scene-reflection.png")

        // Seed 000: "Mountains at dusk" at both sizes, and BlurUpImage in motion.
        let preview = try GalleryDemos.mountainsAtDusk(width: 18, height: 24), full = try GalleryDemos.mountainsAtDusk(width: 900, height: 1200)
        try save(preview, "blurup-preview-18x24.png")
        try save(full, "blurup-full-900x1200.jpg")
        func record(_ scene: Scene, _ name: String, start: Double = 0, duration: Double, scale: Double = 1) throws {
            let path = (folder as NSString).appendingPathComponent(name)
            try GalleryDemos.record(scene, to: path, start: start, duration: duration, scale: scale)
            written.append(path)
            if !arguments.has(StandardOptions.quiet.name) { print(path) }
        }
        for reduceMotion in [false, true] {
            let demo = GalleryDemos.blurUpScene(preview: preview, full: full, reduceMotion: reduceMotion)
            try record(demo.scene, reduceMotion ? "blurup-reduce-motion.webp" : "blurup-loop.webp", start: demo.start, duration: demo.duration)
        }
        // Seed 004 in motion, as animations.
        try record(GalleryDemos.dialogScene(over: photo), "scene-dialog-dismissal.webp", duration: 1.3, scale: 0.75)
        try record(GalleryDemos.viewBlurScene(over: photo), "scene-view-blur.webp", duration: 1.2, scale: 0.75)
        try save(try GalleryDemos.progressiveHeaderScene(over: photo).render(at: 0, scale: 0.75), "scene-progressive-header.png")
        let page = (folder as NSString).appendingPathComponent("index.html")
        try AtomicFile.write(PackageResources.gallery_html, to: page)
        written.append(page)
        if !arguments.has(StandardOptions.quiet.name) { print(page) }
        return nil
    }

    /// Seed 004's red square: `blurRadius = 30`, then `setBlurRadiusAnimated(radius: 0, duration: 0.6,
    /// delay: 0.3)`, at t = 0, 0.3, 0.45, 0.6, 0.75 and 0.9 s.
    static func viewBlurFrames() throws -> [Bitmap] {
        let scene = Scene(width: 200, height: 200)
        let square = Layer(
            name: "redSquare", frame: Rect(x: 50, y: 50, width: 100, height: 100), content: .color(Color(red: 1, green: 0.23, blue: 0.19)))
        square.blurRadius = 30
        scene.addLayer(square)
        square.setBlurRadiusAnimated(radius: 0, duration: 0.6, delay: 0.3, at: 0)
        return try [0, 0.3, 0.45, 0.6, 0.75, 0.9].map { try scene.render(at: $0) }
    }

    /// Seed 004's dialog dismissal: the content behind comes back into focus as the dialog fades
    /// (`UIView.animate(withDuration: 0.5)`), at five moments.
    static func dialogDismissalFrames(over photo: Bitmap) throws -> [Bitmap] {
        let scene = GalleryDemos.dialogScene(over: photo)
        return try [0, 0.625, 0.75, 0.875, 1].map { try scene.render(at: $0, scale: 0.5) }
    }

    /// `Text("World's Greatest Flag").font(.largeTitle).padding().background(Blur(style:)).cornerRadius(15)`
    /// centred on the photo: a 34-pt title, 16-pt padding, at the photo's scale.
    static func materialCard(
        over photo: Bitmap, style: MaterialStyle, appearance: Appearance, title: String = "World's Greatest Flag"
    ) throws -> Bitmap {
        let scale = photo.scale
        let (w, h) = photo.pointSize
        let size = min(34, w / 13)
        let font = try Font.system(size: size * scale)
        let textWidth = font.width(of: title) / scale
        let (ascent, descent) = font.lineMetrics
        let card = Rect(
            x: (w - textWidth) / 2 - 16, y: h / 2 - (ascent + descent) / scale / 2 - 16,
            width: textWidth + 32, height: (ascent + descent) / scale + 32)
        var out = Blur(style: style).render(over: photo, frame: card, cornerRadius: 15, appearance: appearance)
        let label: Color = appearance == .light ? .black : .white
        font.draw(title, into: &out, x: (card.x + 16) * scale, y: (card.y + 16) * scale + ascent, color: label)
        return out
    }

    /// Seed 003's picker: the five adaptive styles side by side over one photo strip, each named.
    static func stylePicker(over photo: Bitmap) throws -> Bitmap {
        let (w, h) = photo.pointSize
        var out = photo
        let font = try Font.system(bold: true, size: max(9, w / 45) * photo.scale)
        let cell = w / 5
        for (i, style) in MaterialStyle.adaptive.enumerated() {
            let frame = Rect(x: Double(i) * cell + 6, y: h * 0.3, width: cell - 12, height: h * 0.4)
            out = Blur(style: style).render(over: out, frame: frame, cornerRadius: 12)
            let name = style.thickness.rawValue
            font.draw(name, into: &out, x: (frame.x + 8) * photo.scale, y: (frame.maxY - 10) * photo.scale, color: .black)
        }
        return out
    }

    /// A band a quarter of the photo deep along the full edge, as under a status bar or a toolbar:
    /// maximum radius 2 % of the photo's longer side, reached halfway into the band.
    /// `variant` glass over `photo` in `appearance`: a card (a rounded rectangle, 24-pt corners) in
    /// the upper half and a tab bar's capsule along the bottom, as one container.
    static func glassDemo(over photo: Bitmap, variant: GlassVariant, appearance: Appearance) -> Bitmap {
        let (w, h) = photo.pointSize
        let bar = min(64, h / 6)
        let container = GlassContainer(
            effect: GlassEffect(variant, appearance: appearance),
            members: [
                GlassContainer.Member(.roundedRectangle(cornerRadius: 24), frame: Rect(x: w * 0.15, y: h * 0.12, width: w * 0.7, height: h * 0.42)),
                GlassContainer.Member(.capsule, frame: Rect(x: w * 0.1, y: h - bar - 16, width: w * 0.8, height: bar)),
            ])
        return container.render(over: photo, scale: photo.scale)
    }

    /// The scroll-edge effect of `style` along the top of `photo` (a navigation bar's band) and its
    /// bottom (a tab bar's), in `appearance`.
    static func scrollEdgeDemo(over photo: Bitmap, style: ScrollEdgeStyle, appearance: Appearance) -> Bitmap {
        let (w, h) = photo.pointSize
        var edge = ScrollEdgeEffect()
        edge.style = style
        edge.height = min(96, h / 4)
        let frame = Rect(x: 0, y: 0, width: w, height: h)
        let top = edge.render(over: photo, frame: frame, appearance: appearance)
        edge.edge = .bottom
        return edge.render(over: top, frame: frame, appearance: appearance)
    }

    static func progressiveBand(over photo: Bitmap, direction: GradientDirection, dimmed: Bool) -> Bitmap {
        let (w, h) = photo.pointSize
        let band: Rect
        switch direction {
        case .down: band = Rect(x: 0, y: 0, width: w, height: h / 4)
        case .up: band = Rect(x: 0, y: h * 3 / 4, width: w, height: h / 4)
        case .left: band = Rect(x: 0, y: 0, width: w / 4, height: h)
        case .right: band = Rect(x: w * 3 / 4, y: 0, width: w / 4, height: h)
        }
        let blur = VariableBlur(direction: direction)
            .maximumBlurRadius(max(w, h) / 50)
            .blurMaximumRadiusInset(.relative(fraction: 0.5))
            .dimmingTintColor(dimmed ? .systemBackground : nil)
        return blur.effect.render(over: photo, frame: band)
    }

    /// Same-sized images in a grid of `columns`, on white with a 16-px gutter; at half size
    /// (2 × 2 averages) when `halve`.
    static func sheet(_ images: [Bitmap], columns: Int, halve: Bool) throws -> Bitmap {
        let f = halve ? 2 : 1, tileW = images[0].width / f, tileH = images[0].height / f, gutter = 16
        let rows = (images.count + columns - 1) / columns
        let w = columns * tileW + (columns + 1) * gutter, h = rows * tileH + (rows + 1) * gutter
        var sheet = [UInt8](repeating: 255, count: w * h * 4)
        for (n, image) in images.enumerated() {
            let ox = gutter + (n % columns) * (tileW + gutter), oy = gutter + (n / columns) * (tileH + gutter)
            let src = image.premultipliedRGBA
            for y in 0..<tileH {
                for x in 0..<tileW {
                    for c in 0..<4 {
                        var sum = 0
                        for dy in 0..<f { for dx in 0..<f { sum += Int(src[((f * y + dy) * image.width + f * x + dx) * 4 + c]) } }
                        sheet[((oy + y) * w + ox + x) * 4 + c] = UInt8((sum + f * f / 2) / (f * f))
                    }
                }
            }
        }
        return try Bitmap(width: w, height: h, premultipliedRGBA: sheet)
    }
}
