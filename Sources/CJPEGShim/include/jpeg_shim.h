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

/// Encodes 8-bit gray (1 byte a pixel), RGB (3) or CMYK (4, written with an Adobe marker, so
/// the values are taken as Adobe stores them: inverted) with `stride` bytes a row at `quality`
/// 1...100, `progressive` (nonzero) in libjpeg's standard progression (10 scans for YCbCr).
/// On success returns 0 and a buffer to release with `bk_jpeg_free`.
int bk_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int components,
                   int quality, int progressive, uint8_t **output, size_t *output_size,
                   char message[BK_JPEG_MESSAGE_SIZE]);

void bk_jpeg_free(void *buffer);

// ---- Streaming: a decoder and an encoder that work a band of rows at a time over a FILE. ----
// Each call owns its own setjmp; an error leaves the object ready only to be closed.

#include <stdio.h>

typedef struct bk_jpeg_reader bk_jpeg_reader;

/// Opens a decoder over `file` (read from its current position; not closed by the reader) and
/// reads the header: the output size for `scale_denom` (1, 2, 4 or 8) and the TIFF body of the
/// first Exif APP1 segment (`exif`, NULL when there is none; valid while the reader is open), the
/// ICC profile reassembled from its APP2 chunks (`icc`, NULL when there is none or its chunks do
/// not make one; valid while the reader is open), and whether the image is CMYK or YCCK (`cmyk`).
/// Returns NULL and a message on failure.
bk_jpeg_reader *bk_jpeg_reader_open(FILE *file, int scale_denom, int *width, int *height,
                                    const uint8_t **exif, size_t *exif_size, const uint8_t **icc, size_t *icc_size,
                                    int *cmyk, char message[BK_JPEG_MESSAGE_SIZE]);

/// The most scans a reader decodes (libjpeg-turbo's `djpeg -maxscans` guard): a progressive JPEG
/// has about 10; each scan is a pass over the whole image, so a small file of thousands of empty
/// scans would keep the decoder busy for minutes.
#define BK_JPEG_MAXIMUM_SCANS 1000

/// What `bk_jpeg_reader_start` and `bk_jpeg_reader_read` return besides 0 and 1 (an error, with its message).
enum {
    /// `should_stop` said stop (a deadline passed, the caller cancelled).
    BK_JPEG_STOPPED = 2,
    /// The file has more than `BK_JPEG_MAXIMUM_SCANS` scans.
    BK_JPEG_TOO_MANY_SCANS = 3,
};

/// Asked by libjpeg's progress monitor, inside its calls (once per row of blocks of every scan, once
/// per call for rows): nonzero stops the decoder, which returns `BK_JPEG_STOPPED`. `context` is the
/// caller's. Set once, before the first read; NULL asks nothing.
typedef int (*bk_jpeg_should_stop)(void *context);
void bk_jpeg_reader_set_stop(bk_jpeg_reader *reader, bk_jpeg_should_stop should_stop, void *context);

/// Makes a CMYK reader hand out its samples as stored (4 bytes a pixel, C M Y K) instead of the
/// naive RGB (`raw` 1; 0 asks without changing anything), for a colour conversion through the
/// file's profile. Before the first read only. Returns 0 when the image is not CMYK (nothing
/// changes), 1 for plain values, 2 for values an Adobe marker says are inverted (255 − ink).
int bk_jpeg_reader_raw_cmyk(bk_jpeg_reader *reader, int raw);

/// Bytes libjpeg will hold for the whole image's coefficients before the first row comes out: for
/// a file of several scans (progressive), every block of every component; 0 for one scan.
size_t bk_jpeg_reader_buffered_bytes(bk_jpeg_reader *reader);

/// Starts decompression, once, after the caller has checked the size (a progressive file's scans are
/// all read here). Returns 0, 1 and a message, `BK_JPEG_STOPPED` or `BK_JPEG_TOO_MANY_SCANS`.
int bk_jpeg_reader_start(bk_jpeg_reader *reader, char message[BK_JPEG_MESSAGE_SIZE]);

/// Decodes the next `count` rows as opaque RGBA into `rgba` (`stride` bytes a row). Returns 0, 1
/// and a message (a truncated stream is an error), or `BK_JPEG_STOPPED`.
int bk_jpeg_reader_read(bk_jpeg_reader *reader, uint8_t *rgba, size_t stride, int count,
                        char message[BK_JPEG_MESSAGE_SIZE]);

void bk_jpeg_reader_close(bk_jpeg_reader *reader);

typedef struct bk_jpeg_writer bk_jpeg_writer;

/// Opens an encoder of a `width × height` image at `quality` 1…100 onto `file` (not closed by the
/// writer): baseline, one pass. `icc` (NULL for none): an ICC profile written in APP2 chunks.
bk_jpeg_writer *bk_jpeg_writer_open(FILE *file, int width, int height, int quality, const uint8_t *icc, size_t icc_size,
                                    char message[BK_JPEG_MESSAGE_SIZE]);

/// Encodes the next `count` rows, RGBX (4 bytes a pixel, the fourth ignored), `stride` bytes a row.
int bk_jpeg_writer_write(bk_jpeg_writer *writer, const uint8_t *rgbx, size_t stride, int count,
                         char message[BK_JPEG_MESSAGE_SIZE]);

/// Writes the end of the image. Returns 0, or 1 and a message.
int bk_jpeg_writer_finish(bk_jpeg_writer *writer, char message[BK_JPEG_MESSAGE_SIZE]);

void bk_jpeg_writer_close(bk_jpeg_writer *writer);

#endif
