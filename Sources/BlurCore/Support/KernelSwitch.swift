/// Turns the fast kernels off so anyone can compare them with the reference implementations:
/// set `BLURKIT_REFERENCE=1` in the environment (read once, at first use).
package enum KernelSwitch {
    package static let useReference: Bool = Platform.environment("BLURKIT_REFERENCE") == "1"
}
