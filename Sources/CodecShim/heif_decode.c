// HEIF (HEVC) and AVIF (AV1) decoding through libheif: never prints, never exits.
#include "heif_decode.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <libheif/heif.h>

struct pm_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
    int av1;  // which plugin a missing-codec message names
    pm_heif_header header;
};

// libheif's own default side limit; a larger pixel limit must not loosen it.
#define LIBHEIF_MAX_SIDE 32768

// --- the primary item's canvas, read from the boxes ----------------------------------------------
// libheif 1.15 allocates a grid's or overlay's canvas at the size its item data declares and never
// compares that with the item's ispe (the handle's size), so a grid with a 64x64 ispe may declare
// 30000x30000. The pixel limit must see the canvas, and the API does not expose it: this reads the
// primary item's data through meta/pitm/iinf/iloc, bounds-checked, just far enough to find it.

typedef struct { const uint8_t *p; size_t n; } span;

static int read_uint(span s, size_t at, int bytes, uint64_t *value) {
    if (bytes == 0) { *value = 0; return 1; }
    if (at > s.n || (size_t)bytes > s.n - at) return 0;
    uint64_t v = 0;
    for (int i = 0; i < bytes; i++) v = v << 8 | s.p[at + i];
    *value = v;
    return 1;
}

// The first child box of `type` among the boxes in `s`, as its payload.
static int find_box(span s, const char *type, span *payload) {
    size_t at = 0;
    while (s.n - at >= 8) {
        uint64_t size, header = 8;
        read_uint(s, at, 4, &size);
        if (size == 1) {
            if (!read_uint(s, at + 8, 8, &size)) return 0;
            header = 16;
        } else if (size == 0) {
            size = s.n - at;
        }
        if (size < header || size > s.n - at) return 0;
        if (memcmp(s.p + at + 4, type, 4) == 0) {
            *payload = (span){s.p + at + header, (size_t)(size - header)};
            return 1;
        }
        at += (size_t)size;
    }
    return 0;
}

static int item_type(span iinf, uint32_t item, char type[4]) {
    if (iinf.n < 4) return 0;
    const int wide = iinf.p[0] != 0;
    size_t at = 4 + (wide ? 4 : 2);
    while (at < iinf.n) {
        span rest = {iinf.p + at, iinf.n - at}, infe;
        if (!find_box(rest, "infe", &infe)) return 0;
        at = (size_t)(infe.p + infe.n - iinf.p);
        uint64_t version, id;
        if (!read_uint(infe, 0, 1, &version) || version < 2) continue;
        const int id_bytes = version == 2 ? 2 : 4;
        if (!read_uint(infe, 4, id_bytes, &id) || infe.n < 4 + (size_t)id_bytes + 2 + 4) return 0;
        if (id == item) {
            memcpy(type, infe.p + 4 + id_bytes + 2, 4);
            return 1;
        }
    }
    return 0;
}

// The first bytes of `item`'s data (from its first extent), in `out`; returns how many.
static size_t item_data(span file, span meta, span iloc, uint32_t item, uint8_t *out, size_t capacity) {
    uint64_t version, sizes, index_sizes, count;
    if (!read_uint(iloc, 0, 1, &version) || version > 2 || !read_uint(iloc, 4, 1, &sizes) ||
        !read_uint(iloc, 5, 1, &index_sizes))
        return 0;
    const int offset_size = (int)(sizes >> 4), length_size = (int)(sizes & 15);
    const int base_size = (int)(index_sizes >> 4), index_size = version ? (int)(index_sizes & 15) : 0;
    size_t at = 6;
    if (!read_uint(iloc, at, version < 2 ? 2 : 4, &count)) return 0;
    at += version < 2 ? 2 : 4;
    for (uint64_t i = 0; i < count; i++) {
        uint64_t id, method = 0, base, extents, offset = 0, length = 0;
        if (!read_uint(iloc, at, version < 2 ? 2 : 4, &id)) return 0;
        at += version < 2 ? 2 : 4;
        if (version) {
            if (!read_uint(iloc, at, 2, &method)) return 0;
            method &= 15;
            at += 2;
        }
        at += 2;  // data_reference_index
        if (!read_uint(iloc, at, base_size, &base)) return 0;
        at += (size_t)base_size;
        if (!read_uint(iloc, at, 2, &extents)) return 0;
        at += 2;
        // Only the first extent is read; the others are skipped in one step, as a hostile count of
        // zero-byte extents would otherwise cost a loop turn each.
        const size_t extent_bytes = (size_t)(index_size + offset_size + length_size);
        if (extents > 0) {
            if (!read_uint(iloc, at + index_size, offset_size, &offset) ||
                !read_uint(iloc, at + index_size + offset_size, length_size, &length))
                return 0;
        }
        if (extent_bytes != 0 && extents > (iloc.n - at) / extent_bytes) return 0;
        at += (size_t)extents * extent_bytes;
        if (id != item) continue;
        span source = file;
        if (method == 1 && !find_box(meta, "idat", &source)) return 0;
        if (method > 1 || base > source.n || offset > source.n - base) return 0;
        const uint64_t start = base + offset;
        uint64_t available = source.n - start;
        if (length != 0 && length < available) available = length;
        const size_t n = available < capacity ? (size_t)available : capacity;
        memcpy(out, source.p + start, n);
        return n;
    }
    return 0;
}

