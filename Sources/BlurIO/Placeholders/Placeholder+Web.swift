import BlurCore
import Foundation

/// The placeholders a web page draws without JavaScript, made from a ``Placeholder``'s preview: a
/// small WebP data URL, an SVG that blurs it, and CSS gradients.
extension Placeholder {
    /// The longest side of the small image the WebP data URL, the SVG and the CSS are made from.
    public static let webSide = 16
    /// The most bytes ``webpDataURI`` may take (the whole `data:` URL).
    public static let webpDataURIBytes = 1024
    /// The most bytes the CSS takes.
    public static let cssBytes = 500

    /// The preview shrunk to ``webSide`` as a WebP data URL of at most ``webpDataURIBytes``: lossy
    /// at quality 80 (lowered in steps of 10 until it fits; a 16-px photo takes 200–500 bytes), or
    /// lossless where that takes at most 256 bytes more — exact for the flat colours, stripes and
    /// noise that lossy WebP's halved chroma smears at this size. Nil when nothing fits or libwebp
    /// refuses.
    public var webpDataURI: String? {
        let small = preview.shrunk(toFit: Placeholder.webSide)
        func uri(_ quality: Int) -> String? {
            (try? WebPCodec.encode(small, quality: quality)).map { "data:image/webp;base64," + Data($0).base64EncodedString() }
        }
        var lossy: String?
        for quality in stride(from: 80, through: 10, by: -10) {
            guard let made = uri(quality) else { return nil }
            if made.utf8.count <= Placeholder.webpDataURIBytes {
                lossy = made
                break
            }
        }
        if let lossless = uri(100), lossless.utf8.count <= Placeholder.webpDataURIBytes,
            lossless.utf8.count <= (lossy?.utf8.count ?? 0) + 256 || lossy == nil
        {
            return lossless
        }
        return lossy
    }

    /// An SVG that draws `dataURI` (``webpDataURI``) stretched over its box and blurred with
    /// opaque edges, as SwiftUI's `.blur(radius:opaque: true)` and the Blur Up Image draw the
    /// preview: a Gaussian of 5 % of the preview's longest side with its edges extended, its alpha
    /// then made whole. Percent-encoded for `url("data:image/svg+xml,…")`; `svg` is the markup.
    public func svg(embedding dataURI: String) -> (svg: String, dataURI: String) {
        let small = preview.shrunk(toFit: Placeholder.webSide)
        let (w, h) = (small.width, small.height)
        let sigma = formatNumber(Double(max(w, h)) * 0.05)
        let svg =
            "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 \(w) \(h)' preserveAspectRatio='none'>"
            + "<filter id='b' x='0' y='0' width='100%' height='100%' color-interpolation-filters='sRGB'>"
            + "<feGaussianBlur stdDeviation='\(sigma)' edgeMode='duplicate'/>"
            + "<feComponentTransfer><feFuncA type='discrete' tableValues='1 1'/></feComponentTransfer></filter>"
            + "<image width='\(w)' height='\(h)' preserveAspectRatio='none' filter='url(#b)' href='\(dataURI)'/></svg>"
        // What a data URL must escape of it: %, #, < and >, and the double quote around the URL.
        var encoded = ""
        for character in svg.unicodeScalars {
            switch character {
            case "%": encoded += "%25"
            case "#": encoded += "%23"
            case "<": encoded += "%3C"
            case ">": encoded += "%3E"
            case "\"": encoded += "%22"
            default: encoded.unicodeScalars.append(character)
            }
        }
        return (svg, "data:image/svg+xml," + encoded)
    }

    /// CSS declarations that paint the image as a few rows of horizontal gradients (plaiceholder's
    /// `css` form): the preview shrunk to at most 4 columns and 4 rows (aspect kept), one
    /// `linear-gradient` per row through its colours, each row a band of the box. Opaque colours as
    /// `#rrggbb` (translucent ones as `#rrggbbaa`); at most ``cssBytes``.
    public var css: String {
        let small = preview.shrunk(toFit: 4)
        let rows = small.height
        var gradients: [String] = [], positions: [String] = []
        let straight = small.straightRGBA
        for y in 0..<rows {
            var stops: [String] = []
            for x in 0..<small.width {
                let p = (y * small.width + x) * 4
                var hex = "#"
                for c in 0..<(straight[p + 3] == 255 ? 3 : 4) {
                    let byte = Int(straight[p + c])
                    hex += String(byte >> 4, radix: 16) + String(byte & 15, radix: 16)
                }
                stops.append(hex)
            }
            // A single column is a flat colour: a gradient of it twice.
            if stops.count == 1 { stops.append(stops[0]) }
            gradients.append("linear-gradient(90deg,\(stops.joined(separator: ",")))")
            positions.append(rows == 1 ? "0 0" : "0 \(formatNumber((Double(y) / Double(rows - 1) * 100 * 100).rounded() / 100))%")
        }
        let height = formatNumber((100 / Double(rows) * 100).rounded() / 100)
        return "background-image:\(gradients.joined(separator: ","));background-position:\(positions.joined(separator: ","));"
            + "background-size:100% \(height)%;background-repeat:no-repeat"
    }
}
