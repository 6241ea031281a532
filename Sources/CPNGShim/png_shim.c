// libpng calls its error function, which must not return; this file keeps the setjmp/longjmp pair
// inside C so no jump ever crosses a Swift frame. Warnings are ignored, as browsers do.
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include "png_shim.h"

struct bk_png_reader {
    png_structp png;
    png_infop info;
    jmp_buf jump;
    char *message;
    int *truncated;
    int height;
    int row;
};

static void shim_error(png_structp png, png_const_charp text) {
    bk_png_reader *r = png_get_error_ptr(png);
    snprintf(r->message, BK_PNG_MESSAGE_SIZE, "%s", text);
    if (strstr(text, "Read Error") || strstr(text, "end of") || strstr(text, "truncated") || strstr(text, "Not enough")) {
        *r->truncated = 1;
    }
    longjmp(r->jump, 1);
}

static void shim_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

bk_png_reader *bk_png_reader_open(FILE *file, uint64_t max_pixels, uint64_t max_bytes, int *width, int *height,
                                  int *refused, int *has_alpha, int *interlaced, const uint8_t **icc, size_t *icc_size,
                                  int *srgb, int *truncated, char message[BK_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    *truncated = 0;
    *refused = 0;
    bk_png_reader *r = calloc(1, sizeof *r);
    if (!r) {
        snprintf(message, BK_PNG_MESSAGE_SIZE, "out of memory");
        return NULL;
    }
    r->message = message;
    r->truncated = truncated;
    r->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, r, shim_error, shim_warning);
    if (!r->png || !(r->info = png_create_info_struct(r->png))) {
        snprintf(message, BK_PNG_MESSAGE_SIZE, "out of memory");
        bk_png_reader_close(r);
        return NULL;
    }
    if (setjmp(r->jump)) {
        bk_png_reader_close(r);
        return NULL;
    }
    // Ancillary chunks, capped in size and in number: none may make libpng allocate more than
    // 16 MiB (an ICC profile, a decompressed chunk), at most 64 are kept, and text (tEXt, zTXt,
    // iTXt), which BlurKit never reads, is skipped without being decompressed. A file of many
    // compressed text chunks costs the time of reading its bytes, not of inflating them.
    png_set_chunk_malloc_max(r->png, (png_alloc_size_t)1 << 24);
    png_set_chunk_cache_max(r->png, 64);
    static const png_byte text_chunks[] = {'t', 'E', 'X', 't', 0, 'z', 'T', 'X', 't', 0, 'i', 'T', 'X', 't', 0};
    png_set_keep_unknown_chunks(r->png, PNG_HANDLE_CHUNK_NEVER, text_chunks, 3);
    png_set_user_limits(r->png, 0x7fffffff, 0x7fffffff);
    png_init_io(r->png, file);
    png_read_info(r->png, r->info);
    // The size, checked before libpng sizes its row buffers from it (png_read_update_info allocates
    // and clears two rows: a 2³¹-pixel-wide row of one line is gigabytes).
    png_uint_32 header_width = png_get_image_width(r->png, r->info), header_height = png_get_image_height(r->png, r->info);
    *width = (int)header_width;
    *height = (int)header_height;
    if ((uint64_t)header_width * header_height > max_pixels) *refused = 1;
    else if ((uint64_t)header_width * 16 > max_bytes) *refused = 2;
    if (*refused) {
        bk_png_reader_close(r);
        return NULL;
    }
    // The colour space: an iCCP profile (inflated by libpng, within the 16 MiB cap), or an sRGB chunk.
    *icc = NULL;
    *icc_size = 0;
    png_charp name = NULL;
    png_bytep profile = NULL;
    png_uint_32 profile_size = 0;
    int compression = 0, intent = 0;
    if (png_get_iCCP(r->png, r->info, &name, &compression, &profile, &profile_size) && profile && profile_size > 0) {
        *icc = profile;
        *icc_size = profile_size;
    }
    *srgb = png_get_sRGB(r->png, r->info, &intent) != 0;
    int type = png_get_color_type(r->png, r->info), depth = png_get_bit_depth(r->png, r->info);
    int trns = png_get_valid(r->png, r->info, PNG_INFO_tRNS) != 0;
    *has_alpha = (type & PNG_COLOR_MASK_ALPHA) != 0 || trns;
    *interlaced = png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE;
    // Everything to 8-bit RGBA: palettes and low depths expanded, tRNS as alpha, gray as RGB,
    // 16 bits rounded, a filler alpha of 255 where there is none.
    if (type == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(r->png);
    if (type == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(r->png);
    if (trns) png_set_tRNS_to_alpha(r->png);
    if (depth == 16) png_set_scale_16(r->png);
    if (type == PNG_COLOR_TYPE_GRAY || type == PNG_COLOR_TYPE_GRAY_ALPHA) png_set_gray_to_rgb(r->png);
    if (!(type & PNG_COLOR_MASK_ALPHA) && !trns) png_set_filler(r->png, 0xFF, PNG_FILLER_AFTER);
    if (*interlaced) png_set_interlace_handling(r->png);
    png_read_update_info(r->png, r->info);
    if (png_get_rowbytes(r->png, r->info) != (size_t)png_get_image_width(r->png, r->info) * 4) {
        snprintf(message, BK_PNG_MESSAGE_SIZE, "unexpected row layout after conversion");
        bk_png_reader_close(r);
        return NULL;
    }
    *width = (int)png_get_image_width(r->png, r->info);
    *height = (int)png_get_image_height(r->png, r->info);
    r->height = *height;
    return r;
}

int bk_png_reader_read(bk_png_reader *r, uint8_t *rgba, size_t stride, int count, int *truncated,
                       char message[BK_PNG_MESSAGE_SIZE]) {
    message[0] = 0;
    *truncated = 0;
    r->message = message;
    r->truncated = truncated;
    png_bytep *volatile rows = NULL;
    if (setjmp(r->jump)) {
        free(rows);
        return 1;
    }
    if (count <= 0 || r->row + count > r->height) {
        snprintf(message, BK_PNG_MESSAGE_SIZE, "rows asked for outside the image");
        return 1;
    }
    if (png_get_interlace_type(r->png, r->info) != PNG_INTERLACE_NONE) {
        if (r->row != 0 || count != r->height) {
            snprintf(message, BK_PNG_MESSAGE_SIZE, "an interlaced image is read whole");
            return 1;
        }
        rows = malloc(sizeof(png_bytep) * (size_t)count);
        if (!rows) {
            snprintf(message, BK_PNG_MESSAGE_SIZE, "out of memory");
            return 1;
        }
        for (int i = 0; i < count; i++) rows[i] = rgba + (size_t)i * stride;
        png_read_image(r->png, rows);
        free(rows);
        rows = NULL;
    } else {
        for (int i = 0; i < count; i++) png_read_row(r->png, rgba + (size_t)i * stride, NULL);
    }
    r->row += count;
    if (r->row == r->height) png_read_end(r->png, NULL);
    return 0;
}

void bk_png_reader_close(bk_png_reader *r) {
    if (!r) return;
    if (r->png) png_destroy_read_struct(&r->png, r->info ? &r->info : NULL, NULL);
    free(r);
}
