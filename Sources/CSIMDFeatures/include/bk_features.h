#ifndef BK_FEATURES_H
#define BK_FEATURES_H

/* The instruction sets a build of BlurKit may use, as modules the kernels test with `canImport`:
   `CSIMDFeatures.AVX2` (module.modulemap) requires the avx2 target feature, so it can be imported
   only where the compiler was given `-Xcc -mavx2` (the Makefile's builds). There the fixed-point
   kernels compile their AVX2 intrinsics; a build with no flags (a package depending on BlurKit,
   debug or release) does not compile them at all and takes the portable Swift SIMD blocks, which
   give the same bytes. */

#endif
