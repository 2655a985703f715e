// PNG decoding through libpng's classic API with setjmp recovery: never prints, never aborts.
#include "png_decode.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <png.h>
#include <zlib.h>

#include "color_convert.h"
#include "resample.h"

// The colour and orientation chunks found in the file.
typedef struct pm_png_colour {
    int srgb;                    ///< an sRGB chunk
    double gamma;                ///< gAMA as file gamma (0.45455 for 1/2.2), 0 without one
    double chromaticities[8];    ///< cHRM: white, red, green, blue as x, y
    int has_chromaticities;
    int cicp_primaries, cicp_transfer;  ///< cICP (PNG third edition), 0 without one
    const uint8_t *exif;
    size_t exif_length;
} pm_png_colour;

struct pm_png {
    png_structp png;
    png_infop info;
    jmp_buf escape;      // re-armed by every entry point before calling into libpng
    char *message;       // the current call's message buffer
    char damage[PM_MESSAGE_CAPACITY];  // the first CRC error of a critical chunk, whose data was used
    const uint8_t *data;
    size_t length;
    size_t offset;
    pm_png_colour colour;  // found by find_colour_chunks before libpng reads the file
    uint8_t *icc;          // inflated iCCP profile, or NULL
    size_t icc_length;
    uint8_t *xmp;          // the XMP packet of an iTXt "XML:com.adobe.xmp" chunk, or NULL
    size_t xmp_length;
    // What a scaled decode holds, here rather than in locals so that the error path frees it.
    uint8_t *row;
    pm_box_filter **filters;
    int filter_count;
    pm_image colour_description;
    pm_color_transform *transform;
};

// --- Colour and orientation chunks, read straight from the file bytes. ---
//
// libpng is told to skip these (see unused_chunks): for eXIf and iTXt it zeroes a buffer of the
// declared chunk length before reading, even past its chunk-size limit. They are found here by
// walking the chunk headers of the buffer, which is already in memory; only their data is read,
// CRC-checked, and inflated within a fixed bound.

#define MAX_INFLATED_PROFILE (4u << 20)
#define MAX_INFLATED_XMP (1u << 20)

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }

// Inflates a zlib stream into a malloc'd buffer of at most `limit` bytes; NULL when it is damaged,
// incomplete or larger.
static uint8_t *inflate_bounded(const uint8_t *data, size_t length, size_t limit, size_t *out_length) {
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit(&zs) != Z_OK) return NULL;
    size_t capacity = length * 4 < 4096 ? 4096 : length * 4 > limit ? limit : length * 4;
    uint8_t *out = malloc(capacity);
    zs.next_in = (Bytef *)data;
    zs.avail_in = (uInt)length;
    int status = Z_OK;
    while (out != NULL) {
        zs.next_out = out + zs.total_out;
        zs.avail_out = (uInt)(capacity - zs.total_out);
        status = inflate(&zs, Z_NO_FLUSH);
        if (status != Z_OK || zs.avail_out != 0) break;
        if (capacity >= limit) { status = Z_BUF_ERROR; break; }
        capacity = capacity * 2 > limit ? limit : capacity * 2;
        uint8_t *grown = realloc(out, capacity);
        if (grown == NULL) { free(out); out = NULL; }
        else out = grown;
    }
    inflateEnd(&zs);
    if (out == NULL || status != Z_STREAM_END) {
        free(out);
        return NULL;
    }
    *out_length = zs.total_out;
    return out;
}

// Offset just past the NUL that ends a Latin-1 keyword of 1-79 bytes at `at`, or 0.
static size_t after_keyword(const uint8_t *data, size_t length, size_t at) {
    for (size_t i = at; i < length && i < at + 80; i++)
        if (data[i] == 0) return i > at ? i + 1 : 0;
    return 0;
}

static void read_iccp(pm_png *png, const uint8_t *data, size_t length) {
    const size_t method = after_keyword(data, length, 0);
    if (method == 0 || method >= length || data[method] != 0) return;
    png->icc = inflate_bounded(data + method + 1, length - method - 1, MAX_INFLATED_PROFILE, &png->icc_length);
}

