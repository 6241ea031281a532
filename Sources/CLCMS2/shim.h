#include <lcms2.h>

// lcms2's pixel formats are macros of macros, which Swift does not import: the ones BlurKit uses.
static const cmsUInt32Number BK_TYPE_RGBA_8 = TYPE_RGBA_8;
static const cmsUInt32Number BK_TYPE_RGB_8 = TYPE_RGB_8;
static const cmsUInt32Number BK_TYPE_CMYK_8 = TYPE_CMYK_8;
static const cmsUInt32Number BK_TYPE_CMYK_8_REV = TYPE_CMYK_8_REV;

// For the tests that build profiles through lcms2 (16-bit RGB and Lab samples).
static const cmsUInt32Number BK_TYPE_RGB_16_FOR_TESTS = TYPE_RGB_16;
static const cmsUInt32Number BK_TYPE_LAB_16_FOR_TESTS = TYPE_Lab_16;

// For the tests that count what lcms2 allocates (a memory plugin: cmsPluginMemHandler).
#include <lcms2_plugin.h>
