// YCgCo-R and monochrome samples to 8-bit RGB(A). See heif_planar.h. Ours because libheif 1.15
// has neither conversion right; it still decodes, crops and rotates the planes.
#include "heif_planar.h"

static unsigned sample(pm_plane plane, int x, int y) {
    const uint8_t *row = plane.data + plane.stride * (size_t)y;
    if (plane.depth <= 8) return row[x];
    return ((const uint16_t *)(const void *)row)[x];
}

// `value` of `bits` bits (0...max) as 8 bits, rounded.
static uint8_t to_8bit(unsigned value, int bits) {
    const unsigned max = (1u << bits) - 1;
    if (value >= max) return 255;
    return (uint8_t)((value * 255u + max / 2) / max);
}

void pm_monochrome_to_rgb8(pm_plane luma, const pm_plane *alpha, int full_range, int width, int height,
                           uint8_t *out) {
    const int channels = alpha != NULL ? 4 : 3;
    const int shift = luma.depth - 8;
    // H.273: Y = (219 * E + 16) * 2^(depth - 8) for limited range; E = 0...1 is what is shown.
    const double black = full_range ? 0 : (double)(16 << shift);
    const double span = full_range ? (double)((1u << luma.depth) - 1) : (double)(219 << shift);
    for (int y = 0; y < height; y++) {
        uint8_t *target = out + (size_t)y * (size_t)width * (size_t)channels;
        for (int x = 0; x < width; x++, target += channels) {
            const double level = ((double)sample(luma, x, y) - black) * 255.0 / span;
            const uint8_t grey = level <= 0 ? 0 : level >= 255 ? 255 : (uint8_t)(level + 0.5);
            target[0] = target[1] = target[2] = grey;
            if (alpha != NULL) target[3] = to_8bit(sample(*alpha, x, y), alpha->depth);
        }
    }
}

static int clamp(int value, int max) { return value < 0 ? 0 : value > max ? max : value; }

void pm_ycgco_r_to_rgb8(const uint8_t *interleaved, size_t stride, int depth, int matrix, int alpha,
                        int width, int height, uint8_t *out) {
    const int in_channels = alpha ? 4 : 3, channels = alpha ? 4 : 3;
    const int rgb_depth = depth - (matrix == 16 ? 2 : 1);
    const int rgb_max = (1 << rgb_depth) - 1, middle = 1 << (depth - 1);
    for (int y = 0; y < height; y++) {
        const uint8_t *row = interleaved + stride * (size_t)y;
        uint8_t *target = out + (size_t)y * (size_t)width * (size_t)channels;
        for (int x = 0; x < width; x++, target += channels) {
            const uint8_t *p = row + (size_t)x * (size_t)in_channels * 2;
            const int co = (p[0] | p[1] << 8) - middle, luma = p[2] | p[3] << 8, cg = (p[4] | p[5] << 8) - middle;
            // H.273 (2024) equations 62-65; >> of a negative value is an arithmetic shift here, as
            // the standard's ">>" is. R comes from the clamped B, as libavif (Pillow's, browsers')
            // computes it: it differs only where lossy coding left a value out of range.
            const int t = luma - (cg >> 1);
            const int g = clamp(t + cg, rgb_max), b = clamp(t - (co >> 1), rgb_max), r = clamp(b + co, rgb_max);
            target[0] = to_8bit((unsigned)r, rgb_depth);
            target[1] = to_8bit((unsigned)g, rgb_depth);
            target[2] = to_8bit((unsigned)b, rgb_depth);
            if (alpha) target[3] = to_8bit((unsigned)(p[6] | p[7] << 8), depth);
        }
    }
}