static void read_itxt(pm_png *png, const uint8_t *data, size_t length) {
    static const char keyword[] = "XML:com.adobe.xmp";
    if (length < sizeof keyword + 2 || memcmp(data, keyword, sizeof keyword) != 0) return;
    size_t at = sizeof keyword;
    const int compressed = data[at];
    if (compressed && data[at + 1] != 0) return;
    at += 2;
    const uint8_t *language_end = memchr(data + at, 0, length - at);
    if (language_end == NULL) return;
    at = (size_t)(language_end - data) + 1;
    const uint8_t *translated_end = at < length ? memchr(data + at, 0, length - at) : NULL;
    if (translated_end == NULL) return;
    at = (size_t)(translated_end - data) + 1;
    if (compressed) {
        png->xmp = inflate_bounded(data + at, length - at, MAX_INFLATED_XMP, &png->xmp_length);
    } else if (length - at <= MAX_INFLATED_XMP && length > at) {
        png->xmp = malloc(length - at);
        if (png->xmp != NULL) {
            memcpy(png->xmp, data + at, length - at);
            png->xmp_length = length - at;
        }
    }
}

static void find_colour_chunks(pm_png *png) {
    const uint8_t *data = png->data;
    const size_t length = png->length;
    pm_png_colour *colour = &png->colour;
    for (size_t at = 8; at + 12 <= length;) {
        const uint32_t size = be32(data + at);
        const uint8_t *type = data + at + 4, *body = data + at + 8;
        if (size > length - at - 12) return;  // truncated: libpng will say so
        at += 12 + (size_t)size;
        if (memcmp(type, "IEND", 4) == 0) return;
        if (memcmp(type, "IDAT", 4) == 0) continue;
        const int wanted = memcmp(type, "iCCP", 4) == 0 || memcmp(type, "sRGB", 4) == 0 ||
                           memcmp(type, "gAMA", 4) == 0 || memcmp(type, "cHRM", 4) == 0 ||
                           memcmp(type, "cICP", 4) == 0 || memcmp(type, "eXIf", 4) == 0 ||
                           memcmp(type, "iTXt", 4) == 0;
        if (!wanted) continue;
        // As libpng does for ancillary chunks: a damaged one is ignored.
        if (be32(body + size) != (uint32_t)crc32(crc32(0L, Z_NULL, 0), type, (uInt)size + 4)) continue;
        if (memcmp(type, "iCCP", 4) == 0 && png->icc == NULL) read_iccp(png, body, size);
        else if (memcmp(type, "sRGB", 4) == 0 && size == 1) colour->srgb = 1;
        else if (memcmp(type, "gAMA", 4) == 0 && size == 4) colour->gamma = be32(body) / 100000.0;
        else if (memcmp(type, "cHRM", 4) == 0 && size == 32) {
            for (int i = 0; i < 8; i++) colour->chromaticities[i] = be32(body + 4 * i) / 100000.0;
            colour->has_chromaticities = 1;
        } else if (memcmp(type, "cICP", 4) == 0 && size == 4) {
            colour->cicp_primaries = body[0];
            colour->cicp_transfer = body[1];
        } else if (memcmp(type, "eXIf", 4) == 0 && colour->exif == NULL && size > 0) {
            colour->exif = body;
            colour->exif_length = size;
        } else if (memcmp(type, "iTXt", 4) == 0 && png->xmp == NULL) {
            read_itxt(png, body, size);
        }
    }
}

// Close enough to sRGB to be shown as it is: a file gamma of 1/2.2 with sRGB's primaries or none.
static int is_srgb_like(const pm_png_colour *colour) {
    if (fabs(colour->gamma - 0.45455) > 0.005) return 0;
    if (!colour->has_chromaticities) return 1;
    static const double srgb[8] = {0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06};
    for (int i = 0; i < 8; i++)
        if (fabs(colour->chromaticities[i] - srgb[i]) > 0.01) return 0;
    return 1;
}

// The colour description the colour stage converts from, by the PNG specification's precedence:
// cICP, iCCP, sRGB, then gAMA with cHRM.
static void describe_colour(pm_png *png, pm_image *out) {
    const pm_png_colour *colour = &png->colour;
    if (colour->cicp_primaries != 0) {
        out->cicp_primaries = colour->cicp_primaries;
        out->cicp_transfer = colour->cicp_transfer;
    } else if (png->icc != NULL) {
        out->icc = png->icc;
        out->icc_length = png->icc_length;
        png->icc = NULL;
        png->icc_length = 0;
    } else if (!colour->srgb && colour->gamma > 0 && !is_srgb_like(colour)) {
        pm_color_profile_from_gamma(colour->gamma, colour->has_chromaticities ? colour->chromaticities : NULL,
                                    &out->icc, &out->icc_length);
    }
    if (colour->exif != NULL) {
        out->exif = malloc(colour->exif_length);
        if (out->exif != NULL) {
            memcpy(out->exif, colour->exif, colour->exif_length);
            out->exif_length = colour->exif_length;
        }
    }
}

