// libFuzzer harness for the WebP shim: pm_webp_open (container and bitstream headers) →
// declared-size check → pm_webp_decode at the covering size → resample + PNG encode
// (fuzz_common.h). Built by Scripts/fuzz, against Debian's uninstrumented libwebp.
#include "fuzz_common.h"

// ThumbnailGeometry.coveringSize: the largest target-to-image side ratio, as a fraction, applied
// to both sides and rounded up; full size when that is not a reduction.
static void fuzz_covering_size(int width, int height, int *scaled_width, int *scaled_height) {
    int64_t numerator = 0, denominator = 1;
    for (size_t t = 0; t < sizeof fuzz_targets / sizeof fuzz_targets[0]; t++) {
        const int64_t tw = fuzz_targets[t][0], th = fuzz_targets[t][1];
        if (tw * denominator > numerator * width) { numerator = tw; denominator = width; }
        if (th * denominator > numerator * height) { numerator = th; denominator = height; }
    }
    *scaled_width = width;
    *scaled_height = height;
    if (numerator > 0 && numerator < denominator) {
        *scaled_width = (int)((width * numerator + denominator - 1) / denominator);
        *scaled_height = (int)((height * numerator + denominator - 1) / denominator);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_webp_header header;
    pm_webp *webp = pm_webp_open(data, size, &header, message);
    if (webp == NULL) {
        fuzz_check_message(message);
        return 0;
    }
    FUZZ_CHECK(header.width > 0 && header.height > 0);
    FUZZ_CHECK(header.frame_count >= 1);
    FUZZ_CHECK(header.exif == NULL || (header.exif >= data && header.exif + header.exif_length <= data + size));
    if ((int64_t)header.width * header.height <= FUZZ_MAX_PIXELS) {
        int scaled_width, scaled_height;
        fuzz_covering_size(header.width, header.height, &scaled_width, &scaled_height);
        pm_image image;
        if (pm_webp_decode(webp, scaled_width, scaled_height, FUZZ_MAX_PIXELS, &image, message) == 0) {
            // A partly covering first frame, and a frame with alpha, come at full size (webp_decode.h).
            if (header.partial_first_frame || header.has_alpha) {
                FUZZ_CHECK(image.width == header.width && image.height == header.height);
            } else {
                FUZZ_CHECK(image.width == scaled_width && image.height == scaled_height);
            }
            FUZZ_CHECK(image.channels == (header.has_alpha ? 4 : 3));
            FUZZ_CHECK((image.icc == NULL) == (image.icc_length == 0));
            FUZZ_CHECK((image.exif == NULL) == (image.exif_length == 0));
            fuzz_thumbnail(&image);
            pm_image_free(&image);
        } else {
            FUZZ_CHECK(image.data == NULL && image.icc == NULL && image.exif == NULL);
            fuzz_check_message(message);
        }
    }
    pm_webp_close(webp);
    return 0;
}
