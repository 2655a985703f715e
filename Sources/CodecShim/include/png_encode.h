#pragma once
#include "pm_image.h"

/// Encodes packed 8-bit RGB (channels 3) or RGBA (channels 4) as a non-interlaced PNG into `out`
/// (which must start zeroed; free it with pm_buffer_free). `filters` is a PNG_FILTER_* mask. A
/// mask naming one filter is written by the shim itself around one libdeflate stream (one IDAT
/// chunk), `level` being libdeflate's (0...12) and `zlib_strategy` unused; a mask of several
/// (PNG_ALL_FILTERS = adaptive) goes through libpng, `level` being zlib's (0...9) and
/// `zlib_strategy` a Z_* strategy. Returns 0, or -1 with `message` filled.
int pm_png_encode(const uint8_t *pixels, int width, int height, int channels,
                  int level, int filters, int zlib_strategy, pm_buffer *out, char *message);

/// libpng's filter masks and zlib's strategies, re-exported because Swift cannot import
/// function-like macros and the constants would otherwise be magic numbers.
extern const int pm_png_filter_none;
extern const int pm_png_filter_sub;
extern const int pm_png_filter_up;
extern const int pm_png_filter_paeth;
extern const int pm_png_filter_all;
extern const int pm_zlib_strategy_default;
