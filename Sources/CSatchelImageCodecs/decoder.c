/* SPDX-License-Identifier: Apache-2.0 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "decoder.h"

void satchel_image_set_message(struct satchel_image_decoder *decoder, const char *format, ...) {
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(decoder->message, sizeof decoder->message, format, arguments);
    va_end(arguments);
}

satchel_image_decoder *satchel_image_decoder_create(satchel_image_format format, const uint8_t *data, size_t size) {
    if (format != SATCHEL_IMAGE_PNG && format != SATCHEL_IMAGE_JPEG) return NULL;
    satchel_image_decoder *decoder = calloc(1, sizeof *decoder);
    if (decoder == NULL) return NULL;
    decoder->format = format;
    decoder->data = data;
    decoder->size = size;
    if (format == SATCHEL_IMAGE_PNG && satchel_png_create(decoder) != SATCHEL_IMAGE_OK) {
        satchel_image_decoder_destroy(decoder);
        return NULL;
    }
    return decoder;
}

satchel_image_status satchel_image_decoder_read_header(
    satchel_image_decoder *decoder, const satchel_image_options *options, satchel_image_header *header) {
    if (decoder == NULL || options == NULL || header == NULL || decoder->header_read) return SATCHEL_IMAGE_MISUSE;
    int denominator = options->scale_denominator;
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) return SATCHEL_IMAGE_MISUSE;
    decoder->header_read = 1;
    decoder->message[0] = '\0';
    satchel_image_status status = decoder->format == SATCHEL_IMAGE_PNG
        ? satchel_png_read_header(decoder, options)
        : satchel_jpeg_read_header(decoder, options);
    if (status == SATCHEL_IMAGE_OK) *header = decoder->header;
    decoder->failed = status != SATCHEL_IMAGE_OK;
    return status;
}

satchel_image_status satchel_image_decoder_read_pixels(satchel_image_decoder *decoder, uint8_t *pixels) {
    if (decoder == NULL || pixels == NULL || !decoder->header_read || decoder->failed || decoder->pixels_read) {
        return SATCHEL_IMAGE_MISUSE;
    }
    decoder->message[0] = '\0';
    decoder->pixels_read = 1;
    satchel_image_status status = decoder->format == SATCHEL_IMAGE_PNG
        ? satchel_png_read_pixels(decoder, pixels)
        : satchel_jpeg_read_pixels(decoder, pixels);
    decoder->failed = status != SATCHEL_IMAGE_OK;
    return status;
}

const char *satchel_image_decoder_message(const satchel_image_decoder *decoder) {
    return decoder == NULL ? "" : decoder->message;
}

void satchel_image_decoder_destroy(satchel_image_decoder *decoder) {
    if (decoder == NULL) return;
    satchel_png_destroy(decoder);
    satchel_jpeg_destroy(decoder);
    free(decoder);
}
