#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an animation's progress runs from 0 to 1 over its duration: Core Animation's and SwiftUI's
/// curves, custom cubic Béziers, and springs.
///
/// `progress(at:)` takes the fraction of the duration elapsed (clamped to 0…1) and returns the
/// fraction of the change applied: 0 at the start, 1 at the end (a spring may overshoot between).
public enum TimingCurve: Sendable, Hashable {
    /// Constant speed: the progress is the fraction of the duration elapsed.
    case linear
    /// Cubic Bézier (0.42, 0, 1, 1).
    case easeIn
    /// Cubic Bézier (0, 0, 0.58, 1): SwiftUI's `.easeOut`, the blur-up image's curve.
    case easeOut
    /// Cubic Bézier (0.42, 0, 0.58, 1).
    case easeInOut
    /// Core Animation's default, cubic Bézier (0.25, 0.1, 0.25, 1).
    case `default`
    /// A cubic Bézier from (0, 0) to (1, 1) through control points (x1, y1) and (x2, y2); x1 and x2
    /// are clamped to 0…1 so that time runs forward.
    case cubicBezier(x1: Double, y1: Double, x2: Double, y2: Double)
    /// A damped spring, SwiftUI's parameters: `response` (seconds, the period of the undamped
    /// oscillation), `dampingFraction` (1 = critically damped, < 1 overshoots) and, as
    /// `UISpringTimingParameters` takes it, `initialVelocity`: the speed at the start in changes a
    /// second (1 = the whole change in a second; default 0). Its progress is a function of time, not
    /// of the duration: it settles in about `settlingDuration`. For mass, stiffness and damping, see
    /// ``spring(mass:stiffness:damping:initialVelocity:)``.
    case spring(response: Double, dampingFraction: Double, initialVelocity: Double = 0)

    /// The spring of `mass`, `stiffness` and `damping` (`UISpringTimingParameters(mass:stiffness:damping:initialVelocity:)`,
    /// `CASpringAnimation`): response 2π·√(mass / stiffness), damping fraction damping / (2·√(stiffness · mass)).
    public static func spring(mass: Double, stiffness: Double, damping: Double, initialVelocity: Double = 0) -> TimingCurve {
        .spring(
            response: 2 * Double.pi * (mass / stiffness).squareRoot(), dampingFraction: damping / (2 * (stiffness * mass).squareRoot()),
            initialVelocity: initialVelocity)
    }

    /// The control points, for the Bézier curves.
    public var controlPoints: (x1: Double, y1: Double, x2: Double, y2: Double)? {
        switch self {
        case .linear: return (0, 0, 1, 1)
        case .easeIn: return (0.42, 0, 1, 1)
        case .easeOut: return (0, 0, 0.58, 1)
        case .easeInOut: return (0.42, 0, 0.58, 1)
        case .default: return (0.25, 0.1, 0.25, 1)
        case let .cubicBezier(x1, y1, x2, y2):
            func unit(_ v: Double) -> Double { v.isFinite ? min(1, max(0, v)) : 0 }
            return (unit(x1), y1.isFinite ? y1 : 0, unit(x2), y2.isFinite ? y2 : 1)
        case .spring: return nil
        }
    }

    /// Progress at `fraction` (0…1) of an animation lasting `duration` seconds.
    public func progress(at fraction: Double, duration: Double) -> Double {
        let t = fraction.isNaN ? 0 : min(1, max(0, fraction))
        if t >= 1 { return 1 }
        switch self {
        case .linear: return t
        case let .spring(response, damping, velocity):
            return TimingCurve.spring(time: t * duration, response: response, damping: damping, velocity: velocity)
        default:
            let p = controlPoints!
            return TimingCurve.bezier(x: t, p.x1, p.y1, p.x2, p.y2)
        }
    }

    /// How long a spring takes to come within about 0.1 % of its target (at most 60 s); other
    /// curves: 1 (their duration).
    public var settlingDuration: Double {
        guard case let .spring(response, damping, velocity) = self else { return 1 }
        let (omega, zeta) = TimingCurve.springParameters(response: response, damping: damping)
        // The slower decay, e^(−ζωt) (at most critically damped) or the overdamped spring's slow
        // root, falls below 0.001, with a margin for the critically damped t·e^(−ωt) and for the
        // amplitude an initial velocity adds.
        let rate = zeta <= 1 ? zeta * omega : omega * (zeta - (zeta * zeta - 1).squareRoot())
        let velocityMargin = log(1 + (velocity.isFinite ? abs(velocity) : 0) / omega)
        return min(60, (log(1000.0) + 2 + velocityMargin) / max(rate, 1e-3))
    }

    // MARK: The curves

    /// y of the cubic Bézier at the point whose x is `x` (Newton's method, then bisection).
    static func bezier(x: Double, _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) -> Double {
        func coordinate(_ s: Double, _ a: Double, _ b: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * a + 3 * u * s * s * b + s * s * s
        }
        func slope(_ s: Double, _ a: Double, _ b: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * a + 6 * u * s * (b - a) + 3 * s * s * (1 - b)
        }
        var s = x
        for _ in 0..<8 {
            let error = coordinate(s, x1, x2) - x
            if abs(error) < 1e-12 { return coordinate(s, y1, y2) }
            let d = slope(s, x1, x2)
            if abs(d) < 1e-9 { break }
            s -= error / d
        }
        var (lo, hi) = (0.0, 1.0)
        s = min(1, max(0, s))
        for _ in 0..<60 {
            let value = coordinate(s, x1, x2)
            if abs(value - x) < 1e-12 { break }
            if value < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return coordinate(s, y1, y2)
    }

    static func springParameters(response: Double, damping: Double) -> (omega: Double, zeta: Double) {
        let r = response.isFinite && response > 0 ? response : 0.5
        let zeta = damping.isFinite ? max(0, damping) : 1
        return (2 * Double.pi / r, zeta)
    }

    /// A unit step response: a spring released at 0 with `velocity` (changes a second; NaN and ±∞
    /// count as 0), heading for 1.
    static func spring(time t: Double, response: Double, damping: Double, velocity: Double = 0) -> Double {
        let (omega, zeta) = springParameters(response: response, damping: damping)
        let v = velocity.isFinite ? velocity : 0
        if zeta < 1 {
            let wd = omega * (1 - zeta * zeta).squareRoot()
            return 1 - exp(-zeta * omega * t) * (cos(wd * t) + (zeta * omega - v) / wd * sin(wd * t))
        }
        if zeta == 1 {
            return 1 - exp(-omega * t) * (1 + (omega - v) * t)
        }
        let root = (zeta * zeta - 1).squareRoot()
        let r1 = -omega * (zeta - root), r2 = -omega * (zeta + root)
        return 1 + ((v + r2) * exp(r1 * t) - (v + r1) * exp(r2 * t)) / (r1 - r2)
    }
}