static void on_error(png_structp png_ptr, png_const_charp text) {
    pm_png *png = png_get_error_ptr(png_ptr);
    snprintf(png->message, PM_MESSAGE_CAPACITY, "%s", text);
    longjmp(png->escape, 1);
}

// libpng warns about ancillary-chunk problems it has already worked around; they cost no pixels.
// A critical chunk's CRC error is a warning too (PNG_CRC_WARN_USE, see pm_png_open). An IDAT's
// data is used, as browsers use it, and the image says so; IHDR's or PLTE's stay an error, as in
// Pillow: what they say decides how every row reads.
static void on_warning(png_structp png_ptr, png_const_charp text) {
    pm_png *png = png_get_error_ptr(png_ptr);
    // png_chunk_warning writes "<chunk name>: <text>"; a critical chunk's name starts upper case.
    const int critical = strlen(text) >= 15 && text[0] >= 'A' && text[0] <= 'Z' &&
                         strncmp(text + 4, ": CRC error", 11) == 0;
    if (!critical) return;
    if (strncmp(text, "IDAT", 4) != 0) on_error(png_ptr, text);
    if (png->damage[0] == 0) snprintf(png->damage, sizeof png->damage, "%s", text);
}

// The known ancillary chunks that change nothing in the decoded pixels: no gamma, colour-space or
// background transform is requested, and metadata is not read. Five bytes each: name and NUL.
static const png_byte unused_chunks[] =
    "bKGD\0cHRM\0eXIf\0gAMA\0hIST\0iCCP\0iTXt\0oFFs\0pCAL\0pHYs\0sBIT\0sCAL\0sPLT\0sRGB\0tEXt\0tIME\0zTXt";

// A grey iCCP profile on a colour type applies only when every pixel turns out grey
// (pm_color_convert_to_srgb checks), which is known only once the whole image is decoded.
static int grey_profile_on_colour(const pm_png *png, int color_type) {
    if (png->colour.cicp_primaries != 0 || png->icc == NULL || png->icc_length < 20) return 0;
    if (memcmp(png->icc + 16, "GRAY", 4) != 0) return 0;
    return color_type != PNG_COLOR_TYPE_GRAY && color_type != PNG_COLOR_TYPE_GRAY_ALPHA;
}

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
    // A wrong CRC on IDAT stops libpng by default; browsers use the data, and so does this
    // (on_warning notes it, and fails the other critical chunks). Ancillary chunks keep the
    // default: dropped.
    png_set_crc_action(png->png, PNG_CRC_WARN_USE, PNG_CRC_DEFAULT);
    png_read_info(png->png, png->info);
    find_colour_chunks(png);

    png_uint_32 width, height;
    int bit_depth, color_type, interlace;
    png_get_IHDR(png->png, png->info, &width, &height, &bit_depth, &color_type, &interlace, NULL, NULL);
    header->width = (int)width;
    header->height = (int)height;
    header->bit_depth = bit_depth;
    header->color_type = color_type;
    header->interlaced = interlace != PNG_INTERLACE_NONE;
    header->channels = (color_type & PNG_COLOR_MASK_ALPHA) || png_get_valid(png->png, png->info, PNG_INFO_tRNS) ? 4 : 3;
    header->scalable = !header->interlaced && !grey_profile_on_colour(png, color_type);
    header->exif = png->colour.exif;
    header->exif_length = png->colour.exif_length;
    header->xmp = png->xmp;
    header->xmp_length = png->xmp_length;
    return png;
}

