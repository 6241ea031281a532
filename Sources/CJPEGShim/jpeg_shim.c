// libjpeg's error manager must not return from error_exit; this file keeps the setjmp/longjmp
// pair inside C so no jump ever crosses a Swift frame. Warnings are counted, not printed:
// a "premature end of data" warning (a truncated file) is turned into an error; other corrupt-data
// warnings (extraneous bytes, a bad Huffman code) are tolerated, as browsers and Pillow do.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <jpeglib.h>
#include <jerror.h>
#include "jpeg_shim.h"

typedef struct {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char *message;
} shim_error;

static void shim_error_exit(j_common_ptr cinfo) {
    shim_error *err = (shim_error *)cinfo->err;
    char text[JMSG_LENGTH_MAX];
    (*cinfo->err->format_message)(cinfo, text);
    snprintf(err->message, BK_JPEG_MESSAGE_SIZE, "%s", text);
    longjmp(err->jump, 1);
}

static void shim_emit_message(j_common_ptr cinfo, int level) {
    // level < 0 is a warning. Truncation becomes an error: libjpeg would otherwise fill the rest
    // of the picture with grey and call it a success.
    if (level < 0 && cinfo->err->msg_code == JWRN_JPEG_EOF) {
        shim_error_exit(cinfo);
    }
}

static void shim_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void shim_install(struct jpeg_decompress_struct *cinfo, shim_error *err, char *message) {
    cinfo->err = jpeg_std_error(&err->pub);
    err->pub.error_exit = shim_error_exit;
    err->pub.emit_message = shim_emit_message;
    err->pub.output_message = shim_output_message;
    err->message = message;
}

static int color_model(J_COLOR_SPACE space) {
    switch (space) {
    case JCS_GRAYSCALE: return BK_JPEG_GRAY;
    case JCS_CMYK:
    case JCS_YCCK: return BK_JPEG_CMYK;
    default: return BK_JPEG_RGB;
    }
}

static void set_scale(struct jpeg_decompress_struct *cinfo, int scale_denom) {
    cinfo->scale_num = 1;
    cinfo->scale_denom = (unsigned)(scale_denom == 2 || scale_denom == 4 || scale_denom == 8 ? scale_denom : 1);
}

int bk_jpeg_read_header(const uint8_t *data, size_t size, int scale_denom,
                        int *width, int *height, int *model, char message[BK_JPEG_MESSAGE_SIZE]) {
    struct jpeg_decompress_struct cinfo;
    shim_error err;
    message[0] = 0;
    shim_install(&cinfo, &err, message);
    if (setjmp(err.jump)) {
        jpeg_destroy_decompress(&cinfo);
        return 1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    *model = color_model(cinfo.jpeg_color_space);
    set_scale(&cinfo, scale_denom);
    if (*model == BK_JPEG_CMYK) cinfo.out_color_space = JCS_CMYK;
    jpeg_calc_output_dimensions(&cinfo);
    *width = (int)cinfo.output_width;
    *height = (int)cinfo.output_height;
    jpeg_destroy_decompress(&cinfo);
    return 0;
}

int bk_jpeg_encode(const uint8_t *pixels, int width, int height, size_t stride, int components,
                   int quality, int progressive, uint8_t **output, size_t *output_size,
                   char message[BK_JPEG_MESSAGE_SIZE]) {
    struct jpeg_compress_struct cinfo;
    shim_error err;
    unsigned char *volatile buffer = NULL;
    unsigned long buffer_size = 0;
    message[0] = 0;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = shim_error_exit;
    err.pub.output_message = shim_output_message;
    err.message = message;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(buffer);
        return 1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, (unsigned char **)&buffer, &buffer_size);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : components == 4 ? JCS_CMYK : JCS_RGB;
    if (components != 1 && components != 3 && components != 4) {
        snprintf(message, BK_JPEG_MESSAGE_SIZE, "JPEG encoding takes 1, 3 or 4 components, not %d", components);
        jpeg_destroy_compress(&cinfo);
        return 1;
    }
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    cinfo.optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW rows[1] = {(JSAMPROW)(pixels + (size_t)cinfo.next_scanline * stride)};
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    *output = buffer;
    *output_size = buffer_size;
    return 0;
}

void bk_jpeg_free(void *buffer) { free(buffer); }

// ---- Streaming ----

