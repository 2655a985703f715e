// PNG decoding through libpng's classic API with setjmp recovery: never prints, never aborts.
#include "png_decode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <png.h>

struct pm_png {
    png_structp png;
    png_infop info;
    jmp_buf escape;      // re-armed by every entry point before calling into libpng
    char *message;       // the current call's message buffer
    const uint8_t *data;
    size_t length;
    size_t offset;
};

static void on_error(png_structp png_ptr, png_const_charp text) {
    pm_png *png = png_get_error_ptr(png_ptr);
    snprintf(png->message, PM_MESSAGE_CAPACITY, "%s", text);
    longjmp(png->escape, 1);
}

// libpng warns about ancillary-chunk problems it has already worked around; they cost no pixels.
static void on_warning(png_structp png_ptr, png_const_charp text) { (void)png_ptr; (void)text; }

// The known ancillary chunks that change nothing in the decoded pixels: no gamma, colour-space or
// background transform is requested, and metadata is not read. Five bytes each: name and NUL.
static const png_byte unused_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

static void read_from_memory(png_structp png_ptr, png_bytep into, size_t count) {
    pm_png *png = png_get_io_ptr(png_ptr);
    if (count > png->length - png->offset) png_error(png_ptr, "unexpected end of PNG data");
    memcpy(into, png->data + png->offset, count);
    png->offset += count;
}

pm_png *pm_png_open(const uint8_t *data, size_t length, int max_side,
                    pm_png_header *header, char *message) {
    memset(header, 0, sizeof *header);
    if (length < 8 || png_sig_cmp(data, 0, 8) != 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "not a PNG signature");
        return NULL;
    }
    pm_png *png = calloc(1, sizeof *png);
    if (png == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    png->message = message;
    png->data = data;
    png->length = length;
    // Armed before creation: libpng may already call on_error while building its structs.
    if (setjmp(png->escape)) {
        pm_png_close(png);
        return NULL;
    }
    png->png = png_create_read_struct(PNG_LIBPNG_VER_STRING, png, on_error, on_warning);
    if (png->png != NULL) png->info = png_create_info_struct(png->png);
    if (png->info == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        pm_png_close(png);
        return NULL;
    }
    png_set_read_fn(png->png, png, read_from_memory);
    png_set_user_limits(png->png, (png_uint_32)max_side, (png_uint_32)max_side);
    // Bound what hostile ancillary chunks (text, sPLT, unknown) may make libpng keep.
    png_set_chunk_cache_max(png->png, 256);
    png_set_chunk_malloc_max(png->png, 4u << 20);
    // Skip, unread, every ancillary chunk the decode does not use. libpng reports a chunk over the
    // malloc limit only as a *benign* error (a warning when reading), then still allocates and
    // zeroes a buffer of the declared length for text, iCCP, sPLT, pCAL, sCAL and eXIf: an 860-byte
    // PNG with a 2 GB iTXt length made it zero 2 GB (fuzzing found it). tRNS stays: it becomes alpha.
    png_set_keep_unknown_chunks(png->png, PNG_HANDLE_CHUNK_NEVER, unused_chunks,
                                (int)(sizeof unused_chunks / 5));
    png_read_info(png->png, png->info);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png->png, png->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = (int)width;
    header->height = (int)height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    return png;
}

int pm_png_decode(pm_png *png, int64_t max_pixels, pm_image *out, char *message) {
    png_structp p = png->png;
    png_infop info = png->info;
    uint8_t *volatile pixels = NULL;
    memset(out, 0, sizeof *out);
    png->message = message;
    if (setjmp(png->escape)) {
        free(pixels);
        return -1;
    }
    const int width = (int)png_get_image_width(p, info), height = (int)png_get_image_height(p, info);
    if ((int64_t)width * height > max_pixels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "image %dx%d is over the %lld-pixel limit",
                 width, height, (long long)max_pixels);
        return -1;
    }
    const int color_type = png_get_color_type(p, info);
    png_set_expand(p);      // palette -> RGB, grey < 8 bit -> 8 bit, tRNS -> alpha channel
    png_set_scale_16(p);    // 16 -> 8 bit with rounding rather than truncation
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(p);
    const int passes = png_set_interlace_handling(p);
    png_read_update_info(p, info);

    const int channels = png_get_channels(p, info);
    const size_t stride = png_get_rowbytes(p, info);
    if ((channels != 3 && channels != 4) || stride != (size_t)width * (size_t)channels)
        png_error(p, "unexpected row layout after transformations");
    pixels = malloc(stride * (size_t)height);
    if (pixels == NULL) png_error(p, "out of memory");
    // Row by row, as png_read_image does internally, but without its array of row pointers: at
    // 8 bytes a row that array outweighs the pixels of a narrow image, and it is filled before any
    // data is read (an 88-byte PNG declaring 1x100,000,000 made it write 800 MB).
    for (int pass = 0; pass < passes; pass++)
        for (int y = 0; y < height; y++) png_read_row(p, pixels + stride * (size_t)y, NULL);
    png_read_end(p, NULL);  // checks the trailing chunks' CRCs and that IEND arrives
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    return 0;
}

void pm_png_close(pm_png *png) {
    if (png == NULL) return;
    if (png->png != NULL) png_destroy_read_struct(&png->png, &png->info, NULL);
    free(png);
}
