#pragma once
#include "pm_image.h"

/// Encodes packed 8-bit RGB (channels 3) or straight-alpha RGBA (channels 4) as a lossy WebP
/// (VP8, plus a lossless VP8L alpha plane for RGBA) into `out` (which must start zeroed; free it
/// with pm_buffer_free) through libwebp's WebPEncode. `quality` 0...100, `method` 0...6 (speed
/// against size; cwebp's default is 4). Returns 0, or -1 with `message` filled.
int pm_webp_encode(const uint8_t *pixels, int width, int height, int channels,
                   int quality, int method, pm_buffer *out, char *message);
