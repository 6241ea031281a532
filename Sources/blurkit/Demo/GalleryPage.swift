import Foundation

/// The demo gallery's `index.html`: every image `blurkit demo` writes, by seed, with captions.
enum GalleryPage {
    // A table, one caption per line: kept as written.
    // swift-format-ignore
    static let sections: [(title: String, intro: String, items: [(file: String, caption: String, style: String)])] = [
        ("Seed 000 — BlurUpImage", "An image that comes into focus from a blurred preview when the full picture arrives.", [
            ("blurup-loop.webp", "BlurUpImage(preview: 18×24, image: isLoaded ? 900×1200 : nil, label: \"Mountains at dusk\"), 3:4, 24-pt corners: the full image arrives after 1.3 s (blur 24 → 0, opacity 0 → 1, ease-out 0.8 s) and leaves after 2.3 s, in a loop. While loading, the activity indicator turns.", "width:332px"),
            ("blurup-reduce-motion.webp", "The same with Reduce Motion: the image loads at once and fades in over 0.2 s, no focus pull.", "width:332px"),
            ("blurup-preview-18x24.png", "The 18×24 preview, drawn as the seed draws it (gradient indigo → purple → orange, the sun at 0.85 opacity, the ridge a Bézier curve), shown enlarged.", "width:180px;height:240px;image-rendering:pixelated;border-radius:24px"),
            ("blurup-full-900x1200.jpg", "The 900×1200 full image, at 3:4 with 24-pt rounded corners.", "width:300px;border-radius:24px"),
        ]),
        ("Seed 003 — materials", "Text(\"World's Greatest Flag\").padding().background(Blur(style:)) on the five materials, light and dark, and the style picker.", [
            ("materials-gallery.png", "Ultra thin, thin, regular, thick and chrome; light above, dark below.", "width:100%"),
            ("material-style-picker.png", "The five adaptive styles side by side over one photo.", "width:100%"),
        ]),
        ("Seed 004 — BlurUIKit", "Progressive blur with a dimming gradient, a view's own blur animating away, a dialog's backdrop coming back into focus, and a reflection.", [
            ("scene-progressive-header.png", "VariableBlurView(direction: .down) as a header: full blur at the top edge, clear below, the systemBackground dimming on top.", "width:292px"),
            ("scene-view-blur.webp", "A card with blurRadius 20, then setBlurRadiusAnimated(radius: 0, duration: 0.45, delay: 0.3).", "width:292px"),
            ("scene-dialog-dismissal.webp", "Dialog dismissal inside UIView.animate(withDuration: 0.5): the dialog fades as the material's blurEffectRadius and dimmingAlpha go to 0.", "width:292px"),
            ("scene-reflection.png", "ReflectionView: the content above, its mirrored, progressively blurred copy below at reflectionAlpha 0.5.", "width:300px"),
            ("progressive-gallery.png", "Progressive bands in the four directions, with the default dimming (top row) and without.", "width:100%"),
            ("scene-view-blur.png", "The view blur as frames at 0, 0.3, 0.45, 0.6, 0.75 and 0.9 s.", "width:100%"),
            ("scene-dialog-dismissal.png", "The dialog dismissal as frames at 0, 0.625, 0.75, 0.875 and 1 s.", "width:100%"),
        ]),
        ("The engine", "The built-in sample picture and its Gaussian blurs.", [
            ("gallery.png", "The sample, and σ 2, 8 and 24 px.", "width:100%"),
            ("cutout-blur-sigma-12-transparent.png", "A cut-out blurred with transparent edges: alpha spreads, no dark fringe.", "width:480px;background:repeating-conic-gradient(#ccc 0 25%,#fff 0 50%) 0 0/20px 20px"),
        ]),
    ]

    static var html: String {
        var body = ""
        for section in sections {
            body += "<section>\n<h2>\(escape(section.title))</h2>\n<p>\(escape(section.intro))</p>\n<div class=\"grid\">\n"
            for item in section.items {
                body +=
                    "<figure><img src=\"\(item.file)\" alt=\"\(escape(item.caption))\" style=\"\(item.style)\"><figcaption>\(escape(item.caption))</figcaption></figure>\n"
            }
            body += "</div>\n</section>\n"
        }
        return """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <title>BlurKit demo gallery</title>
            <style>
            body { font: 15px/1.45 -apple-system, "Helvetica Neue", "DejaVu Sans", sans-serif; margin: 32px auto; max-width: 1100px; color: #1c1c1e; background: #f2f2f7; }
            h1 { font-size: 28px; margin-bottom: 4px; }
            h2 { font-size: 21px; margin: 36px 0 4px; }
            .grid { display: flex; flex-wrap: wrap; gap: 20px; align-items: flex-start; }
            figure { margin: 0; background: #fff; border-radius: 14px; padding: 14px; box-shadow: 0 1px 3px rgba(0,0,0,.08); max-width: 100%; }
            figure img { display: block; max-width: 100%; }
            figcaption { max-width: 340px; margin-top: 8px; color: #3c3c43; font-size: 13px; }
            </style>
            </head>
            <body>
            <h1>BlurKit demo gallery</h1>
            <p>Rendered in software by <code>blurkit demo</code>: the seeds' components on BlurKit's layer compositor. Animations are animated WebP.</p>
            \(body)</body>
            </html>

            """
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
