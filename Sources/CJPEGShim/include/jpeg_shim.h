#ifndef BLURKIT_JPEG_SHIM_H
#define BLURKIT_JPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Size of the error buffers the functions below fill (libjpeg's JMSG_LENGTH_MAX is 200).
#define BK_JPEG_MESSAGE_SIZE 256

/// Colour models a JPEG can be stored in, as far as BlurKit cares.
enum {
    BK_JPEG_GRAY = 1,
    BK_JPEG_RGB = 3,   /* YCbCr or RGB */
    BK_JPEG_CMYK = 4,  /* CMYK or YCCK */
};

/// Reads the header only. Returns 0 and fills the outputs, or 1 and a message.
/// `scale_denom` (1, 2, 4 or 8) asks for the size libjpeg's DCT scaling will give.
int bk_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom,
                        int *width, int *height, int *color_model,
                        char message[BK_JPEG_MESSAGE_SIZE]);

/// Decodes into `rgba` (straight = premultiplied: JPEG is opaque, alpha is 255) with `stride` bytes
/// a row; the buffer must hold the size `bk_jpeg_read_header` gave for the same `scale_denom`.
/// CMYK and YCCK (Adobe-inverted or not) are converted to RGB. Returns 0, or 1 and a message.
/// A truncated stream is an error, not a warning.
int bk_jpeg_decode(const uint8_t *data, size_t size, int scale_denom,
                   uint8_t *rgba, size_t stride, int width, int height,
                   char message[BK_JPEG_MESSAGE_SIZE]);

/// Encodes 8-bit gray (1 byte a pixel), RGB (3) or CMYK (4, written with an Adobe marker, so
/// the values are taken as Adobe stores them: inverted) with `stride` bytes a row at `quality`
/// 1...100. On success returns 0 and a buffer to release with `bk_jpeg_free`.
int bk_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int components,
                   int quality, uint8_t **output, size_t *output_size,
                   char message[BK_JPEG_MESSAGE_SIZE]);

void bk_jpeg_free(void *buffer);

#endif
