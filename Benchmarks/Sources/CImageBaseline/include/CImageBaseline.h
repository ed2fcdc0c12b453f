/* SPDX-License-Identifier: Apache-2.0 */
#ifndef SATCHEL_CImageBaseline_H
#define SATCHEL_CImageBaseline_H
/* The raw libpng and libjpeg baselines for the image benchmarks: decode from memory straight
   into a malloc'd buffer of 8-bit RGBA (channels 4) or RGB (channels 3), the way a C program
   calls the libraries, with a setjmp error exit and no other work. */
#include <stddef.h>
#include <stdint.h>

/* Decodes a PNG; returns the buffer (free with free()) and its size in *size, or NULL. */
uint8_t *image_baseline_png(const uint8_t *data, size_t length, int channels, size_t *size);

/* Decodes a JPEG; returns the buffer (free with free()) and its size in *size, or NULL. */
uint8_t *image_baseline_jpeg(const uint8_t *data, size_t length, int channels, size_t *size);

/* free(), for Swift. */
void image_baseline_free(uint8_t *pixels);
#endif
