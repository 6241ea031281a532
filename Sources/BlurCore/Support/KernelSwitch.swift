/// Turns the fast kernels off so anyone can compare them with the reference implementations:
/// set `BLURKIT_REFERENCE=1` in the environment (read once, at first use).
package enum KernelSwitch {
    #if hasFeature(Embedded)
    /// WebAssembly has no environment: the fast kernels always, so the float64 references the
    /// switch would pick are not linked into blurkit.mjs's module.
    package static var useReference: Bool { false }
    #else
    package static let useReference: Bool = Platform.environment("BLURKIT_REFERENCE") == "1"
    #endif
}
