// libFuzzer harness for the HEIF/AVIF shim: pm_heif_open (libheif's side limit while the boxes are
// read) → the declared-size checks HEIFDecoding makes → pm_heif_decode → resample + PNG encode
// (fuzz_common.h). Built by Scripts/fuzz against Debian's libheif, libde265 and dav1d.
#include "fuzz_common.h"

// libheif, libde265 and dav1d are not instrumented but still run under ASan's allocator, and
// every image is decoded whole (no scaled decode): a quarter of FUZZ_MAX_PIXELS keeps the largest
// accepted image well inside the timeout.
#define FUZZ_HEIF_MAX_PIXELS (FUZZ_MAX_PIXELS / 4)

static int within(int width, int height) {
    return width >= 0 && height >= 0 && (int64_t)width * height <= FUZZ_HEIF_MAX_PIXELS;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_heif_header header;
    // Both codec names in turn, so both missing-plugin messages stay reachable.
    const char *codec = size % 2 ? "AV1" : "HEVC";
    pm_heif *heif = pm_heif_open(data, size, FUZZ_HEIF_MAX_PIXELS, codec, &header, message);
    if (heif == NULL) {
        fuzz_check_message(message);
        return 0;
    }
    FUZZ_CHECK(header.width > 0 && header.height > 0);
    // HEIFDecoding's DecodeLimits.check of the displayed, stored and canvas sizes; pm_heif_decode
    // must refuse on its own what the Swift side would have refused, so it runs either way.
    const int accepted = within(header.width, header.height) &&
                         within(header.stored_width, header.stored_height) &&
                         within(header.canvas_width, header.canvas_height);
    pm_image image;
    if (pm_heif_decode(heif, FUZZ_HEIF_MAX_PIXELS, &image, message) == 0) {
        FUZZ_CHECK(accepted);
        FUZZ_CHECK(image.channels == (header.has_alpha ? 4 : 3));
        FUZZ_CHECK((int64_t)image.width * image.height <= FUZZ_HEIF_MAX_PIXELS);
        FUZZ_CHECK(image.icc == NULL || image.icc_length > 0);
        if (image.icc != NULL) {
            volatile uint8_t sink = 0;
            for (size_t i = 0; i < image.icc_length; i++) sink ^= image.icc[i];
            (void)sink;
        }
        fuzz_thumbnail(&image);
        pm_image_free(&image);
    } else {
        FUZZ_CHECK(image.data == NULL && image.icc == NULL);
        fuzz_check_message(message);
    }
    pm_heif_close(heif);
    return 0;
}
