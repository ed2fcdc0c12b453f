/* SPDX-License-Identifier: Apache-2.0 */
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>
#include <png.h>

#include "CSatchelFixtureImages.h"

/* A growing output buffer for libpng's write callback. */
struct png_output {
    uint8_t *bytes;
    size_t size;
    size_t capacity;
    int failed;
};

static void png_write_to_memory(png_structp png, png_bytep data, size_t count) {
    struct png_output *output = png_get_io_ptr(png);
    if (output->size + count > output->capacity) {
        size_t capacity = output->capacity ? output->capacity * 2 : 4096;
        while (capacity < output->size + count) capacity *= 2;
        uint8_t *grown = realloc(output->bytes, capacity);
        if (grown == NULL) {
            output->failed = 1;
            png_error(png, "out of memory");
        }
        output->bytes = grown;
        output->capacity = capacity;
    }
    memcpy(output->bytes + output->size, data, count);
    output->size += count;
}

static void png_flush_nothing(png_structp png) { (void)png; }

int satchel_fixture_png(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (rgb == NULL || width == 0 || height == 0) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (png == NULL) return -1;
    png_infop info = png_create_info_struct(png);
    /* Not modified after setjmp, so still valid after a longjmp. */
    struct png_output *output = calloc(1, sizeof(struct png_output));
    if (info == NULL || output == NULL) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(output);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(output->bytes);
        free(output);
        return -1;
    }
    png_set_write_fn(png, output, png_write_to_memory, png_flush_nothing);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (uint32_t row = 0; row < height; row++) png_write_row(png, rgb + (size_t)row * width * 3);
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = output->bytes;
    *out_size = output->size;
    free(output);
    return 0;
}

/* libjpeg's error manager with a jump target. */
struct jpeg_error_exit {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
};

static void jpeg_error_to_jump(j_common_ptr info) {
    struct jpeg_error_exit *exit = (struct jpeg_error_exit *)info->err;
    longjmp(exit->jump, 1);
}

static void jpeg_ignore_message(j_common_ptr info) { (void)info; }

int satchel_fixture_jpeg(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **out, size_t *out_size) {
    *out = NULL;
    *out_size = 0;
    if (rgb == NULL || width == 0 || height == 0 || quality < 1 || quality > 100) return -1;
    struct jpeg_compress_struct info;
    struct jpeg_error_exit error;
    /* Its address is taken (jpeg_mem_dest), so it lives in memory and is current after a longjmp. */
    unsigned char *buffer = NULL;
    unsigned long size = 0;
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = jpeg_error_to_jump;
    error.manager.output_message = jpeg_ignore_message;
    if (setjmp(error.jump)) {
        jpeg_destroy_compress(&info);
        free(buffer);
        return -1;
    }
    jpeg_create_compress(&info);
    jpeg_mem_dest(&info, &buffer, &size);
    info.image_width = width;
    info.image_height = height;
    info.input_components = 3;
    info.in_color_space = JCS_RGB;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = (JSAMPROW)(rgb + (size_t)info.next_scanline * width * 3);
        jpeg_write_scanlines(&info, &row, 1);
    }
    jpeg_finish_compress(&info);
    jpeg_destroy_compress(&info);
    *out = buffer;
    *out_size = size;
    return 0;
}
