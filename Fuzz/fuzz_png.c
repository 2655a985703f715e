// libFuzzer harness for the PNG shim: pm_png_open (side limit in libpng) → declared-size check →
// pm_png_decode → colour conversion → resample + PNG encode (fuzz_common.h); and, for a PNG the
// app scales row by row, pm_png_decode_scaled, which must fail when the whole decode fails, hand a
// file that breaks after some rows back to the whole decode (-2: that one then kept them), and
// otherwise give the whole image's thumbnails and warning byte for byte. Built by Scripts/fuzz.
#include "fuzz_common.h"

#define FUZZ_TARGETS ((int)(sizeof fuzz_targets / sizeof fuzz_targets[0]))

// `whole` is the converted whole-image decode, or NULL when that decode failed.
static void check_scaled_decode(const uint8_t *data, size_t size, int max_side, const pm_image *whole) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_png_header header;
    pm_png *png = pm_png_open(data, size, max_side, &header, message);
    FUZZ_CHECK(png != NULL);  // it opened a moment ago
    if (!header.scalable) {
        pm_png_close(png);
        return;
    }
    pm_png_target targets[FUZZ_TARGETS];
    for (int t = 0; t < FUZZ_TARGETS; t++) {
        double crop[4];
        fuzz_centre_crop(header.width, header.height, fuzz_targets[t][0], fuzz_targets[t][1], crop);
        targets[t] = (pm_png_target){crop[0], crop[1], crop[2], crop[3], fuzz_targets[t][0], fuzz_targets[t][1],
                                     malloc((size_t)fuzz_targets[t][0] * (size_t)fuzz_targets[t][1] * 4)};
        FUZZ_CHECK(targets[t].pixels != NULL);
    }
    int channels = 0;
    char warning[PM_MESSAGE_CAPACITY];
    memset(warning, 0xAA, sizeof warning);
    const int status = pm_png_decode_scaled(png, FUZZ_MAX_PIXELS, targets, FUZZ_TARGETS, &channels, warning, message);
    if (whole == NULL) {
        FUZZ_CHECK(status == -1);
        fuzz_check_message(message);
    } else if (status == -2) {
        FUZZ_CHECK(whole->warning != NULL);
        fuzz_check_message(message);
    } else {
        FUZZ_CHECK(status == 0 && channels == whole->channels);
        FUZZ_CHECK(memchr(warning, 0, sizeof warning) != NULL);
        FUZZ_CHECK((warning[0] != 0) == (whole->warning != NULL));
        if (whole->warning != NULL) FUZZ_CHECK(strcmp(warning, whole->warning) == 0);
        for (int t = 0; t < FUZZ_TARGETS; t++) {
            const pm_png_target *target = &targets[t];
            const size_t bytes = (size_t)target->width * (size_t)target->height * (size_t)channels;
            uint8_t *expected = malloc(bytes);
            FUZZ_CHECK(expected != NULL);
            FUZZ_CHECK(pm_resample_box(whole, target->crop_x, target->crop_y, target->crop_width,
                                       target->crop_height, expected, target->width, target->height) == 0);
            FUZZ_CHECK(memcmp(expected, target->pixels, bytes) == 0);
            free(expected);
        }
    }
    for (int t = 0; t < FUZZ_TARGETS; t++) free(targets[t].pixels);
    pm_png_close(png);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_png_header header;
    // PNGDecoding passes Int32(clamping: maxPixels) as the side limit.
    const int max_side = FUZZ_MAX_PIXELS > INT32_MAX ? INT32_MAX : (int)FUZZ_MAX_PIXELS;
    pm_png *png = pm_png_open(data, size, max_side, &header, message);
    if (png == NULL) {
        fuzz_check_message(message);
        return 0;
    }
    FUZZ_CHECK(header.width > 0 && header.height > 0);
    if ((int64_t)header.width * header.height <= FUZZ_MAX_PIXELS) {
        pm_image image;
        if (pm_png_decode(png, FUZZ_MAX_PIXELS, &image, message) == 0) {
            FUZZ_CHECK(image.width == header.width && image.height == header.height);
            const int has_alpha = header.color_type == 4 || header.color_type == 6;
            if (has_alpha) FUZZ_CHECK(image.channels == 4);
            // Rows lost to damage leave the rest transparent: RGBA, with a warning.
            FUZZ_CHECK(image.channels == header.channels || (image.warning != NULL && image.channels == 4));
            char color_message[PM_MESSAGE_CAPACITY] = {0};
            if (pm_color_convert_to_srgb(&image, color_message) < 0) fuzz_check_message(color_message);
            fuzz_thumbnail(&image);
            check_scaled_decode(data, size, max_side, &image);
            pm_image_free(&image);
        } else {
            FUZZ_CHECK(image.data == NULL);
            fuzz_check_message(message);
            check_scaled_decode(data, size, max_side, NULL);
        }
    }
    pm_png_close(png);
    return 0;
}
