// PNG encoding into a memory buffer: never prints, never aborts. Every file has an sRGB chunk
// (perceptual intent): the pixels are sRGB by then. One filter type for every row is written
// directly around a single libdeflate stream; adaptive filtering goes through libpng (setjmp).
#include "png_encode.h"

#include <pthread.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libdeflate.h>
#include <png.h>
#include <zlib.h>

const int pm_png_filter_none = PNG_FILTER_NONE;
const int pm_png_filter_sub = PNG_FILTER_SUB;
const int pm_png_filter_up = PNG_FILTER_UP;
const int pm_png_filter_paeth = PNG_FILTER_PAETH;
const int pm_png_filter_all = PNG_ALL_FILTERS;
const int pm_zlib_strategy_default = Z_DEFAULT_STRATEGY;

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

static int encode_with_libpng(const uint8_t *pixels, int width, int height, int channels,
                              int zlib_level, int filters, int zlib_strategy, pm_buffer *out, char *message);

// --- One filter type for every row: the container written directly around one deflate stream. ---
//
// libpng writes row by row (a deflate call per row) and filters with scalar loops. Here the rows are
// filtered into one buffer in loops the compiler vectorises (an encoder's Paeth predictor reads only
// original pixels), then compressed whole by libdeflate into a buffer sized by its bound, and stored
// as one IDAT chunk. libdeflate compresses a whole buffer in one call, without zlib's streaming
// state, which zlib allocates and clears for every stream: for a 40x40 thumbnail that state cost
// more than the compression.

// libdeflate's compressor is large (~670 KB at level 1), over the allocator's mapping threshold
// (FreedMemory.swift): one allocated per image would be mapped, faulted in and unmapped every
// time, which cost more than the compression. Each thread keeps one, of the level it last used,
// freed when the thread ends.
typedef struct {
    struct libdeflate_compressor *compressor;
    int level;
} kept_compressor;

static pthread_key_t kept_compressor_key;
static pthread_once_t kept_compressor_once = PTHREAD_ONCE_INIT;
static int kept_compressor_usable;

static void free_kept_compressor(void *value) {
    kept_compressor *kept = value;
    if (kept->compressor != NULL) libdeflate_free_compressor(kept->compressor);
    free(kept);
}

static void create_kept_compressor_key(void) {
    kept_compressor_usable = pthread_key_create(&kept_compressor_key, free_kept_compressor) == 0;
}

// A compressor of `level` for this thread; *owned is set when the caller must free it (no key).
// NULL when out of memory.
static struct libdeflate_compressor *compressor_for_thread(int level, int *owned) {
    pthread_once(&kept_compressor_once, create_kept_compressor_key);
    *owned = !kept_compressor_usable;
    if (*owned) return libdeflate_alloc_compressor(level);
    kept_compressor *kept = pthread_getspecific(kept_compressor_key);
    if (kept != NULL && kept->compressor != NULL && kept->level == level) return kept->compressor;
    if (kept == NULL) {
        kept = calloc(1, sizeof *kept);
        if (kept == NULL) return NULL;
        if (pthread_setspecific(kept_compressor_key, kept) != 0) {
            free(kept);
            *owned = 1;
            return libdeflate_alloc_compressor(level);
        }
    }
    if (kept->compressor != NULL) libdeflate_free_compressor(kept->compressor);
    kept->compressor = libdeflate_alloc_compressor(level);
    kept->level = level;
    return kept->compressor;
}

static void put32(uint8_t *at, uint32_t value) {
    at[0] = (uint8_t)(value >> 24), at[1] = (uint8_t)(value >> 16), at[2] = (uint8_t)(value >> 8), at[3] = (uint8_t)value;
}

// Writes length, type and CRC around `length` data bytes already at at + 8; returns the chunk's end.
static uint8_t *close_chunk(uint8_t *at, const char type[4], uint32_t length) {
    put32(at, length);
    memcpy(at + 4, type, 4);
    put32(at + 8 + length, (uint32_t)crc32(crc32(0L, Z_NULL, 0), at + 4, length + 4));
    return at + 12 + length;
}

static inline uint8_t paeth_predictor(int a, int b, int c) {  // left, up, up-left (PNG spec 9.4)
    const int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return (uint8_t)(pa <= pb && pa <= pc ? a : pb <= pc ? b : c);
}

// PNG filter type (0 None ... 4 Paeth) of `row` into `to`, `up` being the previous row or NULL.
static void filter_row(int type, const uint8_t *row, const uint8_t *up, size_t stride, int bpp, uint8_t *to) {
    size_t i;
    switch (up == NULL && type >= 2 ? (type == 2 ? 0 : type == 4 ? 1 : 5) : type) {
    case 0: memcpy(to, row, stride); break;
    case 1:  // Sub; also Paeth on the first row, where it predicts from the left only
        for (i = 0; i < (size_t)bpp; i++) to[i] = row[i];
        for (; i < stride; i++) to[i] = (uint8_t)(row[i] - row[i - bpp]);
        break;
    case 2:
        for (i = 0; i < stride; i++) to[i] = (uint8_t)(row[i] - up[i]);
        break;
    case 3:
        for (i = 0; i < (size_t)bpp; i++) to[i] = (uint8_t)(row[i] - (up[i] >> 1));
        for (; i < stride; i++) to[i] = (uint8_t)(row[i] - ((row[i - bpp] + up[i]) >> 1));
        break;
    case 4:
        for (i = 0; i < (size_t)bpp; i++) to[i] = (uint8_t)(row[i] - up[i]);
        for (; i < stride; i++) to[i] = (uint8_t)(row[i] - paeth_predictor(row[i - bpp], up[i], up[i - bpp]));
        break;
    case 5:  // Average on the first row: half the left neighbour
        for (i = 0; i < (size_t)bpp; i++) to[i] = row[i];
        for (; i < stride; i++) to[i] = (uint8_t)(row[i] - (row[i - bpp] >> 1));
        break;
    }
}

