/* The module is its header (bk_features.h); SwiftPM builds a C target from at least one source. */
#include "bk_features.h"
