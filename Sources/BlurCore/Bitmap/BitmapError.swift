/// Why a ``Bitmap`` could not be made.
public enum BitmapError: Error, Equatable, Sendable, CustomStringConvertible {
    case invalidSize(width: Int, height: Int)
    case tooLarge(width: Int, height: Int, limit: Int)
    case invalidScale(Double)
    case byteCountMismatch(expected: Int, got: Int)
    case notPremultiplied(x: Int, y: Int)
    case cropOutOfBounds(x: Int, y: Int, width: Int, height: Int)

    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            return "image size \(w)×\(h) is invalid: width and height must be at least 1"
        case let .tooLarge(w, h, limit):
            return "image size \(w)×\(h) exceeds the limit of \(limit) pixels"
        case let .invalidScale(s):
            return "scale \(s) is invalid: expected a positive finite number of pixels per point"
        case let .byteCountMismatch(expected, got):
            return "pixel data has \(got) bytes, expected at least \(expected)"
        case let .notPremultiplied(x, y):
            return "pixel (\(x), \(y)) has a colour greater than its alpha: the data is not premultiplied"
        case let .cropOutOfBounds(x, y, w, h):
            return "crop rectangle (\(x), \(y), \(w)×\(h)) is empty or outside the image"
        }
    }
}
