#pragma once
#include "pm_image.h"

// Colour management through LittleCMS: decoded pixels are turned into sRGB before resampling.
// Nothing here prints (LittleCMS's error handlers are silenced) and every call is thread-safe.
// Transforms are built once per distinct profile (keyed by its bytes, or by the CICP code points) and kept for the life of the process, up to PM_COLOR_CACHED_TRANSFORMS of them.

#define PM_COLOR_CACHED_TRANSFORMS 32

/// Converts `image` (8-bit RGB or RGBA; alpha is left untouched) in place to sRGB from its
/// `icc` profile, or else from its `cicp_primaries`/`cicp_transfer`. Untagged images, sRGB
/// profiles and sRGB CICP return at once without calling LittleCMS.
/// Returns 1 when the pixels were converted, 0 when they were left as they are because they are
/// sRGB already or the description is one this cannot convert (PQ, HLG, unknown code points,
/// a profile for another colour space), and -1 with `message` filled when the profile is broken;
/// the pixels are then untouched too.
int pm_color_convert_to_srgb(pm_image *image, char *message);

/// For converting an image row by row as it is decoded: the transform pm_color_convert_to_srgb
/// would apply to an image of `description`'s size, channels, `icc` and `cicp_*` (its `data` is
/// not read). `grey` says whether every pixel has equal red, green and blue, which a grey profile
/// needs (pm_color_convert_to_srgb checks the pixels for it). Returns 1 with *transform set, for
/// pm_color_convert_row and then pm_color_transform_release; 0 and -1 as pm_color_convert_to_srgb.
typedef struct pm_color_transform pm_color_transform;
int pm_color_srgb_row_transform(const pm_image *description, int grey, pm_color_transform **transform,
                                char *message);

/// Converts `width` pixels of a row in place, as pm_color_convert_to_srgb converts each row.
void pm_color_convert_row(pm_color_transform *transform, uint8_t *row, int width);

/// True when the profile is (a variant of) sRGB IEC 61966-2.1, judged from its header and tag
/// table only: its description names sRGB and its colorants are sRGB's, or its profile ID is
/// that of a known sRGB profile. Never calls LittleCMS.
int pm_color_profile_is_srgb(const uint8_t *icc, size_t length);

/// An RGB profile for a PNG's `gAMA` (the file gamma, e.g. 0.45455) and optional `cHRM`
/// (white x, y, then red, green, blue x, y; NULL means sRGB's primaries), as a malloc'd ICC
/// profile in *icc. Returns 0, or -1 when the values are out of range or LittleCMS fails.
int pm_color_profile_from_gamma(double file_gamma, const double *chromaticities,
                                uint8_t **icc, size_t *length);

/// A CMYK to sRGB transform for libjpeg's CMYK output. Adobe writers store CMYK inverted
/// (255 = no ink): `inverted` says so. `icc` is the file's embedded profile, or NULL; without
/// one (or when it is not a usable CMYK profile) the built-in CMYK profile is used, which is
/// Ghostscript's default_cmyk.icc read from its Debian install path (package libgs-common).
/// Returns NULL when neither can be had; the caller then converts naively.
pm_color_transform *pm_color_cmyk_transform(const uint8_t *icc, size_t length, int inverted);

/// Converts `count` CMYK pixels (4 bytes each) into packed RGB (3 bytes each).
void pm_color_transform_cmyk_row(pm_color_transform *transform, const uint8_t *cmyk, uint8_t *rgb, int count);

/// Ends the use of a transform from pm_color_cmyk_transform (cached ones stay alive).
void pm_color_transform_release(pm_color_transform *transform);

/// Where the built-in CMYK profile is read from.
extern const char *const pm_color_builtin_cmyk_path;