struct bk_jpeg_reader {
    struct jpeg_decompress_struct cinfo;
    shim_error err;
    struct jpeg_progress_mgr progress;
    bk_jpeg_should_stop should_stop;
    void *stop_context;
    /* Why the last call jumped out: 0 an error, else BK_JPEG_STOPPED or BK_JPEG_TOO_MANY_SCANS. */
    int stopped;
    int cmyk, inverted, started, raw_cmyk;
    uint8_t *cmyk_row;
    uint8_t *icc;
    unsigned int icc_size;
};

/* libjpeg calls this inside its loops (per row of blocks while it absorbs a progressive file's
   scans, per call while it hands out rows): the scan limit and the caller's stop, by the error
   path's longjmp. */
static void progress_monitor(j_common_ptr cinfo) {
    bk_jpeg_reader *r = (bk_jpeg_reader *)cinfo->client_data;
    if (r->cinfo.input_scan_number > BK_JPEG_MAXIMUM_SCANS) {
        r->stopped = BK_JPEG_TOO_MANY_SCANS;
        snprintf(r->err.message, BK_JPEG_MESSAGE_SIZE, "more than %d scans (a progressive JPEG has about 10)", BK_JPEG_MAXIMUM_SCANS);
        longjmp(r->err.jump, 1);
    }
    if (r->should_stop && r->should_stop(r->stop_context)) {
        r->stopped = BK_JPEG_STOPPED;
        snprintf(r->err.message, BK_JPEG_MESSAGE_SIZE, "stopped");
        longjmp(r->err.jump, 1);
    }
}

void bk_jpeg_reader_set_stop(bk_jpeg_reader *r, bk_jpeg_should_stop should_stop, void *context) {
    r->should_stop = should_stop;
    r->stop_context = context;
}

/* A source manager over a stdio stream with a 64 KiB buffer (jpeg_stdio_src reads 4 KiB at a time):
   libjpeg-turbo's fast Huffman path needs 512 bytes ahead in the buffer, so with a small buffer one
   MCU in eight takes the slow path. At the end of the data a fake EOI marker ends the image, with a
   warning, as jpeg_stdio_src does. */
#define BK_JPEG_INPUT_BUFFER 65536

typedef struct {
    struct jpeg_source_mgr pub;
    FILE *file;
    JOCTET *buffer;
} bk_jpeg_source;

static void source_init(j_decompress_ptr cinfo) { (void)cinfo; }

static boolean source_fill(j_decompress_ptr cinfo) {
    bk_jpeg_source *src = (bk_jpeg_source *)cinfo->src;
    size_t got = fread(src->buffer, 1, BK_JPEG_INPUT_BUFFER, src->file);
    if (got == 0) {
        WARNMS(cinfo, JWRN_JPEG_EOF);
        src->buffer[0] = (JOCTET)0xFF;
        src->buffer[1] = (JOCTET)JPEG_EOI;
        got = 2;
    }
    src->pub.next_input_byte = src->buffer;
    src->pub.bytes_in_buffer = got;
    return TRUE;
}

static void source_skip(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *src = cinfo->src;
    if (count <= 0) return;
    while (count > (long)src->bytes_in_buffer) {
        count -= (long)src->bytes_in_buffer;
        (void)source_fill(cinfo);
    }
    src->next_input_byte += (size_t)count;
    src->bytes_in_buffer -= (size_t)count;
}

static void source_term(j_decompress_ptr cinfo) { (void)cinfo; }

static void bk_jpeg_file_src(j_decompress_ptr cinfo, FILE *file) {
    bk_jpeg_source *src = (bk_jpeg_source *)(*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, sizeof *src);
    src->buffer = (JOCTET *)(*cinfo->mem->alloc_small)((j_common_ptr)cinfo, JPOOL_PERMANENT, BK_JPEG_INPUT_BUFFER);
    src->file = file;
    src->pub.init_source = source_init;
    src->pub.fill_input_buffer = source_fill;
    src->pub.skip_input_data = source_skip;
    src->pub.resync_to_restart = jpeg_resync_to_restart;
    src->pub.term_source = source_term;
    src->pub.bytes_in_buffer = 0;
    src->pub.next_input_byte = NULL;
    cinfo->src = &src->pub;
}

