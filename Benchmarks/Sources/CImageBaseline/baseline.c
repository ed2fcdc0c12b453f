/* SPDX-License-Identifier: Apache-2.0 */
#include "CImageBaseline.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

struct memory_source {
    const uint8_t *data;
    size_t length, position;
};

static void png_read_memory(png_structp png, png_bytep out, size_t count) {
    struct memory_source *source = png_get_io_ptr(png);
    if (count > source->length - source->position) png_error(png, "unexpected end of PNG data");
    memcpy(out, source->data + source->position, count);
    source->position += count;
}

static void png_quiet(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

uint8_t *image_baseline_png(const uint8_t *data, size_t length, int channels, size_t *size) {
    struct memory_source source = {data, length, 0};
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, png_quiet);
    png_infop info = png_create_info_struct(png);
    uint8_t *volatile pixels = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, NULL);
        free(pixels);
        free(rows);
        return NULL;
    }
    png_set_read_fn(png, &source, png_read_memory);
    png_read_info(png, info);
    png_uint_32 height = png_get_image_height(png, info);
    int color_type = png_get_color_type(png, info);
    int alpha = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png, info, PNG_INFO_tRNS);
    png_set_expand(png);
    png_set_scale_16(png);
    png_set_gray_to_rgb(png);
    if (channels == 4 && !alpha) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    if (channels == 3 && alpha) png_set_strip_alpha(png);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    size_t row_bytes = png_get_rowbytes(png, info);
    pixels = malloc(row_bytes * height);
    rows = malloc(sizeof(png_bytep) * height);
    if (pixels == NULL || rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 row = 0; row < height; row++) rows[row] = pixels + row * row_bytes;
    png_read_image(png, rows);
    png_read_end(png, NULL);
    png_destroy_read_struct(&png, &info, NULL);
    free(rows);
    *size = row_bytes * height;
    return pixels;
}

struct jpeg_failure {
    struct jpeg_error_mgr base;
    jmp_buf jump;
};

static void jpeg_fail(j_common_ptr info) {
    longjmp(((struct jpeg_failure *)info->err)->jump, 1);
}

uint8_t *image_baseline_jpeg(const uint8_t *data, size_t length, int channels, size_t *size) {
    struct jpeg_decompress_struct jpeg;
    struct jpeg_failure failure;
    uint8_t *volatile pixels = NULL;
    jpeg.err = jpeg_std_error(&failure.base);
    failure.base.error_exit = jpeg_fail;
    if (setjmp(failure.jump)) {
        jpeg_destroy_decompress(&jpeg);
        free(pixels);
        return NULL;
    }
    jpeg_create_decompress(&jpeg);
    jpeg_mem_src(&jpeg, data, (unsigned long)length);
    jpeg_read_header(&jpeg, TRUE);
    jpeg.out_color_space = channels == 4 ? JCS_EXT_RGBA : JCS_RGB;
    jpeg_start_decompress(&jpeg);
    size_t row_bytes = (size_t)jpeg.output_width * jpeg.output_components;
    pixels = malloc(row_bytes * jpeg.output_height);
    if (pixels == NULL) jpeg_fail((j_common_ptr)&jpeg);
    while (jpeg.output_scanline < jpeg.output_height) {
        JSAMPROW row = pixels + jpeg.output_scanline * row_bytes;
        jpeg_read_scanlines(&jpeg, &row, 1);
    }
    jpeg_finish_decompress(&jpeg);
    *size = row_bytes * jpeg.output_height;
    jpeg_destroy_decompress(&jpeg);
    return pixels;
}

void image_baseline_free(uint8_t *pixels) {
    free(pixels);
}
