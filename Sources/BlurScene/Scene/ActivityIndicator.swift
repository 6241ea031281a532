import BlurCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The spokes of UIKit's medium activity indicator: eight rounded bars from 30 % to 50 % of the
/// size out from the centre, each 9 % of the size wide; the one at the head is fully opaque, the
/// others fade to 30 % behind it; the head advances one spoke every eighth of a second (one turn a
/// second), clockwise from the top.
enum ActivityIndicator {
    static let spokeCount = 8

    /// Each spoke's outline (pixels) and alpha at `time` seconds.
    static func spokes(size: Double, centre: Point, time: Double) -> [(Path, Double)] {
        let head = Int((time.isFinite ? time : 0) * Double(spokeCount)).quotientAndRemainder(dividingBy: spokeCount).remainder
        let width = size * 0.09, inner = size * 0.3, outer = size * 0.5
        return (0..<spokeCount).map { i in
            let angle = Double(i) / Double(spokeCount) * 2 * Double.pi
            let (s, c) = (sin(angle), -cos(angle))  // clockwise from 12 o'clock, y down
            let behind = (head - i + spokeCount) % spokeCount
            let alpha = 1 - 0.7 * Double(behind) / Double(spokeCount - 1)
            // A bar from inner to outer along (s, c), with round caps approximated by its corners' radius.
            let (nx, ny) = (-c * width / 2, s * width / 2)
            let a = Point(centre.x + s * inner, centre.y + c * inner), b = Point(centre.x + s * outer, centre.y + c * outer)
            var path = Path()
            path.move(to: Point(a.x + nx, a.y + ny))
            path.addLine(to: Point(b.x + nx, b.y + ny))
            path.addQuadCurve(to: Point(b.x - nx, b.y - ny), control: Point(b.x + s * width, b.y + c * width))
            path.addLine(to: Point(a.x - nx, a.y - ny))
            path.addQuadCurve(to: Point(a.x + nx, a.y + ny), control: Point(a.x - s * width, a.y - c * width))
            path.closeSubpath()
            return (path, alpha)
        }
    }
}
