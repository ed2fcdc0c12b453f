/* SPDX-License-Identifier: Apache-2.0 */
/* PNG and JPEG encoders for the fixture server's images. libpng and libjpeg report errors by
   longjmp, which Swift cannot catch, so the setjmp points live here. */
#ifndef SATCHEL_FIXTURE_IMAGES_H
#define SATCHEL_FIXTURE_IMAGES_H

#include <stddef.h>
#include <stdint.h>

/* Encodes `height` rows of `width` 8-bit RGB pixels (3 bytes each, rows packed) as a
   non-interlaced 8-bit RGB PNG with no ancillary chunks (so the bytes depend only on the pixels
   and libpng's zlib). On success returns 0 and sets `*out` (free it with free()) and `*out_size`;
   on failure returns -1 and leaves `*out` NULL. */
int satchel_fixture_png(const uint8_t *rgb, uint32_t width, uint32_t height, uint8_t **out, size_t *out_size);

/* Encodes the same pixels as a baseline JFIF JPEG of `quality` (1-100, 4:2:0 sampling).
   Returns as satchel_fixture_png. */
int satchel_fixture_jpeg(const uint8_t *rgb, uint32_t width, uint32_t height, int quality, uint8_t **out, size_t *out_size);

#endif
