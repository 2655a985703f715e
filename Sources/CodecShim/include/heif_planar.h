#pragma once
// The two conversions to 8-bit RGB(A) that libheif 1.15 gets wrong, done on the samples it
// decodes, for the HEIF shim (heif_decode.c); public for tests: no libheif types here.
#include <stddef.h>
#include <stdint.h>

/// The samples of one decoded plane: `depth` bits each, one byte each when depth is 8, else two
/// (host order, as libheif stores them), `stride` bytes from row to row.
typedef struct pm_plane {
    const uint8_t *data;
    size_t stride;
    int depth;
} pm_plane;

/// Grey luma to 8-bit RGB (RGBA with `alpha`, which may be NULL): a limited-range luma (16-235
/// at 8 bits, scaled for more) is stretched to full range, as H.273 and libavif read it; libheif
/// 1.15 copies it unchanged (greys 8/255 off). `out` holds width * height * (3 or 4) bytes.
void pm_monochrome_to_rgb8(pm_plane luma, const pm_plane *alpha, int full_range, int width, int height,
                           uint8_t *out);

/// YCgCo-R (H.273 matrix 16, YCgCo-Re, or 17, YCgCo-Ro) to 8-bit RGB(A). libheif 1.15 knows neither
/// matrix; it is told identity instead (heif_decode.c rewrites the colr box), so its RGB output at
/// `depth` bits holds the planes unchanged: G = Y, B = Cg, R = Co. `interleaved` is that output,
/// libheif's RRGGBB(AA) little-endian rows. The inverse lifting is H.273's, in integers (so it is
/// exact): RGB comes out with 2 (Re) or 1 (Ro) bits fewer than the planes, then scaled to 8 bits.
/// `out` holds width * height * (alpha ? 4 : 3) bytes.
void pm_ycgco_r_to_rgb8(const uint8_t *interleaved, size_t stride, int depth, int matrix, int alpha,
                        int width, int height, uint8_t *out);
