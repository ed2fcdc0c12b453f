/* SPDX-License-Identifier: Apache-2.0 */
/* libjpeg(-turbo) from memory. Its default error handler calls exit(); ours formats the message
   and longjmps back to the step that called into libjpeg. Corrupt-data warnings (premature end
   of data, bad Huffman codes, ...) are errors too: libjpeg would otherwise pad with grey. */
#include <limits.h>
#include <string.h>

#include "decoder.h"

#include <jerror.h>

static void jpeg_error_exit(j_common_ptr info) {
    struct satchel_jpeg_error *error = (struct satchel_jpeg_error *)info->err;
    char text[JMSG_LENGTH_MAX];
    error->base.format_message(info, text);
    satchel_image_set_message(error->decoder, "%s", text);
    longjmp(error->decoder->jpeg_jump, 1);
}

/* Warnings (level -1) that only describe metadata; every other warning means corrupt data. */
static int jpeg_warning_is_harmless(int code) {
    return code == JWRN_JFIF_MAJOR || code == JWRN_ADOBE_XFORM || code == JWRN_BOGUS_ICC;
}

static void jpeg_emit_message(j_common_ptr info, int level) {
    if (level < 0) {
        info->err->num_warnings++;
        if (info->err->msg_code == JWRN_JPEG_EOF) ((struct satchel_jpeg_error *)info->err)->decoder->truncated = 1;
        if (!jpeg_warning_is_harmless(info->err->msg_code)) jpeg_error_exit(info);
    }
}

static void jpeg_output_nothing(j_common_ptr info) {
    (void)info;
}

static int jpeg_is_cmyk(J_COLOR_SPACE space) {
    return space == JCS_CMYK || space == JCS_YCCK;
}

static J_COLOR_SPACE jpeg_output_space(J_COLOR_SPACE source, satchel_image_output output) {
    if (jpeg_is_cmyk(source)) return JCS_CMYK; /* converted to RGB by the caller */
    switch (output) {
    case SATCHEL_IMAGE_OUTPUT_RGBA8: return JCS_EXT_RGBA;
    case SATCHEL_IMAGE_OUTPUT_RGB8: return JCS_RGB;
    default: return source == JCS_GRAYSCALE ? JCS_GRAYSCALE : JCS_RGB;
    }
}

static void jpeg_find_markers(struct satchel_image_decoder *decoder) {
    static const char exif[6] = "Exif\0";
    static const char icc[12] = "ICC_PROFILE";
    for (jpeg_saved_marker_ptr marker = decoder->jpeg.marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && decoder->header.exif == NULL && marker->data_length >= 6
            && memcmp(marker->data, exif, 6) == 0) {
            decoder->header.exif = marker->data + 6;
            decoder->header.exif_size = marker->data_length - 6;
        }
        if (marker->marker == JPEG_APP0 + 2 && marker->data_length >= 12 && memcmp(marker->data, icc, 12) == 0) {
            decoder->header.has_icc_profile = 1;
        }
    }
}

