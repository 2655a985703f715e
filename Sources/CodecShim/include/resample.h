#pragma once
#include "pm_image.h"

/// Area-averages the region (crop_x, crop_y, crop_width, crop_height) of `source` (fractional
/// source-pixel coordinates, inside the image) into `destination`, a packed buffer of
/// dst_width * dst_height * source->channels bytes. Each output pixel is the exact
/// area-weighted mean of the source pixels under it, so this also upscales (as a box).
/// RGBA is averaged premultiplied, so fully transparent pixels lend no colour.
/// Returns 0, or -1 on bad arguments or allocation failure.
int pm_resample_box(const pm_image *source,
                    double crop_x, double crop_y, double crop_width, double crop_height,
                    uint8_t *destination, int dst_width, int dst_height);
