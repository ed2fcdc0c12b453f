/* SPDX-License-Identifier: Apache-2.0 */
/* libpng's low-level read API from memory. No simplified API: it treats 16-bit data as linear
   light and converts it, where we scale 16-bit samples to 8 as round(v / 257) (png_set_scale_16)
   and apply no gamma unless asked. */
#include <stdlib.h>
#include <string.h>

#include "decoder.h"

static void png_error_to_message(png_structp png, png_const_charp message) {
    struct satchel_image_decoder *decoder = png_get_error_ptr(png);
    satchel_image_set_message(decoder, "%s", message);
    png_longjmp(png, 1);
}

static void png_ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

static void png_read_from_memory(png_structp png, png_bytep out, size_t count) {
    struct satchel_image_decoder *decoder = png_get_io_ptr(png);
    if (count > decoder->size - decoder->position) {
        decoder->truncated = 1;
        png_error(png, "unexpected end of PNG data");
    }
    memcpy(out, decoder->data + decoder->position, count);
    decoder->position += count;
}

satchel_image_status satchel_png_create(struct satchel_image_decoder *decoder) {
    decoder->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, decoder, png_error_to_message, png_ignore_warning);
    if (decoder->png == NULL) return SATCHEL_IMAGE_OUT_OF_MEMORY;
    decoder->png_info = png_create_info_struct(decoder->png);
    if (decoder->png_info == NULL) return SATCHEL_IMAGE_OUT_OF_MEMORY;
    png_set_read_fn(decoder->png, decoder, png_read_from_memory);
    return SATCHEL_IMAGE_OK;
}

/* Asks libpng for the output layout; returns 0 when the layout is not the one asked for. */
static int png_set_output(png_structp png, png_infop info, const satchel_image_options *options) {
    int color_type = png_get_color_type(png, info);
    int has_alpha = (color_type & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    png_set_expand(png); /* palette to RGB, gray 1/2/4 to 8 (scaled), tRNS to alpha */
    switch (options->output) {
    case SATCHEL_IMAGE_OUTPUT_NATIVE:
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        if (png_get_bit_depth(png, info) == 16) png_set_swap(png);
#endif
        break;
    case SATCHEL_IMAGE_OUTPUT_RGBA8:
        png_set_scale_16(png);
        png_set_gray_to_rgb(png);
        if (!has_alpha) png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
        break;
    case SATCHEL_IMAGE_OUTPUT_RGB8:
        png_set_scale_16(png);
        png_set_gray_to_rgb(png);
        if (has_alpha) png_set_strip_alpha(png);
        break;
    default:
        return 0;
    }
    double file_gamma;
    if (options->apply_gamma && png_get_gAMA(png, info, &file_gamma)) png_set_gamma(png, PNG_DEFAULT_sRGB, file_gamma);
    (void)png_set_interlace_handling(png);
    png_read_update_info(png, info);
    int channels = png_get_channels(png, info);
    switch (options->output) {
    case SATCHEL_IMAGE_OUTPUT_RGBA8: return channels == 4 && png_get_bit_depth(png, info) == 8;
    case SATCHEL_IMAGE_OUTPUT_RGB8: return channels == 3 && png_get_bit_depth(png, info) == 8;
    default: return png_get_bit_depth(png, info) >= 8;
    }
}

satchel_image_status satchel_png_read_header(struct satchel_image_decoder *decoder, const satchel_image_options *options) {
    png_structp png = decoder->png;
    png_infop info = decoder->png_info;
    satchel_image_header *header = &decoder->header;
    if (setjmp(png_jmpbuf(png))) return decoder->truncated ? SATCHEL_IMAGE_TRUNCATED : SATCHEL_IMAGE_LIBRARY_ERROR;
    png_read_info(png, info);
    header->width = png_get_image_width(png, info);
    header->height = png_get_image_height(png, info);
    if ((uint64_t)header->width * header->height > options->max_pixels) {
        satchel_image_set_message(decoder, "%u x %u pixels", header->width, header->height);
        return SATCHEL_IMAGE_TOO_MANY_PIXELS;
    }
    header->bit_depth = png_get_bit_depth(png, info);
    switch (png_get_color_type(png, info)) {
    case PNG_COLOR_TYPE_GRAY: header->color = SATCHEL_IMAGE_COLOR_GRAY; break;
    case PNG_COLOR_TYPE_GRAY_ALPHA: header->color = SATCHEL_IMAGE_COLOR_GRAY_ALPHA; break;
    case PNG_COLOR_TYPE_RGB: header->color = SATCHEL_IMAGE_COLOR_RGB; break;
    case PNG_COLOR_TYPE_RGB_ALPHA: header->color = SATCHEL_IMAGE_COLOR_RGBA; break;
    case PNG_COLOR_TYPE_PALETTE: header->color = SATCHEL_IMAGE_COLOR_PALETTE; break;
    default: header->color = SATCHEL_IMAGE_COLOR_OTHER; break;
    }
    header->has_transparency = png_get_valid(png, info, PNG_INFO_tRNS) != 0;
    header->interlaced = png_get_interlace_type(png, info) == PNG_INTERLACE_ADAM7;
    header->has_icc_profile = png_get_valid(png, info, PNG_INFO_iCCP) != 0;
    png_uint_32 exif_size = 0;
    png_bytep exif = NULL;
    if (png_get_eXIf_1(png, info, &exif_size, &exif) != 0 && exif != NULL) {
        header->exif = exif;
        header->exif_size = exif_size;
    }
    if (!png_set_output(png, info, options)) {
        satchel_image_set_message(decoder, "libpng cannot produce the requested pixel layout");
        return SATCHEL_IMAGE_LIBRARY_ERROR;
    }
    header->out_width = header->width;
    header->out_height = header->height;
    header->out_channels = png_get_channels(png, info);
    header->out_bit_depth = png_get_bit_depth(png, info);
    header->out_row_bytes = png_get_rowbytes(png, info);
    return SATCHEL_IMAGE_OK;
}

satchel_image_status satchel_png_read_pixels(struct satchel_image_decoder *decoder, uint8_t *pixels) {
    png_structp png = decoder->png;
    uint32_t height = decoder->header.out_height;
    decoder->png_rows = malloc((height > 0 ? height : 1) * sizeof *decoder->png_rows);
    if (decoder->png_rows == NULL) return SATCHEL_IMAGE_OUT_OF_MEMORY;
    for (uint32_t row = 0; row < height; row++) decoder->png_rows[row] = pixels + (size_t)row * decoder->header.out_row_bytes;
    if (setjmp(png_jmpbuf(png))) return decoder->truncated ? SATCHEL_IMAGE_TRUNCATED : SATCHEL_IMAGE_LIBRARY_ERROR;
    png_read_image(png, decoder->png_rows);
    png_read_end(png, NULL);
    return SATCHEL_IMAGE_OK;
}

void satchel_png_destroy(struct satchel_image_decoder *decoder) {
    if (decoder->png != NULL) png_destroy_read_struct(&decoder->png, decoder->png_info != NULL ? &decoder->png_info : NULL, NULL);
    free(decoder->png_rows);
    decoder->png_rows = NULL;
}
