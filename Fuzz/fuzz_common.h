// Shared by the C decode harnesses: the rest of the thumbnail path after a successful decode,
// mirroring what PMImaging does (ThumbnailGeometry.centreCrop → pm_resample_box → pm_png_encode
// with Paeth + Z_RLE), so the resampler and encoder see every image the fuzzer manages to decode.
#pragma once
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "codec_shim.h"

// PMImaging's DecodeLimits scaled down for the sanitizers: ASan and coverage on libjpeg without
// SIMD run about 17x slower than the release build, so work the limits allow at the defaults (100 MP,
// 1 GB; e.g. 16 progressive scans at 100 MP, about 1 s in release) would read as 10 s timeouts and
// 2 GB OOMs. At 16 MP and 64 MB the bounded worst case stays a few seconds, a timeout or OOM still
// means work the limits fail to bound, and the decoder-memory cap is reached by 4:4:4 progressive files.
#define FUZZ_MAX_PIXELS ((int64_t)16000000)
#define FUZZ_MAX_DECODER_MEMORY ((size_t)64 << 20)

// Two targets: the app's default square and a wide one, so both crop directions run.
static const int fuzz_targets[][2] = {{40, 40}, {96, 27}};

// ThumbnailGeometry.jpegScaleEighths: the smallest DCT scale at which every target still fits.
static inline int fuzz_jpeg_scale_eighths(int width, int height) {
    for (int eighths = 1; eighths <= 7; eighths++) {
        const int64_t w = ((int64_t)width * eighths + 7) / 8, h = ((int64_t)height * eighths + 7) / 8;
        int fits = 1;
        for (size_t t = 0; t < sizeof fuzz_targets / sizeof fuzz_targets[0]; t++)
            if (w < fuzz_targets[t][0] || h < fuzz_targets[t][1]) fits = 0;
        if (fits) return eighths;
    }
    return 8;
}

// Crash on a contract violation, so libFuzzer reports it with the input.
#define FUZZ_CHECK(condition) do { if (!(condition)) __builtin_trap(); } while (0)

// ThumbnailGeometry.centreCrop of a width x height image for a tw x th target: x, y, width, height.
static inline void fuzz_centre_crop(int width, int height, int tw, int th, double crop[4]) {
    const double w = width, h = height;
    crop[0] = 0, crop[1] = 0, crop[2] = w, crop[3] = h;
    if ((int64_t)width * th > (int64_t)height * tw) {
        crop[2] = h * tw / th;
        crop[0] = (w - crop[2]) / 2;
    } else {
        crop[3] = w * th / tw;
        crop[1] = (h - crop[3]) / 2;
    }
}
// Every decoded image must be what pm_image.h promises; then thumbnail it like the app does.
static inline void fuzz_thumbnail(const pm_image *image) {
    FUZZ_CHECK(image->data != NULL);
    // A damaged file's warning is a terminated, non-empty sentence.
    if (image->warning != NULL) {
        FUZZ_CHECK(memchr(image->warning, 0, PM_MESSAGE_CAPACITY) != NULL);
        FUZZ_CHECK(image->warning[0] != 0);
    }
    FUZZ_CHECK(image->width > 0 && image->height > 0);
    FUZZ_CHECK(image->channels == 3 || image->channels == 4);
    FUZZ_CHECK((int64_t)image->width * image->height <= FUZZ_MAX_PIXELS);
    for (size_t t = 0; t < sizeof fuzz_targets / sizeof fuzz_targets[0]; t++) {
        const int tw = fuzz_targets[t][0], th = fuzz_targets[t][1];
        double crop[4];
        fuzz_centre_crop(image->width, image->height, tw, th, crop);
        const double cx = crop[0], cy = crop[1], cw = crop[2], ch = crop[3];
        const size_t bytes = (size_t)tw * (size_t)th * (size_t)image->channels;
        uint8_t *tile = malloc(bytes);
        FUZZ_CHECK(tile != NULL);
        FUZZ_CHECK(pm_resample_box(image, cx, cy, cw, ch, tile, tw, th) == 0);
        char message[PM_MESSAGE_CAPACITY] = {0};
        pm_buffer png = {0};
        FUZZ_CHECK(pm_png_encode(tile, tw, th, image->channels, 1, pm_png_filter_paeth,
                                 pm_zlib_strategy_default, &png, message) == 0);
        FUZZ_CHECK(png.length > 8 && memcmp(png.data, "\x89PNG\r\n\x1a\n", 8) == 0);
        pm_buffer_free(&png);
        free(tile);
    }
}

// A failure must leave a terminated, non-empty message for the user.
static inline void fuzz_check_message(const char *message) {
    FUZZ_CHECK(memchr(message, 0, PM_MESSAGE_CAPACITY) != NULL);
    FUZZ_CHECK(message[0] != 0);
}
