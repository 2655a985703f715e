#pragma once
#include "pm_image.h"

/// An open PNG decoder: signature and chunks up to the first IDAT read, no pixel memory yet.
typedef struct pm_png pm_png;

typedef struct pm_png_header {
    int width;
    int height;
    int bit_depth;
    int color_type;   ///< PNG colour type: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA
    int interlaced;
    int channels;     ///< of the decoded pixels: 4 with an alpha channel or tRNS, else 3
    int scalable;     ///< rows can be scaled as they are decoded (pm_png_decode_scaled): not
                      ///< interlaced, and no grey iCCP profile on colour pixels
    const uint8_t *exif;   ///< eXIf chunk data (a TIFF structure, no "Exif\0\0"), or NULL; valid until pm_png_close
    size_t exif_length;
    const uint8_t *xmp;    ///< XMP packet from an iTXt "XML:com.adobe.xmp" chunk, or NULL; valid until pm_png_close
    size_t xmp_length;
} pm_png_header;


/// Returns NULL and fills `message` on failure. Dimensions over `max_side` fail inside libpng
/// (png_set_user_limits) before any row memory exists.
pm_png *pm_png_open(const uint8_t *data, size_t length, int max_side,
                    pm_png_header *header, char *message);

/// Decodes every colour type to 8-bit RGB, or RGBA when the file has alpha or tRNS. Reads through
/// IEND. A damaged file decodes as browsers show it, with `out->warning` saying what was wrong:
/// an IDAT chunk's wrong CRC is ignored (its data used); a file that ends or breaks after some
/// rows keeps them and becomes RGBA, the rest transparent (of an interlaced image, the rows the
/// last pass reached); one that breaks before any row fails. The colour description goes into `out` for the
/// colour stage, by the PNG precedence cICP > iCCP > sRGB > gAMA/cHRM: `cicp_*`, the iCCP
/// profile, nothing for sRGB (or a gAMA of 1/2.2 with sRGB's primaries), or a profile built from
/// gAMA and cHRM. The eXIf chunk is copied into `out->exif`. Returns 0, or -1 with `message` filled.
int pm_png_decode(pm_png *png, int64_t max_pixels, pm_image *out, char *message);

/// One output of pm_png_decode_scaled: the region of the stored image (fractional pixel
/// coordinates) to area-average into `pixels`, width * height * 4 bytes (the first
/// width * height * channels of them are written).
typedef struct pm_png_target {
    double crop_x, crop_y, crop_width, crop_height;
    int width, height;
    uint8_t *pixels;
} pm_png_target;

/// What pm_png_decode and then pm_color_convert_to_srgb and pm_resample_box of each target give,
/// byte for byte, without the whole image in memory: each row is decoded, converted to sRGB
/// and added into every target's area average before the next is read, so memory is the
/// targets, a row and a few rows of sums. Needs `header.scalable`. Sets *channels (3 or 4) and
/// `warning` (PM_MESSAGE_CAPACITY bytes, empty for a whole file) and returns 0; -1 with `message`
/// filled when nothing decodes; -2 when the file breaks after some rows, whose image only
/// pm_png_decode makes (it needs room for alpha): the caller opens the file again for that.
int pm_png_decode_scaled(pm_png *png, int64_t max_pixels, pm_png_target *targets, int count,
                         int *channels, char *warning, char *message);

void pm_png_close(pm_png *png);
