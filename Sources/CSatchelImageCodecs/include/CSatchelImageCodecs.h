/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CIMAGECODECS_H
#define SATCHEL_CIMAGECODECS_H
/* The setjmp/longjmp error exits of libpng and libjpeg, which Swift cannot express.

   A decoder reads an image from memory in two steps so the caller owns the pixel memory:
   satchel_image_decoder_read_header() parses the header, checks the pixel limit and sets up
   the output format; the caller allocates out_height * out_row_bytes bytes and calls
   satchel_image_decoder_read_pixels(). Every step catches the library's errors (and libjpeg's
   corrupt-data warnings) into a status and a message; satchel_image_decoder_destroy() frees
   everything on every path. The input bytes are borrowed and must outlive the decoder. */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The container formats the shim decodes. */
typedef enum {
    SATCHEL_IMAGE_PNG = 1,
    SATCHEL_IMAGE_JPEG = 2
} satchel_image_format;

/* The pixel layout asked for. */
typedef enum {
    /* The stored channels: PNG palette and tRNS expanded to RGB(A), samples under 8 bits
       scaled to 8, 16-bit samples kept (host byte order); JPEG gray, RGB or raw CMYK. */
    SATCHEL_IMAGE_OUTPUT_NATIVE = 0,
    /* 8-bit red, green, blue, alpha (alpha 255 where the image has none). */
    SATCHEL_IMAGE_OUTPUT_RGBA8 = 1,
    /* 8-bit red, green, blue (alpha dropped). */
    SATCHEL_IMAGE_OUTPUT_RGB8 = 2
} satchel_image_output;

/* Step results. */
typedef enum {
    SATCHEL_IMAGE_OK = 0,
    SATCHEL_IMAGE_LIBRARY_ERROR = 1, /* the library's message is in satchel_image_decoder_message */
    SATCHEL_IMAGE_TOO_MANY_PIXELS = 2,
    SATCHEL_IMAGE_OUT_OF_MEMORY = 3,
    SATCHEL_IMAGE_MISUSE = 4,
    SATCHEL_IMAGE_TRUNCATED = 5 /* the data ended early; the library's message is kept */
} satchel_image_status;

/* How the stored image holds colour. */
typedef enum {
    SATCHEL_IMAGE_COLOR_OTHER = 0,
    SATCHEL_IMAGE_COLOR_GRAY = 1,
    SATCHEL_IMAGE_COLOR_GRAY_ALPHA = 2,
    SATCHEL_IMAGE_COLOR_RGB = 3,
    SATCHEL_IMAGE_COLOR_RGBA = 4,
    SATCHEL_IMAGE_COLOR_PALETTE = 5,
    SATCHEL_IMAGE_COLOR_YCBCR = 6,
    SATCHEL_IMAGE_COLOR_CMYK = 7,
    SATCHEL_IMAGE_COLOR_YCCK = 8
} satchel_image_color;

/* What the caller asks for. */
typedef struct {
    satchel_image_output output;
    int scale_denominator; /* JPEG DCT scaling: 1, 2, 4 or 8 */
    int apply_gamma;       /* PNG: convert from the file's gAMA to sRGB (2.2) when it has one */
    uint64_t max_pixels;   /* most width * height allowed, checked from the header */
} satchel_image_options;

/* What the header says, and the layout read_pixels will write. */
typedef struct {
    uint32_t width, height;         /* of the stored image */
    uint32_t out_width, out_height; /* of the pixels written (JPEG scaling makes them smaller) */
    uint32_t out_channels;          /* samples per pixel written */
    uint32_t out_bit_depth;         /* 8 or 16 */
    size_t out_row_bytes;           /* bytes per written row, no padding */
    int bit_depth;                  /* stored bit depth (PNG 1..16, JPEG 8 or 12) */
    satchel_image_color color;      /* how the stored image holds colour */
    int has_transparency;           /* PNG: tRNS chunk */
    int interlaced;                 /* PNG: Adam7; JPEG: progressive */
    int has_icc_profile;            /* PNG iCCP, JPEG APP2 ICC_PROFILE */
    int adobe_inverted;             /* JPEG CMYK/YCCK with an Adobe marker: samples inverted */
    const uint8_t *exif;            /* the EXIF TIFF structure (after "Exif\0\0"), or NULL */
    size_t exif_size;               /* valid until the pixels are read (libjpeg frees its markers) */
} satchel_image_header;

typedef struct satchel_image_decoder satchel_image_decoder;

/* A decoder over `size` borrowed bytes, or NULL when memory runs out. */
satchel_image_decoder *satchel_image_decoder_create(satchel_image_format format, const uint8_t *data, size_t size);

/* Reads the header, checks options->max_pixels before any pixel memory exists, sets up the
   output layout and fills *header. */
satchel_image_status satchel_image_decoder_read_header(
    satchel_image_decoder *decoder, const satchel_image_options *options, satchel_image_header *header);

/* Decodes every row into `pixels` (header.out_height * header.out_row_bytes bytes), then reads
   to the end of the image so truncation and trailing corruption are reported. Only once, and
   only after a successful read_header (SATCHEL_IMAGE_MISUSE otherwise). */
satchel_image_status satchel_image_decoder_read_pixels(satchel_image_decoder *decoder, uint8_t *pixels);

/* The last error's message (empty when there was none). Valid until the next call. */
const char *satchel_image_decoder_message(const satchel_image_decoder *decoder);

/* Frees the decoder and everything the libraries allocated. NULL does nothing. */
void satchel_image_decoder_destroy(satchel_image_decoder *decoder);

#ifdef __cplusplus
}
#endif
#endif