satchel_image_status satchel_jpeg_read_header(struct satchel_image_decoder *decoder, const satchel_image_options *options) {
    struct jpeg_decompress_struct *jpeg = &decoder->jpeg;
    satchel_image_header *header = &decoder->header;
    if (decoder->size > ULONG_MAX) {
        satchel_image_set_message(decoder, "input too large for libjpeg");
        return SATCHEL_IMAGE_LIBRARY_ERROR;
    }
    jpeg->err = jpeg_std_error(&decoder->jpeg_error.base);
    decoder->jpeg_error.decoder = decoder;
    decoder->jpeg_error.base.error_exit = jpeg_error_exit;
    decoder->jpeg_error.base.emit_message = jpeg_emit_message;
    decoder->jpeg_error.base.output_message = jpeg_output_nothing;
    if (setjmp(decoder->jpeg_jump)) return decoder->truncated ? SATCHEL_IMAGE_TRUNCATED : SATCHEL_IMAGE_LIBRARY_ERROR;
    decoder->jpeg_created = 1; /* the struct is zeroed, so destroying it half-made is safe */
    jpeg_create_decompress(jpeg);
    jpeg_mem_src(jpeg, decoder->data, (unsigned long)decoder->size);
    jpeg_save_markers(jpeg, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(jpeg, JPEG_APP0 + 2, 0xFFFF);
    if (jpeg_read_header(jpeg, TRUE) != JPEG_HEADER_OK) {
        satchel_image_set_message(decoder, "JPEG stream holds tables but no image");
        return SATCHEL_IMAGE_LIBRARY_ERROR;
    }
    header->width = jpeg->image_width;
    header->height = jpeg->image_height;
    /* The source size, not the scaled one: libjpeg allocates whole-image buffers for
       progressive scans at full size whatever the output scale. */
    if ((uint64_t)header->width * header->height > options->max_pixels) {
        satchel_image_set_message(decoder, "%u x %u pixels", header->width, header->height);
        return SATCHEL_IMAGE_TOO_MANY_PIXELS;
    }
    header->bit_depth = jpeg->data_precision;
    switch (jpeg->jpeg_color_space) {
    case JCS_GRAYSCALE: header->color = SATCHEL_IMAGE_COLOR_GRAY; break;
    case JCS_RGB: header->color = SATCHEL_IMAGE_COLOR_RGB; break;
    case JCS_YCbCr: header->color = SATCHEL_IMAGE_COLOR_YCBCR; break;
    case JCS_CMYK: header->color = SATCHEL_IMAGE_COLOR_CMYK; break;
    case JCS_YCCK: header->color = SATCHEL_IMAGE_COLOR_YCCK; break;
    default: header->color = SATCHEL_IMAGE_COLOR_OTHER; break;
    }
    header->interlaced = jpeg->progressive_mode;
    header->adobe_inverted = jpeg->saw_Adobe_marker && jpeg_is_cmyk(jpeg->jpeg_color_space);
    jpeg_find_markers(decoder);
    jpeg->out_color_space = jpeg_output_space(jpeg->jpeg_color_space, options->output);
    jpeg->scale_num = 1;
    jpeg->scale_denom = (unsigned int)options->scale_denominator;
    jpeg_calc_output_dimensions(jpeg);
    header->out_width = jpeg->output_width;
    header->out_height = jpeg->output_height;
    header->out_channels = (uint32_t)jpeg->output_components;
    header->out_bit_depth = 8;
    header->out_row_bytes = (size_t)jpeg->output_width * (size_t)jpeg->output_components;
    return SATCHEL_IMAGE_OK;
}

satchel_image_status satchel_jpeg_read_pixels(struct satchel_image_decoder *decoder, uint8_t *pixels) {
    struct jpeg_decompress_struct *jpeg = &decoder->jpeg;
    size_t row_bytes = decoder->header.out_row_bytes;
    if (setjmp(decoder->jpeg_jump)) return decoder->truncated ? SATCHEL_IMAGE_TRUNCATED : SATCHEL_IMAGE_LIBRARY_ERROR;
    (void)jpeg_start_decompress(jpeg);
    if (jpeg->output_width != decoder->header.out_width || jpeg->output_height != decoder->header.out_height
        || (size_t)jpeg->output_width * (size_t)jpeg->output_components != row_bytes) {
        satchel_image_set_message(decoder, "libjpeg changed the output layout");
        return SATCHEL_IMAGE_LIBRARY_ERROR;
    }
    while (jpeg->output_scanline < jpeg->output_height) {
        JSAMPROW rows[4];
        JDIMENSION count = jpeg->output_height - jpeg->output_scanline;
        if (count > 4) count = 4;
        for (JDIMENSION index = 0; index < count; index++) {
            rows[index] = pixels + (size_t)(jpeg->output_scanline + index) * row_bytes;
        }
        if (jpeg_read_scanlines(jpeg, rows, count) == 0) {
            satchel_image_set_message(decoder, "libjpeg made no progress");
            return SATCHEL_IMAGE_LIBRARY_ERROR;
        }
    }
    (void)jpeg_finish_decompress(jpeg);
    return SATCHEL_IMAGE_OK;
}

void satchel_jpeg_destroy(struct satchel_image_decoder *decoder) {
    if (decoder->jpeg_created) jpeg_destroy_decompress(&decoder->jpeg);
    decoder->jpeg_created = 0;
}