bk_jpeg_reader *bk_jpeg_reader_open(FILE *file, int scale_denom, int *width, int *height,
                                    const uint8_t **exif, size_t *exif_size, const uint8_t **icc, size_t *icc_size,
                                    int *cmyk, char message[BK_JPEG_MESSAGE_SIZE]) {
    bk_jpeg_reader *r = calloc(1, sizeof *r);
    message[0] = 0;
    if (!r) {
        snprintf(message, BK_JPEG_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    shim_install(&r->cinfo, &r->err, message);
    if (setjmp(r->err.jump)) {
        jpeg_destroy_decompress(&r->cinfo);
        free(r->icc);
        free(r);
        return NULL;
    }
    jpeg_create_decompress(&r->cinfo);
    r->cinfo.client_data = r;
    r->progress.progress_monitor = progress_monitor;
    r->cinfo.progress = &r->progress;
    bk_jpeg_file_src(&r->cinfo, file);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&r->cinfo, JPEG_APP0 + 2, 0xFFFF);
    jpeg_read_header(&r->cinfo, TRUE);
    *exif = NULL;
    *exif_size = 0;
    for (jpeg_saved_marker_ptr m = r->cinfo.marker_list; m; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            *exif = m->data + 6;
            *exif_size = m->data_length - 6;
            break;
        }
    }
    // The ICC profile, reassembled from its APP2 chunks in order (libjpeg-turbo checks their
    // numbering); a malformed set is reported by a warning and read as no profile.
    *icc = NULL;
    *icc_size = 0;
    JOCTET *profile = NULL;
    unsigned int profile_size = 0;
    if (jpeg_read_icc_profile(&r->cinfo, &profile, &profile_size) && profile) {
        r->icc = profile;
        r->icc_size = profile_size;
        *icc = profile;
        *icc_size = profile_size;
    }
    set_scale(&r->cinfo, scale_denom);
    r->cmyk = color_model(r->cinfo.jpeg_color_space) == BK_JPEG_CMYK;
    *cmyk = r->cmyk;
    // Adobe writes CMYK inverted (an APP14 marker, read with the header, says so); others plain.
    r->inverted = r->cinfo.saw_Adobe_marker;
    r->cinfo.out_color_space = r->cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_calc_output_dimensions(&r->cinfo);
    *width = (int)r->cinfo.output_width;
    *height = (int)r->cinfo.output_height;
    return r;
}

int bk_jpeg_reader_start(bk_jpeg_reader *r, char message[BK_JPEG_MESSAGE_SIZE]) {
    message[0] = 0;
    r->err.message = message;
    r->stopped = 0;
    if (setjmp(r->err.jump)) return r->stopped ? r->stopped : 1;
    jpeg_start_decompress(&r->cinfo);
    r->started = 1;
    if (r->cmyk) {
        r->cmyk_row = malloc((size_t)r->cinfo.output_width * 4);
        if (!r->cmyk_row) {
            snprintf(message, BK_JPEG_MESSAGE_SIZE, "out of memory");
            return 1;
        }
    }
    return 0;
}

