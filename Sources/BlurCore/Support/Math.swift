#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

// The few libm functions the kernels need, so that one file speaks to the C library.

/// The unnormalised Gaussian exp(−t² / 2σ²).
@inline(__always)
func gaussian(_ t: Double, sigma: Double) -> Double {
    exp(-(t * t) / (2 * sigma * sigma))
}

@inline(__always)
func log10(of value: Double) -> Double { log10(value) }

/// The sine ease-in-out ½(1 − cos πt).
@inline(__always)
func easeInOutSine(_ t: Double) -> Double { (1 - cos(.pi * t)) / 2 }