// Fills the canvas size when the primary item is a grid or an overlay whose data can be read.
static void read_canvas(const uint8_t *data, size_t length, pm_heif_header *header) {
    span file = {data, length}, meta, pitm, iinf, iloc;
    if (!find_box(file, "meta", &meta) || meta.n < 4) return;
    meta = (span){meta.p + 4, meta.n - 4};  // a full box: version and flags first
    uint64_t version, primary;
    if (!find_box(meta, "pitm", &pitm) || !read_uint(pitm, 0, 1, &version) ||
        !read_uint(pitm, 4, version ? 4 : 2, &primary))
        return;
    char type[4];
    if (!find_box(meta, "iinf", &iinf) || !item_type(iinf, (uint32_t)primary, type)) return;
    const int grid = memcmp(type, "grid", 4) == 0, overlay = memcmp(type, "iovl", 4) == 0;
    if ((!grid && !overlay) || !find_box(meta, "iloc", &iloc)) return;
    uint8_t bytes[20];
    const size_t n = item_data(file, meta, iloc, (uint32_t)primary, bytes, sizeof bytes);
    // grid: version, flags, rows-1, columns-1, size; iovl: version, flags, four 16-bit fill values, size.
    const size_t at = grid ? 4 : 10;
    const int wide = n >= 2 && (bytes[1] & 1);
    uint64_t w, h;
    span s = {bytes, n};
    if (read_uint(s, at, wide ? 4 : 2, &w) && read_uint(s, at + (wide ? 4 : 2), wide ? 4 : 2, &h)) {
        header->canvas_width = w > INT_MAX ? INT_MAX : (int)w;
        header->canvas_height = h > INT_MAX ? INT_MAX : (int)h;
    }
}

// --- libheif -------------------------------------------------------------------------------------

void pm_heif_describe_error(int code, int subcode, const char *text, int av1, char *message) {
    if (code == heif_error_Unsupported_feature && subcode == heif_suberror_Unsupported_codec) {
        snprintf(message, PM_MESSAGE_CAPACITY, "no %s decoder in this libheif (install %s)",
                 av1 ? "AV1" : "HEVC", av1 ? "libdav1d6" : "libde265-0");
        return;
    }
    snprintf(message, PM_MESSAGE_CAPACITY, "%s", text != NULL && text[0] ? text : "unknown libheif error");
    // Some of libheif's messages end in a newline.
    for (size_t n = strlen(message); n > 0 && (message[n - 1] == '\n' || message[n - 1] == ' '); n--)
        message[n - 1] = 0;
}

static void set_error(char *message, struct heif_error error, int av1) {
    pm_heif_describe_error(error.code, error.subcode, error.message, av1, message);
}

static int64_t area(int width, int height) { return (int64_t)width * height; }

static int over_limit(int width, int height, int64_t max_pixels, char *message) {
    if (area(width, height) <= max_pixels) return 0;
    snprintf(message, PM_MESSAGE_CAPACITY, "image is %d×%d, over the %lld-pixel limit",
             width, height, (long long)max_pixels);
    return 1;
}

pm_heif *pm_heif_open(const uint8_t *data, size_t length, int64_t max_pixels, const char *codec,
                      pm_heif_header *header, char *message) {
    memset(header, 0, sizeof *header);
    pm_heif *heif = calloc(1, sizeof *heif);
    if (heif == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    heif->av1 = codec != NULL && strcmp(codec, "AV1") == 0;
    heif->context = heif_context_alloc();
    if (heif->context == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        pm_heif_close(heif);
        return NULL;
    }
    // Checked against every image's ispe while the boxes are read, tiles and alpha included, which
    // the caller never sees; the caller's area check is the real limit for the primary image.
    const int64_t side = max_pixels < LIBHEIF_MAX_SIDE ? (max_pixels < 1 ? 1 : max_pixels) : LIBHEIF_MAX_SIDE;
    heif_context_set_maximum_image_size_limit(heif->context, (int)side);
    struct heif_error error = heif_context_read_from_memory_without_copy(heif->context, data, length, NULL);
    if (error.code == heif_error_Ok)
        error = heif_context_get_primary_image_handle(heif->context, &heif->primary);
    if (error.code != heif_error_Ok) {
        set_error(message, error, heif->av1);
        pm_heif_close(heif);
        return NULL;
    }
    header->width = heif_image_handle_get_width(heif->primary);
    header->height = heif_image_handle_get_height(heif->primary);
    header->stored_width = heif_image_handle_get_ispe_width(heif->primary);
    header->stored_height = heif_image_handle_get_ispe_height(heif->primary);
    header->has_alpha = heif_image_handle_has_alpha_channel(heif->primary) != 0;
    header->bit_depth = heif_image_handle_get_luma_bits_per_pixel(heif->primary);
    read_canvas(data, length, header);
    if (header->width <= 0 || header->height <= 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "primary image has no size (ispe missing)");
        pm_heif_close(heif);
        return NULL;
    }
    heif->header = *header;
    return heif;
}

