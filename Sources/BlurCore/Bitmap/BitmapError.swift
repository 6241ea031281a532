/// Why a ``Bitmap`` could not be made.
public enum BitmapError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A width or height below 1.
    case invalidSize(width: Int, height: Int)
    /// More pixels than `limit` (``ImageLimits/maximumPixelCount`` when checked), or rows too long to address.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// A scale (pixels per point) that is not a positive finite number, or a reduction factor below 1.
    case invalidScale(Double)
    /// Pixel data of `got` bytes where the size and stride need `expected`.
    case byteCountMismatch(expected: Int, got: Int)
    /// Rows closer together than a row is long (`width * 4` bytes), or absurdly far apart.
    case invalidStride(bytesPerRow: Int, width: Int)
    /// A rectangle that is empty or does not lie inside the image.
    case regionOutOfBounds(x: Int, y: Int, width: Int, height: Int, imageWidth: Int, imageHeight: Int)
    /// The first pixel, in row order, whose colour exceeds its alpha: the bytes are not premultiplied.
    case notPremultiplied(x: Int, y: Int)
    /// A crop rectangle that is empty or does not lie inside the image.
    case cropOutOfBounds(x: Int, y: Int, width: Int, height: Int)
    /// The pixels would take the process's heap past its ceiling (``HeapGate``): not allocated.
    case overHeapCeiling(BudgetError)

    /// The error as one line of text, for messages.
    public var description: String {
        switch self {
        case let .invalidSize(w, h):
            return "image size \(w)×\(h) is invalid: width and height must be at least 1"
        case let .tooLarge(w, h, limit):
            return "image size \(w)×\(h) exceeds the limit of \(limit) \(limit == 1 ? "pixel" : "pixels")"
        case let .invalidScale(s):
            return "scale \(s) is invalid: expected a positive finite number of pixels per point"
        case let .byteCountMismatch(expected, got):
            return "pixel data has \(got) bytes, expected \(expected)"
        case let .invalidStride(stride, w):
            return "a row stride of \(stride) bytes is invalid for a width of \(w) pixels: expected at least \(w * 4)"
        case let .regionOutOfBounds(x, y, w, h, iw, ih):
            return "region (\(x), \(y), \(w)×\(h)) is empty or outside the \(iw)×\(ih) image"
        case let .notPremultiplied(x, y):
            return "pixel (\(x), \(y)) has a colour greater than its alpha: the data is not premultiplied"
        case let .cropOutOfBounds(x, y, w, h):
            return "crop rectangle (\(x), \(y), \(w)×\(h)) is empty or outside the image"
        case let .overHeapCeiling(refusal):
            return refusal.description
        }
    }
}
