#ifndef BK_FEATURES_H
#define BK_FEATURES_H

/* The instruction sets this build may use, as the C compiler sees them: `-Xcc -mavx2` (the
   Makefile's builds) turns BK_AVX2 on, so the fixed-point kernels take their AVX2 intrinsics; a
   build with no flags (a package depending on BlurKit) leaves it off and takes the portable Swift
   SIMD path, which gives the same bytes. Swift reads the value as a constant, so the branch it
   guards is decided when the kernels are compiled. */
#if defined(__AVX2__)
#define BK_AVX2 1
#else
#define BK_AVX2 0
#endif

#endif
