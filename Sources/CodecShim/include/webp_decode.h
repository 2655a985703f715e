#pragma once
#include "pm_image.h"

/// An open WebP decoder: RIFF chunks indexed (WebPDemux), the first frame's bitstream header
/// read, no pixel memory yet. It borrows the input bytes, which must outlive it.
typedef struct pm_webp pm_webp;

typedef struct pm_webp_header {
    int width;            ///< the canvas: the image, or an animation's whole frame area
    int height;
    int has_alpha;        ///< the file declares transparency (VP8X flag, ALPH chunk or VP8L header)
    int animated;
    int frame_count;
    int lossless;         ///< the first frame is VP8L
    /// True when the first frame leaves part of the canvas uncovered (an animation whose first
    /// frame is smaller or offset): it then decodes at full canvas size, unscaled, as RGBA.
    int partial_first_frame;
    const uint8_t *exif;  ///< the EXIF chunk's payload inside the input, or NULL
    size_t exif_length;
} pm_webp_header;

/// Returns NULL and fills `message` on failure: not WebP, a corrupt or truncated container, or
/// a bitstream header libwebp rejects.
pm_webp *pm_webp_open(const uint8_t *data, size_t length, pm_webp_header *header, char *message);

/// Decodes the first frame, composited on the canvas as an animation first shows it, to 8-bit
/// RGB, or RGBA (straight alpha) when the file has alpha. `scaled_width` × `scaled_height`, when
/// positive and smaller than the image, is the output size (libwebp's rescaler), except for a
/// frame with alpha, which libwebp does not rescale by alpha exactly: it comes at full size. Copies the ICCP
/// and EXIF chunks into `out`. Returns 0, or -1 with `message` filled and `out` empty.
int pm_webp_decode(pm_webp *webp, int scaled_width, int scaled_height, int64_t max_pixels,
                   pm_image *out, char *message);

void pm_webp_close(pm_webp *webp);