static int encode_one_filter(const uint8_t *pixels, int width, int height, int channels, int filter_type,
                             int level, pm_buffer *out, char *message) {
    const size_t stride = (size_t)width * (size_t)channels, raw = (stride + 1) * (size_t)height;
    if (width > PNG_USER_WIDTH_MAX || height > PNG_USER_HEIGHT_MAX || raw > 0xFFFFFFFFu / 2) {
        snprintf(message, PM_MESSAGE_CAPACITY, "image %dx%d is too large to encode", width, height);
        return -1;
    }
    if (level < 0 || level > 12) {
        snprintf(message, PM_MESSAGE_CAPACITY, "compression level %d is not 0-12", level);
        return -1;
    }
    int owned;
    struct libdeflate_compressor *compressor = compressor_for_thread(level, &owned);
    if (compressor == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    // The IDAT data lands after signature, IHDR, sRGB and the IDAT header; IDAT's CRC and IEND follow it.
    const size_t head = 8 + 25 + 13 + 8, tail = 4 + 12;
    const size_t room = libdeflate_zlib_compress_bound(compressor, raw);
    uint8_t *filtered = malloc(raw);
    uint8_t *png = malloc(head + room + tail);
    if (filtered == NULL || png == NULL) {
        if (owned) libdeflate_free_compressor(compressor);
        free(filtered);
        free(png);
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    for (int y = 0; y < height; y++) {
        uint8_t *to = filtered + (stride + 1) * (size_t)y;
        const uint8_t *row = pixels + stride * (size_t)y;
        to[0] = (uint8_t)filter_type;
        filter_row(filter_type, row, y > 0 ? row - stride : NULL, stride, channels, to + 1);
    }
    // The bound holds any input, so a zero here (no room) cannot happen; it is checked all the same.
    const size_t compressed = libdeflate_zlib_compress(compressor, filtered, raw, png + head, room);
    if (owned) libdeflate_free_compressor(compressor);
    free(filtered);
    if (compressed == 0) {
        free(png);
        snprintf(message, PM_MESSAGE_CAPACITY, "libdeflate: the stream did not fit its bound");
        return -1;
    }

    memcpy(png, "\x89PNG\r\n\x1a\n", 8);
    uint8_t *ihdr = png + 8 + 8;
    put32(ihdr, (uint32_t)width);
    put32(ihdr + 4, (uint32_t)height);
    ihdr[8] = 8;                                                          // bits per sample
    ihdr[9] = channels == 4 ? PNG_COLOR_TYPE_RGB_ALPHA : PNG_COLOR_TYPE_RGB;
    ihdr[10] = ihdr[11] = ihdr[12] = 0;                                   // deflate, adaptive filtering, no interlace
    uint8_t *at = close_chunk(png + 8, "IHDR", 13);
    at[8] = PNG_sRGB_INTENT_PERCEPTUAL;
    at = close_chunk(at, "sRGB", 1);
    at = close_chunk(at, "IDAT", (uint32_t)compressed);
    at = close_chunk(at, "IEND", 0);
    out->data = png;
    out->length = (size_t)(at - png);
    out->capacity = head + room + tail;
    return 0;
}

// The PNG filter type (0-4) a libpng mask selects when it names exactly one, else -1 (adaptive).
static int single_filter_type(int filters) {
    switch (filters) {
    case PNG_FILTER_NONE: return PNG_FILTER_VALUE_NONE;
    case PNG_FILTER_SUB: return PNG_FILTER_VALUE_SUB;
    case PNG_FILTER_UP: return PNG_FILTER_VALUE_UP;
    case PNG_FILTER_AVG: return PNG_FILTER_VALUE_AVG;
    case PNG_FILTER_PAETH: return PNG_FILTER_VALUE_PAETH;
    default: return -1;
    }
}

int pm_png_encode(const uint8_t *pixels, int width, int height, int channels,
                  int level, int filters, int zlib_strategy, pm_buffer *out, char *message) {
    if ((channels == 3 || channels == 4) && width > 0 && height > 0 && out->data == NULL &&
        single_filter_type(filters) >= 0)
        return encode_one_filter(pixels, width, height, channels, single_filter_type(filters),
                                 level, out, message);
    return encode_with_libpng(pixels, width, height, channels, level, filters, zlib_strategy, out, message);
}

// --- Adaptive filtering (several filter types in the mask): libpng's heuristic, row by row. ---

static int encode_with_libpng(const uint8_t *pixels, int width, int height, int channels,
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
    // Thumbnails are converted to sRGB (color_convert.h) and say so, as libpng orders it: after IHDR.
    png_set_sRGB(png, info, PNG_sRGB_INTENT_PERCEPTUAL);
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
