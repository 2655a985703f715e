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

/// The same area average, fed the source rows one at a time as a decoder produces them, so the
/// whole image never has to be in memory: it keeps a few rows of sums, not the image.
/// pm_resample_box is this filter fed from a decoded image, so both give the same bytes.
typedef struct pm_box_filter pm_box_filter;

/// A filter of a source_width x source_height image of `channels` (3 or 4) 8-bit samples that
/// writes its average of the crop into `destination` (dst_width * dst_height * channels bytes).
/// NULL on bad arguments or allocation failure.
pm_box_filter *pm_box_filter_new(int source_width, int source_height, int channels,
                                 double crop_x, double crop_y, double crop_width, double crop_height,
                                 uint8_t *destination, int dst_width, int dst_height);

/// Adds source row `y` (source_width * channels bytes). Rows must come in ascending order; rows
/// the crop does not reach are ignored. Once every row has been added, `destination` is complete.
void pm_box_filter_add_row(pm_box_filter *filter, int y, const uint8_t *row);

void pm_box_filter_free(pm_box_filter *filter);
