#pragma once
#include "pm_image.h"

/// Encodes packed 8-bit RGB (channels 3) or straight-alpha RGBA (channels 4) as an AVIF (one AV1
/// still image, 4:2:0, with an alpha auxiliary image for RGBA) into `out` (which must start
/// zeroed; free it with pm_buffer_free) through libheif's AV1 encoder, loaded with libheif on
/// first use. `quality` 0...100 (libheif's lossy quality), `speed` the AV1 encoder's 0...9
/// (faster, larger files up the scale). Returns 0, or -1 with `message` filled (libheif missing,
/// no AV1 encoder in it, an encoder error).
int pm_avif_encode(const uint8_t *pixels, int width, int height, int channels,
                   int quality, int speed, pm_buffer *out, char *message);
