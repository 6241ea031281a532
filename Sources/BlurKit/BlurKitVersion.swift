/// The package's version, as `blurkit --version`, the HTTP service's OpenAPI document and the
/// documentation give it (semantic versioning).
public enum BlurKitVersion {
    /// The version as `MAJOR.MINOR.PATCH`.
    public static let string = "0.1.0"
}
