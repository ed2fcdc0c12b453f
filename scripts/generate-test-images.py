#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Writes the image decoder's test images and their independent RGBA8 references.

Usage: generate-test-images.py OUTPUT_DIRECTORY

For every case it writes NAME.png or NAME.jpg, NAME.rgba (the expected pixels, 8-bit RGBA, rows
top to bottom) and one manifest.json describing all cases (plus GIF, WebP, BMP, TIFF and ICO files
for the unsupported-format tests). Deterministic: the same files every run.

PNG files are encoded here (zlib + CRC, every filter type, Adam7) so every colour type and bit
depth can be written, including ones Pillow cannot save (gray 2/4, RGB/RGBA 16). Their references
are computed from the samples written: sub-8-bit gray scaled to 0..255, 16-bit samples as
round(v / 257), tRNS as alpha 0. Pillow then decodes every PNG independently, and where Pillow's
RGBA conversion is exact (everything but 16-bit, which Pillow truncates to the high byte, and
sub-8-bit gray with tRNS, where Pillow compares scaled samples with the raw tRNS value) the
script checks that Pillow agrees with the reference, so the reference is two decoders' word.

JPEG files are written by Pillow (libjpeg-turbo); their references are Pillow's own decode,
converted to RGBA, also at 1/2, 1/4 and 1/8 scale through Image.draft (libjpeg's DCT scaling).
"""
import io
import json
import os
import struct
import sys
import zlib

from PIL import Image, ImageCms

ADAM7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}
COLOR_NAMES = {0: "gray", 2: "rgb", 3: "palette", 4: "grayAlpha", 6: "rgba"}


class Random:
    """A small LCG so the samples never depend on Python's random module version."""

    def __init__(self, seed):
        self.state = seed

    def next(self, bound):
        self.state = (self.state * 6364136223846793005 + 1442695040888963407) % (1 << 64)
        return (self.state >> 33) % bound


def srgb_profile():
    """littleCMS's sRGB profile with its creation date and ID zeroed, so runs are identical."""
    profile = bytearray(ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes())
    profile[24:36] = bytes(12)
    profile[84:100] = bytes(16)
    return bytes(profile)


def chunk(tag, data):
    return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF)


def pack_row(samples, depth):
    if depth == 16:
        return b"".join(struct.pack(">H", s) for s in samples)
    if depth == 8:
        return bytes(samples)
    out = bytearray()
    per_byte = 8 // depth
    for start in range(0, len(samples), per_byte):
        byte = 0
        group = samples[start:start + per_byte]
        for index, sample in enumerate(group):
            byte |= sample << (8 - depth * (index + 1))
        out.append(byte)
    return bytes(out)


def paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    if pa <= pb and pa <= pc:
        return a
    return b if pb <= pc else c


