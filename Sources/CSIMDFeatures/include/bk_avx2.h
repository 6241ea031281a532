#ifndef BK_AVX2_H
#define BK_AVX2_H
/* Empty: its module, CSIMDFeatures.AVX2, exists only where the target has AVX2 (bk_features.h). */
#endif
