/// The playground's files, as they are under `Sources/BlurServe/Resources/` (HTML, CSS and
/// JavaScript, embedded at build time): `/`, `/playground.css` and `/playground.js`.
public enum PlaygroundFiles {
    /// The page; `token` (a deployment with a key) goes into its `blurkit-token` meta tag, which the
    /// script sends back with every request.
    public static func page(token: String?) -> [UInt8] {
        guard let token else { return PackageResources.playground_html }
        let html = String(decoding: PackageResources.playground_html, as: UTF8.self)
        return Array(
            html.replacingOccurrences(of: #"<meta name="blurkit-token" content="">"#, with: #"<meta name="blurkit-token" content="\#(token)">"#).utf8)
    }

    /// The page's style sheet.
    public static var style: [UInt8] { PackageResources.playground_css }

    /// The page's script.
    public static var script: [UInt8] { PackageResources.playground_js }
}
