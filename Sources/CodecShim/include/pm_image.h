#pragma once
#include <stddef.h>
#include <stdint.h>

/// Size of every caller-supplied error message buffer. libjpeg's own limit is JMSG_LENGTH_MAX (200).
#define PM_MESSAGE_CAPACITY 200

/// A decoded 8-bit image, rows packed without padding: RGB when `channels` is 3, RGBA with
/// straight (non-premultiplied) alpha when it is 4. `data` is malloc'd; release it with pm_image_free.
/// A decoder that finds an embedded ICC profile or an EXIF block its container carries (WebP
/// `ICCP`/`EXIF`, PNG `iCCP`/`eXIf`, HEIF `colr`) hands over a malloc'd copy in `icc` / `exif`,
/// freed with the image; both stay NULL otherwise. Without an ICC profile, a container's CICP
/// colour description (HEIF/AVIF `colr` of type `nclx`, ITU-T H.273 code points) is given in
/// `cicp_primaries` / `cicp_transfer`; 0 means none was given.
/// A decoder that made the image from a damaged file (rows lost, a checksum wrong) says so in
/// `warning`, a malloc'd sentence freed with the image; NULL when the file was whole.
typedef struct pm_image {
    uint8_t *data;
    int width;
    int height;
    int channels;
    uint8_t *icc;
    size_t icc_length;
    uint8_t *exif;
    size_t exif_length;
    int cicp_primaries;
    int cicp_transfer;
    char *warning;
} pm_image;

/// A growable byte buffer filled by an encoder; release it with pm_buffer_free.
typedef struct pm_buffer {
    uint8_t *data;
    size_t length;
    size_t capacity;
} pm_buffer;

void pm_image_free(pm_image *image);

/// Sets `image->warning` to the formatted text (at most PM_MESSAGE_CAPACITY bytes), unless it
/// already has one: the first damage found is the one reported. Out of memory leaves it NULL.
void pm_image_warn(pm_image *image, const char *format, ...) __attribute__((format(printf, 2, 3)));
void pm_buffer_free(pm_buffer *buffer);
