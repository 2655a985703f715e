// AVIF encoding through libheif's AV1 encoder (libaom in Debian's libheif1), into memory: never
// prints. libheif is the table heif_library.c loads on first use.
#include "heif_encode.h"
#include "heif_library.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEIF (pm_heif_library_get())

static int failed(struct heif_error error, const char *doing, char *message) {
    snprintf(message, PM_MESSAGE_CAPACITY, "%s: %s", doing,
             error.message != NULL && error.message[0] ? error.message : "unknown libheif error");
    // Some of libheif's messages end in a newline.
    for (size_t n = strlen(message); n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' '); n--)
        message[n - 1] = 0;
    return -1;
}

static struct heif_error append(struct heif_context *context, const void *data, size_t size, void *userdata) {
    (void)context;
    pm_buffer *out = userdata;
    struct heif_error ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};
    uint8_t *grown = realloc(out->data, out->length + size);
    if (grown == NULL) {
        struct heif_error error = {heif_error_Memory_allocation_error, heif_suberror_Unspecified, "out of memory"};
        return error;
    }
    memcpy(grown + out->length, data, size);
    out->data = grown;
    out->length += size;
    out->capacity = out->length;
    return ok;
}

static int copy_pixels(struct heif_image *image, const uint8_t *pixels, int width, int height, int channels,
                       char *message) {
    struct heif_error error = HEIF->image_add_plane(image, heif_channel_interleaved, width, height, 8);
    if (error.code != heif_error_Ok) return failed(error, "image plane", message);
    int stride = 0;
    uint8_t *plane = HEIF->image_get_plane(image, heif_channel_interleaved, &stride);
    if (plane == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "image plane: none");
        return -1;
    }
    size_t row = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++) memcpy(plane + (size_t)y * (size_t)stride, pixels + row * (size_t)y, row);
    return 0;
}

int pm_avif_encode(const uint8_t *pixels, int width, int height, int channels,
                   int quality, int speed, pm_buffer *out, char *message) {
    if (pixels == NULL || width <= 0 || height <= 0 || (channels != 3 && channels != 4) ||
        quality < 0 || quality > 100 || speed < 0 || speed > 9) {
        snprintf(message, PM_MESSAGE_CAPACITY, "bad arguments");
        return -1;
    }
    if (pm_heif_library_load(message) == NULL) return -1;
    struct heif_context *context = HEIF->context_alloc();
    if (context == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    int status = -1;
    struct heif_encoder *encoder = NULL;
    struct heif_image *image = NULL;
    struct heif_image_handle *handle = NULL;
    struct heif_error error = HEIF->context_get_encoder_for_format(context, heif_compression_AV1, &encoder);
    if (error.code != heif_error_Ok || encoder == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "no AV1 encoder in this libheif (libheif1 built without libaom)");
        goto done;
    }
    error = HEIF->encoder_set_lossy_quality(encoder, quality);
    if (error.code != heif_error_Ok) { failed(error, "quality", message); goto done; }
    error = HEIF->encoder_set_parameter_integer(encoder, "speed", speed);
    if (error.code != heif_error_Ok) { failed(error, "speed", message); goto done; }
    error = HEIF->image_create(width, height, heif_colorspace_RGB,
                               channels == 4 ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB, &image);
    if (error.code != heif_error_Ok) { failed(error, "image", message); goto done; }
    if (copy_pixels(image, pixels, width, height, channels, message) != 0) goto done;
    error = HEIF->context_encode_image(context, image, encoder, NULL, &handle);
    if (error.code != heif_error_Ok) { failed(error, "AV1 encode", message); goto done; }
    struct heif_writer writer = {.writer_api_version = 1, .write = append};
    error = HEIF->context_write(context, &writer, out);
    if (error.code != heif_error_Ok) { failed(error, "write", message); pm_buffer_free(out); goto done; }
    status = 0;
done:
    if (handle != NULL) HEIF->image_handle_release(handle);
    if (image != NULL) HEIF->image_release(image);
    if (encoder != NULL) HEIF->encoder_release(encoder);
    HEIF->context_free(context);
    return status;
}
