#pragma once
#include "pm_image.h"

/// Encodes packed 8-bit RGB (3 channels; flatten any alpha first) as a baseline JPEG with 4:2:0
/// chroma and optimised Huffman tables into `out` (which must start zeroed; free it with
/// pm_buffer_free) through libjpeg(-turbo). `quality` 1...100 (libjpeg's scale). Returns 0, or
/// -1 with `message` filled.
int pm_jpeg_encode(const uint8_t *pixels, int width, int height, int quality, pm_buffer *out, char *message);
