// WebP encoding through libwebp's advanced API (WebPConfig + WebPPicture + WebPEncode), the path
// cwebp takes, into memory: never prints.
#include "webp_encode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/encode.h>

static const char *describe(WebPEncodingError code) {
    switch (code) {
    case VP8_ENC_ERROR_OUT_OF_MEMORY:
    case VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory";
    case VP8_ENC_ERROR_BAD_DIMENSION: return "bad picture dimension";
    case VP8_ENC_ERROR_PARTITION0_OVERFLOW:
    case VP8_ENC_ERROR_PARTITION_OVERFLOW: return "partition overflow";
    case VP8_ENC_ERROR_BAD_WRITE: return "write failed";
    case VP8_ENC_ERROR_FILE_TOO_BIG: return "file too big";
    case VP8_ENC_ERROR_USER_ABORT: return "aborted";
    default: return "encoder error";
    }
}

int pm_webp_encode(const uint8_t *pixels, int width, int height, int channels,
                   int quality, int method, pm_buffer *out, char *message) {
    if (pixels == NULL || width <= 0 || height <= 0 || (channels != 3 && channels != 4) ||
        quality < 0 || quality > 100 || method < 0 || method > 6) {
        snprintf(message, PM_MESSAGE_CAPACITY, "bad arguments");
        return -1;
    }
    WebPConfig config;
    if (!WebPConfigInit(&config)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "libwebp version mismatch");
        return -1;
    }
    config.quality = (float)quality;
    config.method = method;
    if (!WebPValidateConfig(&config)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "invalid encoder configuration");
        return -1;
    }
    WebPPicture picture;
    if (!WebPPictureInit(&picture)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "libwebp version mismatch");
        return -1;
    }
    picture.width = width;
    picture.height = height;
    WebPMemoryWriter writer;
    WebPMemoryWriterInit(&writer);
    picture.writer = WebPMemoryWrite;
    picture.custom_ptr = &writer;
    int stride = width * channels;
    int imported = channels == 4 ? WebPPictureImportRGBA(&picture, pixels, stride)
                                 : WebPPictureImportRGB(&picture, pixels, stride);
    int status = -1;
    if (!imported) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
    } else if (!WebPEncode(&config, &picture)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "%s", describe(picture.error_code));
    } else if ((out->data = malloc(writer.size ? writer.size : 1)) == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
    } else {
        // Copied so that pm_buffer_free (free) releases it, whatever allocator libwebp uses.
        memcpy(out->data, writer.mem, writer.size);
        out->length = out->capacity = writer.size;
        status = 0;
    }
    WebPPictureFree(&picture);
    WebPMemoryWriterClear(&writer);
    return status;
}