int bk_jpeg_reader_read(bk_jpeg_reader *r, uint8_t *rgba, size_t stride, int count, char message[BK_JPEG_MESSAGE_SIZE]) {
    message[0] = 0;
    r->err.message = message;
    r->stopped = 0;
    if (setjmp(r->err.jump)) return r->stopped ? r->stopped : 1;
    int width = (int)r->cinfo.output_width;
    for (int i = 0; i < count; i++) {
        if (r->cinfo.output_scanline >= r->cinfo.output_height) {
            snprintf(message, BK_JPEG_MESSAGE_SIZE, "more rows asked for than the image has");
            return 1;
        }
        uint8_t *row = rgba + (size_t)i * stride;
        if (!r->cmyk) {
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(&r->cinfo, rows, 1);
            continue;
        }
        if (r->raw_cmyk) {
            JSAMPROW rows[1] = {row};
            jpeg_read_scanlines(&r->cinfo, rows, 1);
            continue;
        }
        JSAMPROW rows[1] = {r->cmyk_row};
        jpeg_read_scanlines(&r->cinfo, rows, 1);
        const uint8_t *s = r->cmyk_row;
        for (int x = 0; x < width; x++) {
            unsigned c = s[4 * x], m = s[4 * x + 1], y = s[4 * x + 2], k = s[4 * x + 3];
            if (!r->inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
            row[4 * x] = (uint8_t)((c * k + 127) / 255);
            row[4 * x + 1] = (uint8_t)((m * k + 127) / 255);
            row[4 * x + 2] = (uint8_t)((y * k + 127) / 255);
            row[4 * x + 3] = 255;
        }
    }
    if (r->cinfo.output_scanline == r->cinfo.output_height) {
        jpeg_finish_decompress(&r->cinfo);
        r->started = 0;
    }
    return 0;
}

int bk_jpeg_reader_raw_cmyk(bk_jpeg_reader *r, int raw) {
    if (!r->cmyk || r->started) return 0;
    r->raw_cmyk = raw != 0;
    return r->inverted ? 2 : 1;
}

void bk_jpeg_reader_close(bk_jpeg_reader *r) {
    if (!r) return;
    jpeg_destroy_decompress(&r->cinfo);
    free(r->cmyk_row);
    free(r->icc);
    free(r);
}

struct bk_jpeg_writer {
    struct jpeg_compress_struct cinfo;
    shim_error err;
};

bk_jpeg_writer *bk_jpeg_writer_open(FILE *file, int width, int height, int quality, const uint8_t *icc, size_t icc_size,
                                    char message[BK_JPEG_MESSAGE_SIZE]) {
    bk_jpeg_writer *w = calloc(1, sizeof *w);
    message[0] = 0;
    if (!w) {
        snprintf(message, BK_JPEG_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    w->cinfo.err = jpeg_std_error(&w->err.pub);
    w->err.pub.error_exit = shim_error_exit;
    w->err.pub.output_message = shim_output_message;
    w->err.message = message;
    if (setjmp(w->err.jump)) {
        jpeg_destroy_compress(&w->cinfo);
        free(w);
        return NULL;
    }
    jpeg_create_compress(&w->cinfo);
    jpeg_stdio_dest(&w->cinfo, file);
    w->cinfo.image_width = (JDIMENSION)width;
    w->cinfo.image_height = (JDIMENSION)height;
    w->cinfo.input_components = 4;
    w->cinfo.in_color_space = JCS_EXT_RGBX;
    jpeg_set_defaults(&w->cinfo);
    jpeg_set_quality(&w->cinfo, quality, TRUE);
    // One pass: optimised Huffman tables would hold every coefficient of the image until the end.
    w->cinfo.optimize_coding = FALSE;
    jpeg_start_compress(&w->cinfo, TRUE);
    // In APP2 chunks of at most 65519 bytes, as ICC.1 Annex B.4 asks.
    if (icc && icc_size > 0) jpeg_write_icc_profile(&w->cinfo, icc, (unsigned int)icc_size);
    return w;
}

int bk_jpeg_writer_write(bk_jpeg_writer *w, const uint8_t *rgbx, size_t stride, int count, char message[BK_JPEG_MESSAGE_SIZE]) {
    message[0] = 0;
    w->err.message = message;
    if (setjmp(w->err.jump)) return 1;
    for (int i = 0; i < count; i++) {
        JSAMPROW rows[1] = {(JSAMPROW)(rgbx + (size_t)i * stride)};
        jpeg_write_scanlines(&w->cinfo, rows, 1);
    }
    return 0;
}

int bk_jpeg_writer_finish(bk_jpeg_writer *w, char message[BK_JPEG_MESSAGE_SIZE]) {
    message[0] = 0;
    w->err.message = message;
    if (setjmp(w->err.jump)) return 1;
    jpeg_finish_compress(&w->cinfo);
    return 0;
}

void bk_jpeg_writer_close(bk_jpeg_writer *w) {
    if (!w) return;
    jpeg_destroy_compress(&w->cinfo);
    free(w);
}

size_t bk_jpeg_reader_buffered_bytes(bk_jpeg_reader *r) {
    /* A file of several scans (progressive, or a multi-scan baseline) is decoded into whole-image
       coefficient arrays, one JCOEF per coefficient of every block of every component. */
    if (!jpeg_has_multiple_scans(&r->cinfo)) return 0;
    size_t total = 0;
    for (int c = 0; c < r->cinfo.num_components; c++) {
        const jpeg_component_info *info = &r->cinfo.comp_info[c];
        size_t rows = ((size_t)info->height_in_blocks + (size_t)info->v_samp_factor - 1) / (size_t)info->v_samp_factor *
                      (size_t)info->v_samp_factor;
        total += (size_t)info->width_in_blocks * rows * DCTSIZE2 * sizeof(JCOEF);
    }
    return total;
}
