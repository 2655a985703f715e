// libFuzzer harness for the JPEG shim: pm_jpeg_open → declared-size check → pm_jpeg_decode at the
// DCT scale PMImaging would pick → resample + PNG encode (fuzz_common.h). Built by Scripts/fuzz.
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_jpeg_header header;
    pm_jpeg *jpeg = pm_jpeg_open(data, size, FUZZ_MAX_DECODER_MEMORY, &header, message);
    if (jpeg == NULL) {
        fuzz_check_message(message);
        return 0;
    }
    FUZZ_CHECK(header.width > 0 && header.height > 0);
    if (header.exif != NULL) {  // must point into the input's APP1 payload copy, fully readable
        FUZZ_CHECK(header.exif_length >= 6 && memcmp(header.exif, "Exif\0\0", 6) == 0);
        volatile uint8_t sink = 0;
        for (size_t i = 0; i < header.exif_length; i++) sink ^= header.exif[i];
        (void)sink;
    }
    // JPEGDecoding checks the declared size (DecodeLimits.check) before choosing a scale.
    if ((int64_t)header.width * header.height <= FUZZ_MAX_PIXELS) {
        pm_image image;
        const int eighths = fuzz_jpeg_scale_eighths(header.width, header.height);
        if (pm_jpeg_decode(jpeg, eighths, FUZZ_MAX_PIXELS, &image, message) == 0) {
            FUZZ_CHECK(image.channels == 3);
            FUZZ_CHECK(image.width == (int)(((int64_t)header.width * eighths + 7) / 8));
            FUZZ_CHECK(image.height == (int)(((int64_t)header.height * eighths + 7) / 8));
            char color_message[PM_MESSAGE_CAPACITY] = {0};
            if (pm_color_convert_to_srgb(&image, color_message) < 0) fuzz_check_message(color_message);
            fuzz_thumbnail(&image);
            pm_image_free(&image);
        } else {
            FUZZ_CHECK(image.data == NULL);
            fuzz_check_message(message);
        }
    }
    pm_jpeg_close(jpeg);
    return 0;
}
