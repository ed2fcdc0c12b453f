/* SPDX-License-Identifier: Apache-2.0 */
/* Runs the CSatchelImageCodecs shim under AddressSanitizer, LeakSanitizer and UBSan (see
   scripts/check-image-shim): every file given is decoded whole, cut at many lengths and with
   seeded byte flips, in every output layout and scale. Leaks, overflows and undefined
   behaviour on any error path make the sanitizers fail the run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CSatchelImageCodecs.h"

static unsigned long long state = 0x1234567;

static unsigned next_random(unsigned bound) {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return (unsigned)((state >> 33) % bound);
}

static int decode(const uint8_t *data, size_t size, satchel_image_output output, int scale) {
    satchel_image_format format = size > 0 && data[0] == 0x89 ? SATCHEL_IMAGE_PNG : SATCHEL_IMAGE_JPEG;
    satchel_image_decoder *decoder = satchel_image_decoder_create(format, data, size);
    if (decoder == NULL) return -1;
    satchel_image_options options = {output, scale, 0, 100000000};
    satchel_image_header header;
    int status = satchel_image_decoder_read_header(decoder, &options, &header);
    if (status == SATCHEL_IMAGE_OK) {
        uint8_t *pixels = malloc(header.out_row_bytes * header.out_height + 1);
        status = satchel_image_decoder_read_pixels(decoder, pixels);
        free(pixels);
    }
    satchel_image_decoder_destroy(decoder);
    return status;
}

int main(int argc, char **argv) {
    long decodes = 0, failures = 0;
    for (int index = 1; index < argc; index++) {
        FILE *file = fopen(argv[index], "rb");
        if (file == NULL) { perror(argv[index]); return 2; }
        static uint8_t data[1 << 22];
        size_t size = fread(data, 1, sizeof data, file);
        fclose(file);
        uint8_t *copy = malloc(size);
        for (int output = 0; output <= 2; output++) {
            for (int scale = 1; scale <= 8; scale *= 2) {
                if (decode(data, size, output, scale) != SATCHEL_IMAGE_OK) {
                    fprintf(stderr, "%s does not decode\n", argv[index]);
                    return 1;
                }
                for (size_t length = 0; length < size; length += 1 + size / 64, decodes++) {
                    failures += decode(data, length, output, scale) != SATCHEL_IMAGE_OK;
                }
                for (int round = 0; round < 40; round++, decodes++) {
                    memcpy(copy, data, size);
                    for (int flips = 1 + (int)next_random(4); flips > 0; flips--) copy[next_random((unsigned)size)] ^= (uint8_t)(1 + next_random(255));
                    failures += decode(copy, size, output, scale) != SATCHEL_IMAGE_OK;
                }
            }
        }
        free(copy);
    }
    printf("image shim check: %ld decodes of damaged files, %ld rejected, no sanitizer reports\n", decodes, failures);
    return 0;
}
