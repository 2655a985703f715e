#pragma once
#include "pm_image.h"

/// An open JPEG decoder: headers parsed, no pixel memory allocated yet. Two steps so the caller
/// can check the declared size and read EXIF orientation before choosing a DCT scale.
typedef struct pm_jpeg pm_jpeg;

typedef struct pm_jpeg_header {
    int width;               ///< as declared in the SOF marker
    int height;
    int components;          ///< 1 grey, 3 YCbCr/RGB, 4 CMYK/YCCK
    int progressive;
    const uint8_t *exif;     ///< first APP1 "Exif\0\0" payload, or NULL; valid until pm_jpeg_close
    size_t exif_length;
    const uint8_t *xmp;      ///< first APP1 XMP packet (after its namespace), or NULL; valid until pm_jpeg_close
    size_t xmp_length;
    size_t icc_length;       ///< bytes of the embedded ICC profile (APP2 chunks), 0 without one
} pm_jpeg_header;

/// Parses markers up to the first scan. Returns NULL and fills `message` on failure.
/// `max_memory` caps libjpeg's internal allocations (progressive coefficient buffers).
pm_jpeg *pm_jpeg_open(const uint8_t *data, size_t length, size_t max_memory,
                      pm_jpeg_header *header, char *message);

/// Decodes to RGB at DCT scale `scale_eighths`/8 (1...8). Fails without allocating when the
/// scaled output would exceed `max_pixels`, and stops a multi-scan file whose scans would walk
/// more than 16 x `max_pixels` pixels (scans x declared size; at least 16 scans are allowed).
/// A file whose data is damaged (truncated, corrupt entropy data: a libjpeg warning) decodes as
/// browsers show it, libjpeg filling in what is lost, with `out->warning` saying what and where;
/// it fails only when the damage comes before any row decoded (in the headers or the first
/// iMCU row of the first scan). Lossless JPEG (SOF3...) fails with a message saying why. An
/// embedded ICC profile is copied into `out->icc` for the colour stage, except for
/// CMYK, which is converted to sRGB here through the embedded CMYK profile or the built-in one
/// (see color_convert.h). Returns 0, or -1 with `message` filled.
int pm_jpeg_decode(pm_jpeg *jpeg, int scale_eighths, int64_t max_pixels,
                   pm_image *out, char *message);

void pm_jpeg_close(pm_jpeg *jpeg);
