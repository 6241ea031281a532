#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Turns the fast kernels off so anyone can compare them with the reference implementations:
/// set `BLURKIT_REFERENCE=1` in the environment (read once, at first use).
package enum KernelSwitch {
    package static let useReference: Bool = {
        guard let value = getenv("BLURKIT_REFERENCE") else { return false }
        return String(cString: value) == "1"
    }()
}
