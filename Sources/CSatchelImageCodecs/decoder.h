/* SPDX-License-Identifier: Apache-2.0 */
/* The decoder's private state, shared by decoder.c, png_decoder.c and jpeg_decoder.c. */
#ifndef SATCHEL_CIMAGECODECS_DECODER_H
#define SATCHEL_CIMAGECODECS_DECODER_H

#include <setjmp.h>
#include <stdio.h> /* jpeglib.h needs FILE */

#include <jpeglib.h>
#include <png.h>

#include "CSatchelImageCodecs.h"

/* libjpeg's error manager with the decoder it belongs to, so error_exit can find the jump. */
struct satchel_jpeg_error {
    struct jpeg_error_mgr base;
    struct satchel_image_decoder *decoder;
};

struct satchel_image_decoder {
    satchel_image_format format;
    const uint8_t *data;
    size_t size;
    size_t position;       /* PNG: next byte the read callback hands out */
    int header_read;
    int pixels_read;
    int failed;            /* a step failed: the library's state is unusable */
    int truncated;         /* set when the data ran out before the image did */
    satchel_image_header header;
    char message[JMSG_LENGTH_MAX + 64];

    png_structp png;
    png_infop png_info;
    png_bytepp png_rows;   /* row pointers for png_read_image, freed by destroy */

    struct jpeg_decompress_struct jpeg;
    struct satchel_jpeg_error jpeg_error;
    int jpeg_created;
    jmp_buf jpeg_jump;
};

/* Sets the decoder's message with printf formatting. */
void satchel_image_set_message(struct satchel_image_decoder *decoder, const char *format, ...);

satchel_image_status satchel_png_create(struct satchel_image_decoder *decoder);
satchel_image_status satchel_png_read_header(struct satchel_image_decoder *decoder, const satchel_image_options *options);
satchel_image_status satchel_png_read_pixels(struct satchel_image_decoder *decoder, uint8_t *pixels);
void satchel_png_destroy(struct satchel_image_decoder *decoder);

satchel_image_status satchel_jpeg_read_header(struct satchel_image_decoder *decoder, const satchel_image_options *options);
satchel_image_status satchel_jpeg_read_pixels(struct satchel_image_decoder *decoder, uint8_t *pixels);
void satchel_jpeg_destroy(struct satchel_image_decoder *decoder);

#endif
