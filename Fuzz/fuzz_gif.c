// libFuzzer harness for the GIF shim: pm_gif_open → screen-size check (as GIFDecoding does) →
// pm_gif_decode → resample + PNG encode (fuzz_common.h). Built by Scripts/fuzz.
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    char message[PM_MESSAGE_CAPACITY];
    memset(message, 0, sizeof message);
    pm_gif_header header;
    pm_gif *gif = pm_gif_open(data, size, &header, message);
    if (gif == NULL) {
        fuzz_check_message(message);
        return 0;
    }
    FUZZ_CHECK(header.width >= 0 && header.height >= 0);
    if ((int64_t)header.width * header.height <= FUZZ_MAX_PIXELS) {
        pm_image image;
        if (pm_gif_decode(gif, FUZZ_MAX_PIXELS, &image, message) == 0) {
            // The canvas is the screen, grown to a first frame that reaches past it.
            FUZZ_CHECK(image.width >= header.width && image.height >= header.height);
            FUZZ_CHECK((image.icc == NULL) == (image.icc_length == 0));
            FUZZ_CHECK(image.icc_length <= ((size_t)4 << 20));
            if (image.channels == 4) {  // a transparent pixel is stored as all zero
                const size_t count = (size_t)image.width * (size_t)image.height;
                for (size_t i = 0; i < count; i++)
                    if (image.data[i * 4 + 3] == 0)
                        FUZZ_CHECK((image.data[i * 4] | image.data[i * 4 + 1] | image.data[i * 4 + 2]) == 0);
            }
            fuzz_thumbnail(&image);
            pm_image_free(&image);
        } else {
            FUZZ_CHECK(image.data == NULL && image.icc == NULL);
            fuzz_check_message(message);
        }
    }
    pm_gif_close(gif);
    return 0;
}