// libheif keeps a premultiplied alpha image's colours as stored; pm_image promises straight alpha.
static void unpremultiply(uint8_t *pixels, size_t count) {
    for (size_t i = 0; i < count; i++, pixels += 4) {
        const unsigned a = pixels[3];
        if (a == 0 || a == 255) continue;
        for (int c = 0; c < 3; c++) {
            const unsigned v = (pixels[c] * 255u + a / 2) / a;
            pixels[c] = (uint8_t)(v > 255 ? 255 : v);
        }
    }
}

static int copy_colour(const struct heif_image_handle *handle, pm_image *out) {
    const enum heif_color_profile_type type = heif_image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        const size_t size = heif_image_handle_get_raw_color_profile_size(handle);
        if (size == 0) return 0;
        out->icc = malloc(size);
        if (out->icc == NULL) return -1;
        if (heif_image_handle_get_raw_color_profile(handle, out->icc).code != heif_error_Ok) {
            free(out->icc);
            out->icc = NULL;
            return 0;  // an unreadable profile leaves the image untagged rather than unreadable
        }
        out->icc_length = size;
        return 0;
    }
    // Also when the handle reports an ICC profile first: libheif gives nclx separately, but the
    // pm_image contract uses CICP only without ICC, so an ICC-tagged image stops above.
    struct heif_color_profile_nclx *nclx = NULL;
    if (heif_image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx != NULL) {
        out->cicp_primaries = (int)nclx->color_primaries;
        out->cicp_transfer = (int)nclx->transfer_characteristics;
    }
    heif_nclx_color_profile_free(nclx);
    return 0;
}

int pm_heif_decode(pm_heif *heif, int64_t max_pixels, pm_image *out, char *message) {
    memset(out, 0, sizeof *out);
    const pm_heif_header *h = &heif->header;
    if (over_limit(h->width, h->height, max_pixels, message) ||
        over_limit(h->stored_width, h->stored_height, max_pixels, message) ||
        over_limit(h->canvas_width, h->canvas_height, max_pixels, message))
        return -1;
    // libheif checks a grid's or overlay's canvas against its side limit when decoding. When the
    // canvas could not be read from the boxes above (data split over extents, say), that bounds it
    // by the largest side the file declares and the area checks accepted.
    int side = h->width > h->height ? h->width : h->height;
    if (h->stored_width > side) side = h->stored_width;
    if (h->stored_height > side) side = h->stored_height;
    if (h->canvas_width > side) side = h->canvas_width;
    if (h->canvas_height > side) side = h->canvas_height;
    if (side < LIBHEIF_MAX_SIDE) heif_context_set_maximum_image_size_limit(heif->context, side + 1);

    struct heif_decoding_options *options = heif_decoding_options_alloc();
    if (options == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    options->convert_hdr_to_8bit = 1;  // interleaved 8-bit output; libheif scales 10/12-bit down
    const int alpha = h->has_alpha;
    struct heif_image *image = NULL;
    struct heif_error error = heif_decode_image(heif->primary, &image, heif_colorspace_RGB,
                                                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                options);
    heif_decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        set_error(message, error, heif->av1);
        heif_image_release(image);
        return -1;
    }
    const int channels = alpha ? 4 : 3;
    const int width = heif_image_get_width(image, heif_channel_interleaved);
    const int height = heif_image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (plane == NULL || width <= 0 || height <= 0 || stride < width * channels ||
        heif_image_get_bits_per_pixel(image, heif_channel_interleaved) != 8 * channels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "unexpected decoded image layout");
        heif_image_release(image);
        return -1;
    }
    if (over_limit(width, height, max_pixels, message)) {
        heif_image_release(image);
        return -1;
    }
    const size_t row = (size_t)width * (size_t)channels;
    uint8_t *pixels = malloc(row * (size_t)height);
    if (pixels == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        heif_image_release(image);
        return -1;
    }
    for (int y = 0; y < height; y++) memcpy(pixels + row * (size_t)y, plane + (size_t)stride * (size_t)y, row);
    heif_image_release(image);
    if (alpha && heif_image_handle_is_premultiplied_alpha(heif->primary))
        unpremultiply(pixels, (size_t)width * (size_t)height);
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    if (copy_colour(heif->primary, out) != 0) {
        pm_image_free(out);
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    return 0;
}

void pm_heif_close(pm_heif *heif) {
    if (heif == NULL) return;
    if (heif->primary != NULL) heif_image_handle_release(heif->primary);
    if (heif->context != NULL) heif_context_free(heif->context);
    free(heif);
}
