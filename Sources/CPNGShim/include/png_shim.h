#ifndef BLURKIT_PNG_SHIM_H
#define BLURKIT_PNG_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/// Size of the error buffers the functions below fill.
#define BK_PNG_MESSAGE_SIZE 256

/// A PNG decoder that hands out 8-bit RGBA rows (straight alpha) a band at a time, over libpng.
/// libpng reports errors by longjmp; every function here owns its setjmp, so no jump crosses a
/// Swift frame. After an error the reader may only be closed.
typedef struct bk_png_reader bk_png_reader;

/// Opens a decoder over `file` (from its current position; not closed by the reader) and reads
/// the header: the size, whether the image has an alpha channel or tRNS (`has_alpha`), and
/// whether it is interlaced, its ICC profile (`icc`: the inflated iCCP chunk, NULL when there is
/// none; valid while the reader is open) and whether an sRGB chunk names sRGB (`srgb`). Returns
/// NULL and a message on failure; `truncated` is set when the failure was the data ending early.
/// The size is checked before any row buffer is made: NULL with `refused` 1 when width × height is
/// over `max_pixels`, 2 when a row's buffers (16 bytes a pixel of width) are over `max_bytes`
/// (`width` and `height` are set either way).
bk_png_reader *bk_png_reader_open(FILE *file, uint64_t max_pixels, uint64_t max_bytes, int *width, int *height,
                                  int *refused, int *has_alpha, int *interlaced, const uint8_t **icc, size_t *icc_size,
                                  int *srgb, int *truncated, char message[BK_PNG_MESSAGE_SIZE]);

/// Decodes the next `count` rows as RGBA into `rgba` (`stride` bytes a row): every colour type and
/// depth expanded to 8 bits (16-bit samples rounded, v × 255 / 65535), tRNS as alpha, opaque
/// alpha 255. An interlaced image must be read whole, in one call of every row. Returns 0, or 1 and
/// a message.
int bk_png_reader_read(bk_png_reader *reader, uint8_t *rgba, size_t stride, int count, int *truncated,
                       char message[BK_PNG_MESSAGE_SIZE]);

void bk_png_reader_close(bk_png_reader *reader);

#endif
