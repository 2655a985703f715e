// libFuzzer harness for the PNG shim: pm_png_open (side limit in libpng) → declared-size check →
// pm_png_decode → resample + PNG encode (fuzz_common.h). Built by Scripts/fuzz.
#include "fuzz_common.h"

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
            char color_message[PM_MESSAGE_CAPACITY] = {0};
            if (pm_color_convert_to_srgb(&image, color_message) < 0) fuzz_check_message(color_message);
            fuzz_thumbnail(&image);
            pm_image_free(&image);
        } else {
            FUZZ_CHECK(image.data == NULL);
            fuzz_check_message(message);
        }
    }
    pm_png_close(png);
    return 0;
}
