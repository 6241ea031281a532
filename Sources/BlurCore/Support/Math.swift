// The few elementary functions the kernels need, from ``Elementary``: the same code, and so the same
// weights, in the native build and the WebAssembly one.

/// The unnormalised Gaussian exp(−t² / 2σ²).
@inline(__always)
func gaussian(_ t: Double, sigma: Double) -> Double {
    Elementary.exp(-(t * t) / (2 * sigma * sigma))
}

@inline(__always)
func log10(of value: Double) -> Double { Elementary.log10(value) }

/// The sine ease-in-out ½(1 − cos πt).
@inline(__always)
func easeInOutSine(_ t: Double) -> Double { (1 - Elementary.cos(.pi * t)) / 2 }
