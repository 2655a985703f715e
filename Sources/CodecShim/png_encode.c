// PNG encoding into a memory buffer with setjmp recovery: never prints, never aborts.
#include "png_encode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>
#include <zlib.h>

const int pm_png_filter_none = PNG_FILTER_NONE;
const int pm_png_filter_sub = PNG_FILTER_SUB;
const int pm_png_filter_up = PNG_FILTER_UP;
const int pm_png_filter_paeth = PNG_FILTER_PAETH;
const int pm_png_filter_all = PNG_ALL_FILTERS;
const int pm_zlib_strategy_default = Z_DEFAULT_STRATEGY;
const int pm_zlib_strategy_rle = Z_RLE;
const int pm_zlib_strategy_huffman_only = Z_HUFFMAN_ONLY;

typedef struct encoder_context {
    jmp_buf escape;
    char *message;
    pm_buffer *out;
} encoder_context;

static void on_error(png_structp png, png_const_charp text) {
    encoder_context *context = png_get_error_ptr(png);
    snprintf(context->message, PM_MESSAGE_CAPACITY, "%s", text);
    longjmp(context->escape, 1);
}

static void on_warning(png_structp png, png_const_charp text) { (void)png; (void)text; }

static void append(png_structp png, png_bytep bytes, size_t count) {
    pm_buffer *out = ((encoder_context *)png_get_io_ptr(png))->out;
    if (count > out->capacity - out->length) {
        size_t capacity = out->capacity ? out->capacity : 1024;
        while (capacity - out->length < count) capacity *= 2;
        uint8_t *grown = realloc(out->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->length, bytes, count);
    out->length += count;
}

static void flush_nothing(png_structp png) { (void)png; }

int pm_png_encode(const uint8_t *pixels, int width, int height, int channels,
                  int zlib_level, int filters, int zlib_strategy, pm_buffer *out, char *message) {
    encoder_context context = {.message = message, .out = out};
    png_structp png = NULL;
    png_infop info = NULL;
    if (channels != 3 && channels != 4) {
        snprintf(message, PM_MESSAGE_CAPACITY, "cannot encode %d channels", channels);
        return -1;
    }
    // Armed before creation: libpng may already call on_error while building its structs.
    // The handles are assigned after setjmp and read on the error path, so they need volatile copies.
    png_structp volatile png_for_cleanup = NULL;
    png_infop volatile info_for_cleanup = NULL;
    if (setjmp(context.escape)) {
        png = png_for_cleanup;
        info = info_for_cleanup;
        png_destroy_write_struct(&png, &info);
        pm_buffer_free(out);
        return -1;
    }
    png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    png_for_cleanup = png;
    if (png != NULL) info = png_create_info_struct(png);
    info_for_cleanup = info;
    if (info == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    // A 40x40 thumbnail compresses to ~2-3 KB; start there to avoid most reallocs.
    if (out->data == NULL) {
        out->capacity = (size_t)width * (size_t)height * (size_t)channels / 2 + 256;
        out->data = malloc(out->capacity);
        if (out->data == NULL) png_error(png, "out of memory");
    }
    png_set_write_fn(png, &context, append, flush_nothing);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8,
                 channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_set_compression_level(png, zlib_level);
    png_set_compression_strategy(png, zlib_strategy);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, filters);
    png_write_info(png, info);
    const size_t stride = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++) png_write_row(png, pixels + stride * (size_t)y);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}