def filter_rows(rows, bpp):
    """Filters each row with type (row index % 5), so every PNG filter is exercised."""
    out = bytearray()
    previous = bytes(len(rows[0])) if rows else b""
    for index, row in enumerate(rows):
        kind = index % 5
        filtered = bytearray()
        for i, x in enumerate(row):
            a = row[i - bpp] if i >= bpp else 0
            b = previous[i]
            c = previous[i - bpp] if i >= bpp else 0
            predictor = [0, a, b, (a + b) // 2, paeth(a, b, c)][kind]
            filtered.append((x - predictor) & 0xFF)
        out.append(kind)
        out += filtered
        previous = row
    return bytes(out)


def encode_png(width, height, color_type, depth, pixels, palette=None, trns=None, interlace=False, extra=b""):
    """pixels: rows of pixels, each pixel a tuple of samples."""
    channels = CHANNELS[color_type]
    bpp = max(1, channels * depth // 8)
    data = bytearray()
    passes = ADAM7 if interlace else [(0, 0, 1, 1)]
    for x0, y0, dx, dy in passes:
        rows = []
        for y in range(y0, height, dy):
            samples = [s for x in range(x0, width, dx) for s in pixels[y][x]]
            if samples:
                rows.append(pack_row(samples, depth))
        if rows:
            data += filter_rows(rows, bpp)
    ihdr = struct.pack(">IIBBBBB", width, height, depth, color_type, 0, 0, 1 if interlace else 0)
    body = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + extra
    if palette is not None:
        body += chunk(b"PLTE", b"".join(bytes(entry) for entry in palette))
    if trns is not None:
        body += chunk(b"tRNS", trns)
    compressed = zlib.compress(bytes(data), 9)
    for start in range(0, len(compressed), 4096):  # several IDAT chunks
        body += chunk(b"IDAT", compressed[start:start + 4096])
    return body + chunk(b"IEND", b"")


def to8(value, depth):
    if depth == 16:
        return (2 * value + 257) // 514  # round(value / 257); never a tie since 257 is odd
    return value * 255 // ((1 << depth) - 1)


def reference_rgba(color_type, depth, pixels, palette=None, trns_value=None, trns_alpha=None):
    out = bytearray()
    for row in pixels:
        for pixel in row:
            if color_type == 3:
                r, g, b = palette[pixel[0]]
                a = trns_alpha[pixel[0]] if trns_alpha and pixel[0] < len(trns_alpha) else 255
            elif color_type in (0, 4):
                r = g = b = to8(pixel[0], depth)
                a = to8(pixel[1], depth) if color_type == 4 else (0 if trns_value == pixel else 255)
            else:
                r, g, b = (to8(s, depth) for s in pixel[:3])
                a = to8(pixel[3], depth) if color_type == 6 else (0 if trns_value == pixel else 255)
            out += bytes((r, g, b, a))
    return bytes(out)


def make_pixels(width, height, channels, depth, seed):
    random = Random(seed)
    top = (1 << depth) - 1
    rows = []
    for y in range(height):
        row = []
        for x in range(width):
            if (x + y) % 3 == 0:  # gradient pixels keep images compressible and ordered
                row.append(tuple(((x * 7 + y * 13 + c * 50) * top // (width * 7 + height * 13 + 150)) for c in range(channels)))
            else:
                row.append(tuple(random.next(top + 1) for _ in range(channels)))
        rows.append(row)
    return rows


def exif_orientation(value, little_endian=True):
    order = "<" if little_endian else ">"
    header = (b"II" if little_endian else b"MM") + struct.pack(order + "HI", 42, 8)
    entries = struct.pack(order + "H", 2)
    entries += struct.pack(order + "HHI", 0x010F, 2, 4) + b"Cam\0"  # Make, inline ASCII
    entries += struct.pack(order + "HHIHH", 0x0112, 3, 1, value, 0)
    return header + entries + struct.pack(order + "I", 0)


def png_cases():
    """(name, png bytes, reference, metadata, pillow_check)."""
    cases = []
    width, height = 37, 23
    for color_type, depths in [(0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16])]:
        for depth in depths:
            for interlace in (False, True):
                channels = CHANNELS[color_type]
                seed = color_type * 100 + depth * 2 + interlace
                palette = trns_alpha = None
                if color_type == 3:
                    count = 1 << depth
                    rnd = Random(seed)
                    palette = [(rnd.next(256), rnd.next(256), rnd.next(256)) for _ in range(count)]
                    pixels = make_pixels(width, height, 1, depth, seed)
                else:
                    pixels = make_pixels(width, height, channels, depth, seed)
                name = f"png-{COLOR_NAMES[color_type]}-{depth}{'-adam7' if interlace else ''}"
                data = encode_png(width, height, color_type, depth, pixels, palette=palette, interlace=interlace)
                reference = reference_rgba(color_type, depth, pixels, palette=palette)
                cases.append((name, data, reference, meta("png", width, height, COLOR_NAMES[color_type], depth, interlaced=interlace), depth != 16))
                # tRNS variants: gray, RGB, palette.
                if color_type in (0, 2, 3) and not interlace:
                    trns_value = trns_alpha = None
                    if color_type == 3:
                        trns_alpha = [Random(seed + 7).next(256) for _ in range(len(palette) // 2 + 1)]
                        trns = bytes(trns_alpha)
                    else:
                        trns_value = pixels[1][1]  # a random pixel value, matched exactly
                        trns = b"".join(struct.pack(">H", s) for s in trns_value)
                    data = encode_png(width, height, color_type, depth, pixels, palette=palette, trns=trns)
                    reference = reference_rgba(color_type, depth, pixels, palette, trns_value, trns_alpha)
                    m = meta("png", width, height, COLOR_NAMES[color_type], depth, hasTransparency=True)
                    # Pillow compares sub-8-bit gray samples, scaled to 8 bits, with the unscaled
                    # tRNS value, so its alpha is wrong there (the PNG spec compares raw samples).
                    pillow_agrees = depth != 16 and not (color_type == 0 and depth < 8)
                    cases.append((name + "-trns", data, reference, m, pillow_agrees))
    # Metadata: ICC profile, EXIF orientation (eXIf), a linear gAMA for the applyGamma test.
    pixels = make_pixels(9, 5, 3, 8, 5)
    reference = reference_rgba(2, 8, pixels)
    icc = zlib.compress(srgb_profile())
    extra = chunk(b"iCCP", b"sRGB\0\0" + icc)
    cases.append(("png-icc", encode_png(9, 5, 2, 8, pixels, extra=extra), reference, meta("png", 9, 5, "rgb", 8, hasICCProfile=True), True))
    extra = chunk(b"eXIf", exif_orientation(6, little_endian=False))
    cases.append(("png-exif-6", encode_png(9, 5, 2, 8, pixels, extra=extra), reference, meta("png", 9, 5, "rgb", 8, orientation=6), True))
    extra = chunk(b"gAMA", struct.pack(">I", 100000))
    cases.append(("png-gamma-linear", encode_png(9, 5, 2, 8, pixels, extra=extra), reference, meta("png", 9, 5, "rgb", 8), False))
    # Written by Pillow (adaptive filters, its zlib settings).
    for mode in ("RGB", "RGBA", "L", "P", "1"):
        image = photo_like(41, 29, 3).convert(mode)
        buffer = io.BytesIO()
        image.save(buffer, "PNG")
        data = buffer.getvalue()
        color = {"RGB": "rgb", "RGBA": "rgb", "L": "gray", "P": "palette", "1": "gray"}[mode]
        reference = Image.open(io.BytesIO(data)).convert("RGBA").tobytes()
        depth = 1 if mode == "1" else 8
        if mode == "RGBA":
            color = "rgba"
        cases.append((f"png-pillow-{mode.lower()}", data, reference, meta("png", 41, 29, color, depth), False))
    return cases


def photo_like(width, height, seed):
    """Smooth gradients with some noise and edges, like a photograph."""
    random = Random(seed)
    image = Image.new("RGB", (width, height))
    pixels = []
    for y in range(height):
        for x in range(width):
            noise = random.next(24)
            r = (x * 255 // max(1, width - 1) + noise) % 256
            g = (y * 255 // max(1, height - 1) + noise // 2) % 256
            b = ((x + y) * 128 // max(1, width + height) + (96 if (x // 11 + y // 7) % 2 else 0)) % 256
            pixels.append((r, g, b))
    image.putdata(pixels)
    return image


def jpeg_cases():
    cases = []
    width, height = 67, 45
    base = photo_like(width, height, 11)
    icc = srgb_profile()
    variants = [
        ("jpeg-baseline-420", base, dict(quality=90, subsampling=2), "yCbCr", {}),
        ("jpeg-baseline-422", base, dict(quality=90, subsampling=1), "yCbCr", {}),
        ("jpeg-baseline-444", base, dict(quality=90, subsampling=0), "yCbCr", {}),
        ("jpeg-progressive", base, dict(quality=90, progressive=True), "yCbCr", dict(progressive=True)),
        ("jpeg-gray", base.convert("L"), dict(quality=90), "gray", {}),
        ("jpeg-gray-progressive", base.convert("L"), dict(quality=90, progressive=True), "gray", dict(progressive=True)),
        ("jpeg-cmyk", base.convert("CMYK"), dict(quality=95), "cmyk", {}),
        ("jpeg-restart-blocks", base, dict(quality=90, restart_marker_blocks=3), "yCbCr", {}),
        ("jpeg-restart-rows", base, dict(quality=90, restart_marker_rows=1, progressive=False), "yCbCr", {}),
        ("jpeg-icc", base, dict(quality=90, icc_profile=icc), "yCbCr", dict(hasICCProfile=True)),
    ]
    for orientation in range(1, 9):
        exif = Image.Exif()
        exif[0x0112] = orientation
        variants.append((f"jpeg-exif-{orientation}", base, dict(quality=85, exif=exif.tobytes()), "yCbCr", dict(orientation=orientation)))
    for name, image, options, color, extra in variants:
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", **options)
        data = buffer.getvalue()
        reference = Image.open(io.BytesIO(data)).convert("RGBA").tobytes()
        cases.append((name, data, reference, meta("jpeg", width, height, color, 8, **extra), False))
    # Scaled references through libjpeg's DCT scaling (Image.draft), for the downscale option.
    for source in ("jpeg-baseline-420", "jpeg-progressive", "jpeg-gray", "jpeg-cmyk"):
        data = next(case[1] for case in cases if case[0] == source)
        for scale in (2, 4, 8):
            image = Image.open(io.BytesIO(data))
            image.draft(image.mode, (width // scale, height // scale))  # Pillow picks the largest scale that fits
            image = image.convert("RGBA")
            m = dict(next(case[3] for case in cases if case[0] == source))
            m.update(scale=scale, outWidth=image.width, outHeight=image.height)
            cases.append((f"{source}-scale-{scale}", data, image.tobytes(), m, False))
    return cases


def meta(format, width, height, color, depth, **extra):
    m = dict(format=format, width=width, height=height, colorType=color, bitDepth=depth, interlaced=False,
             progressive=False, hasICCProfile=False, hasTransparency=False, orientation=1, scale=1,
             outWidth=width, outHeight=height)
    m.update(extra)
    return m


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    directory = sys.argv[1]
    os.makedirs(directory, exist_ok=True)
    manifest = []
    failures = []
    for name, data, reference, m, pillow_check in png_cases() + jpeg_cases():
        extension = "png" if m["format"] == "png" else "jpg"
        if m["scale"] == 1:
            with open(os.path.join(directory, f"{name}.{extension}"), "wb") as file:
                file.write(data)
        with open(os.path.join(directory, f"{name}.rgba"), "wb") as file:
            file.write(reference)
        assert len(reference) == m["outWidth"] * m["outHeight"] * 4, name
        if pillow_check:
            decoded = Image.open(io.BytesIO(data)).convert("RGBA").tobytes()
            if decoded != reference:
                failures.append(name)
        file_name = f"{name}.{extension}" if m["scale"] == 1 else f"{name.rsplit('-scale-', 1)[0]}.{extension}"
        manifest.append(dict(name=name, file=file_name, reference=f"{name}.rgba", **m))
    # Real files in formats Satchel recognises but does not decode.
    unsupported = {}
    for format, name, extension in [("GIF", "GIF", "gif"), ("WEBP", "WebP", "webp"), ("BMP", "BMP", "bmp"),
                                     ("TIFF", "TIFF", "tiff"), ("ICO", "ICO", "ico")]:
        file_name = f"unsupported.{extension}"
        photo_like(16, 16, 3).save(os.path.join(directory, file_name), format)
        unsupported[file_name] = name
    with open(os.path.join(directory, "manifest.json"), "w") as file:
        json.dump(dict(cases=manifest, unsupported=unsupported), file, indent=1)
    if failures:
        sys.exit(f"Pillow disagrees with the computed reference for: {', '.join(failures)}")
    print(f"wrote {len(manifest)} cases to {directory}")


if __name__ == "__main__":
    main()