// Sets up the transformations to 8-bit RGB(A) rows and returns the number of passes; fails
// through png_error. Call under the caller's setjmp.
static int prepare_rows(pm_png *png, int64_t max_pixels, int *channels, size_t *stride) {
    png_structp p = png->png;
    png_infop info = png->info;
    const int width = (int)png_get_image_width(p, info), height = (int)png_get_image_height(p, info);
    if ((int64_t)width * height > max_pixels) {
        snprintf(png->message, PM_MESSAGE_CAPACITY, "image %dx%d is over the %lld-pixel limit",
                 width, height, (long long)max_pixels);
        longjmp(png->escape, 1);
    }
    const int color_type = png_get_color_type(p, info);
    png_set_expand(p);      // palette -> RGB, grey < 8 bit -> 8 bit, tRNS -> alpha channel
    png_set_scale_16(p);    // 16 -> 8 bit with rounding rather than truncation
    if (color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA)
        png_set_gray_to_rgb(p);
    const int passes = png_set_interlace_handling(p);
    png_read_update_info(p, info);

    *channels = png_get_channels(p, info);
    *stride = png_get_rowbytes(p, info);
    if ((*channels != 3 && *channels != 4) || *stride != (size_t)width * (size_t)*channels)
        png_error(p, "unexpected row layout after transformations");
    return passes;
}

// The first `rows` rows of a damaged image, the rest transparent: RGBA, in a new buffer when the
// pixels were RGB. Takes `pixels` (freed or handed over); NULL when out of memory.
static uint8_t *keep_rows(uint8_t *pixels, int width, int height, int channels, int rows) {
    const size_t count = (size_t)width * (size_t)height;
    if (channels == 4) {
        memset(pixels + (size_t)rows * (size_t)width * 4, 0, (count - (size_t)rows * (size_t)width) * 4);
        return pixels;
    }
    uint8_t *rgba = calloc(count, 4);
    if (rgba != NULL) {
        const size_t kept = (size_t)rows * (size_t)width;
        for (size_t i = 0; i < kept; i++) {
            memcpy(rgba + i * 4, pixels + i * 3, 3);
            rgba[i * 4 + 3] = 255;
        }
    }
    free(pixels);
    return rgba;
}

int pm_png_decode(pm_png *png, int64_t max_pixels, pm_image *out, char *message) {
    png_structp p = png->png;
    png_infop info = png->info;
    uint8_t *volatile pixels = NULL;
    // The rows complete so far, from the top: of an interlaced image only those the last pass
    // has reached are. Volatile, as they are read after a longjmp.
    volatile int rows = 0, channels = 0, width = 0, height = 0;
    memset(out, 0, sizeof *out);
    png->message = message;
    if (setjmp(png->escape)) {
        // An error that ends the zlib stream (its checksum) comes from the last png_read_row after
        // the row is out, which libpng has counted (png_read_finish_row): only its count says so.
        // Of an interlaced image it counts a pass's rows, so the loop's count stands.
        if (pixels != NULL && png_get_interlace_type(p, info) == PNG_INTERLACE_NONE) {
            const png_uint_32 counted = png_get_current_row_number(p);
            if (counted <= (png_uint_32)height && (int)counted > rows) rows = (int)counted;
        }
        // Damage after some rows decoded: those are kept, as browsers show them.
        if (pixels == NULL || rows == 0) {
            free(pixels);
            return -1;
        }
        if (rows < height) {
            pixels = keep_rows(pixels, width, height, channels, rows);
            if (pixels == NULL) {
                snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
                return -1;
            }
            pm_image_warn(out, "%s: %d of %d rows decoded, the rest left transparent", message, rows, height);
            channels = 4;
        } else {
            pm_image_warn(out, "%s (after the last row: the image is whole)", message);
        }
    } else {
        size_t stride;
        int row_channels;
        const int passes = prepare_rows(png, max_pixels, &row_channels, &stride);
        channels = row_channels;
        width = (int)png_get_image_width(p, info);
        height = (int)png_get_image_height(p, info);
        pixels = malloc(stride * (size_t)height);
        if (pixels == NULL) png_error(p, "out of memory");
        // Row by row, as png_read_image does internally, but without its array of row pointers: at
        // 8 bytes a row that array outweighs the pixels of a narrow image, and it is filled before any
        // data is read (an 88-byte PNG declaring 1x100,000,000 made it write 800 MB).
        for (int pass = 0; pass < passes; pass++) {
            for (int y = 0; y < height; y++) {
                png_read_row(p, pixels + stride * (size_t)y, NULL);
                if (pass == passes - 1) rows = y + 1;
            }
        }
        png_read_end(p, NULL);  // checks the trailing chunks' CRCs and that IEND arrives
    }
    if (png->damage[0] != 0) pm_image_warn(out, "%s (its data was used)", png->damage);
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    describe_colour(png, out);
    return 0;
}

