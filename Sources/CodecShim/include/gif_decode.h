#pragma once
#include "pm_image.h"

/// An open GIF decoder: signature, logical screen descriptor and global colour map read, no
/// pixel memory yet.
typedef struct pm_gif pm_gif;

typedef struct pm_gif_header {
    int width;    ///< logical screen, as declared
    int height;
} pm_gif_header;

/// Returns NULL and fills `message` (giflib's error text) on failure.
pm_gif *pm_gif_open(const uint8_t *data, size_t length, pm_gif_header *header, char *message);

/// Decodes the first frame composited on the logical screen, as a browser shows a GIF before it
/// animates: the frame at its offset, pixels of its Graphic Control Extension's transparency
/// index and the screen area it leaves uncovered transparent. A first frame reaching past the
/// screen grows the canvas to cover it (as Pillow does) rather than losing rows. Records after
/// the first image are never read, so the frame count costs nothing. A file that ends or breaks
/// inside the image keeps the rows decoded before it (the rest transparent, `out->warning` says
/// so) when there is at least one. Image data with an LZW minimum code size over 8, which giflib
/// refuses, is read as browsers read it (gif_lzw.h). RGBA when anything is transparent, else RGB.
/// The canvas is checked against `max_pixels` before it is allocated. Returns 0, or -1 with
/// `message` filled.
int pm_gif_decode(pm_gif *gif, int64_t max_pixels, pm_image *out, char *message);

void pm_gif_close(pm_gif *gif);