static void free_scaled_state(pm_png *png) {
    for (int i = 0; i < png->filter_count; i++) pm_box_filter_free(png->filters[i]);
    free(png->filters);
    png->filters = NULL;
    png->filter_count = 0;
    free(png->row);
    png->row = NULL;
    if (png->transform != NULL) pm_color_transform_release(png->transform);
    png->transform = NULL;
    pm_image_free(&png->colour_description);
}

// Row `y`, read into png->row, converted to sRGB and added into every target's filter.
static void scale_row(pm_png *png, int y) {
    if (png->transform != NULL) pm_color_convert_row(png->transform, png->row, (int)png_get_image_width(png->png, png->info));
    for (int i = 0; i < png->filter_count; i++) pm_box_filter_add_row(png->filters[i], y, png->row);
}

int pm_png_decode_scaled(pm_png *png, int64_t max_pixels, pm_png_target *targets, int count,
                         int *channels_out, char *warning, char *message) {
    png_structp p = png->png;
    png_infop info = png->info;
    png->message = message;
    warning[0] = 0;
    volatile int rows = 0, height = 0, channels = 0;  // read after a longjmp
    if (setjmp(png->escape)) {
        // As in pm_png_decode: an error that ends the zlib stream comes from the last
        // png_read_row after its row is out, which only libpng's count says; that row is in
        // png->row, not yet scaled.
        if (png->row != NULL && png->filter_count == count && rows < height &&
            png_get_current_row_number(p) == (png_uint_32)rows + 1) {
            scale_row(png, rows);
            rows = rows + 1;
        }
        free_scaled_state(png);
        if (rows == 0) return -1;
        if (rows < height) return -2;  // pm_png_decode keeps the rows that decoded
        // Only the end (IEND, a trailing chunk) is damaged: every row is in the targets.
        snprintf(warning, PM_MESSAGE_CAPACITY, "%s (after the last row: the image is whole)", message);
        *channels_out = channels;
        return 0;
    }
    const int color_type = png_get_color_type(p, info);  // as stored, before the transformations
    if (grey_profile_on_colour(png, color_type))
        png_error(p, "a grey profile on colour pixels needs the whole image");
    int row_channels;
    size_t stride;
    if (prepare_rows(png, max_pixels, &row_channels, &stride) != 1)
        png_error(p, "an interlaced PNG cannot be scaled as it is decoded");
    channels = row_channels;
    const int width = (int)png_get_image_width(p, info);
    height = (int)png_get_image_height(p, info);

    // The same colour description and transform pm_png_decode's caller converts the whole image
    // with. A profile that cannot be used leaves the pixels as stored, as it does there.
    png->colour_description.width = width;
    png->colour_description.height = height;
    png->colour_description.channels = channels;
    describe_colour(png, &png->colour_description);
    char colour_message[PM_MESSAGE_CAPACITY];
    const int grey = color_type == PNG_COLOR_TYPE_GRAY || color_type == PNG_COLOR_TYPE_GRAY_ALPHA;
    if (pm_color_srgb_row_transform(&png->colour_description, grey, &png->transform, colour_message) != 1)
        png->transform = NULL;

    png->row = malloc(stride);
    png->filters = calloc((size_t)(count > 0 ? count : 1), sizeof *png->filters);
    if (png->row == NULL || png->filters == NULL) png_error(p, "out of memory");
    for (int i = 0; i < count; i++) {
        const pm_png_target *t = &targets[i];
        png->filters[i] = pm_box_filter_new(width, height, channels, t->crop_x, t->crop_y, t->crop_width,
                                            t->crop_height, t->pixels, t->width, t->height);
        if (png->filters[i] == NULL) png_error(p, "out of memory while scaling");
        png->filter_count = i + 1;
    }
    for (int y = 0; y < height; y++) {
        png_read_row(p, png->row, NULL);
        scale_row(png, y);
        rows = y + 1;
    }
    png_read_end(p, NULL);  // checks the trailing chunks' CRCs and that IEND arrives
    free_scaled_state(png);
    if (png->damage[0] != 0) snprintf(warning, PM_MESSAGE_CAPACITY, "%s (its data was used)", png->damage);
    *channels_out = channels;
    return 0;
}

void pm_png_close(pm_png *png) {
    if (png == NULL) return;
    if (png->png != NULL) png_destroy_read_struct(&png->png, &png->info, NULL);
    free_scaled_state(png);
    free(png->icc);
    free(png->xmp);
    free(png);
}
