// HEIF (HEVC) and AVIF (AV1) decoding through libheif: never prints, never exits.
#include "heif_decode.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "heif_library.h"

// Every call into libheif below runs after pm_heif_open has loaded it (pm_heif_library_load).
#define HEIF (pm_heif_library_get())

struct pm_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
    int av1;  // which plugin a missing-codec message names
    uint8_t *exif_block;  // the primary item's metadata as libheif gives it; the header points in
    uint8_t *xmp_block;
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

// The box starting at `*at` among the boxes in `s`: its type and payload, `*at` moved past it.
// 0 at the end of `s` or at a box whose size does not fit in it.
static int next_box(span s, size_t *at, const uint8_t **type, span *payload) {
    if (*at > s.n || s.n - *at < 8) return 0;
    uint64_t size, header = 8;
    read_uint(s, *at, 4, &size);
    if (size == 1) {
        if (!read_uint(s, *at + 8, 8, &size)) return 0;
        header = 16;
    } else if (size == 0) {
        size = s.n - *at;
    }
    if (size < header || size > s.n - *at) return 0;
    *type = s.p + *at + 4;
    *payload = (span){s.p + *at + header, (size_t)(size - header)};
    *at += (size_t)size;
    return 1;
}

// The first child box of `type` among the boxes in `s`, as its payload.
static int find_box(span s, const char *type, span *payload) {
    size_t at = 0;
    const uint8_t *found;
    span box;
    while (next_box(s, &at, &found, &box)) {
        if (memcmp(found, type, 4) == 0) {
            *payload = box;
            return 1;
        }
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
static void read_canvas(span file, span meta, uint32_t primary, pm_heif_header *header) {
    span iinf, iloc;
    char type[4];
    if (!find_box(meta, "iinf", &iinf) || !item_type(iinf, primary, type)) return;
    const int grid = memcmp(type, "grid", 4) == 0, overlay = memcmp(type, "iovl", 4) == 0;
    if ((!grid && !overlay) || !find_box(meta, "iloc", &iloc)) return;
    uint8_t bytes[20];
    const size_t n = item_data(file, meta, iloc, primary, bytes, sizeof bytes);
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

// --- the primary item's transforms, read from the boxes ------------------------------------------
// libheif applies irot and imir when decoding, and its 1.15 API does not say whether there were
// any. Whether there were decides whether an EXIF or XMP orientation may still be applied: with a
// transform property the metadata only restates it (HEIF's rule, and what Apple's HEICs do);
// without one it is the only orientation the file gives.

#define MAX_PROPERTY_INDEX 0x7FFF  // ipma's widest property index: 15 bits

// 0 when the item has no irot or imir property associated; 1 when it has, or when ipco or ipma
// cannot be read to the end, since applying a metadata orientation on top of libheif's transform
// would turn the image twice.
static int has_transform(span meta, uint32_t item) {
    span iprp, ipco, payload;
    if (!find_box(meta, "iprp", &iprp) || !find_box(iprp, "ipco", &ipco)) return 1;
    // One bit per property index (1-based, in ipco order), so that each association costs O(1)
    // however many a hostile ipma lists.
    uint8_t transform[(MAX_PROPERTY_INDEX + 1) / 8] = {0};
    const uint8_t *type;
    size_t at = 0;
    unsigned index = 0;
    while (index < MAX_PROPERTY_INDEX && next_box(ipco, &at, &type, &payload)) {
        index++;
        if (memcmp(type, "irot", 4) == 0 || memcmp(type, "imir", 4) == 0) transform[index / 8] |= (uint8_t)(1u << (index % 8));
    }
    if (at != ipco.n && index < MAX_PROPERTY_INDEX) return 1;
    at = 0;
    while (next_box(iprp, &at, &type, &payload)) {
        if (memcmp(type, "ipma", 4) != 0) continue;
        uint64_t version, flags, count;
        if (!read_uint(payload, 0, 1, &version) || !read_uint(payload, 1, 3, &flags) ||
            !read_uint(payload, 4, 4, &count))
            return 1;
        const int id_bytes = version < 1 ? 2 : 4, index_bytes = (flags & 1) ? 2 : 1;
        const uint64_t index_mask = (flags & 1) ? 0x7FFF : 0x7F;  // the top bit marks "essential"
        size_t p = 8;
        // Each entry takes at least three bytes, so a hostile count stops at the payload's end.
        for (uint64_t i = 0; i < count; i++) {
            uint64_t id, associations;
            if (!read_uint(payload, p, id_bytes, &id) || !read_uint(payload, p + (size_t)id_bytes, 1, &associations))
                return 1;
            p += (size_t)id_bytes + 1;
            if ((payload.n - p) / (size_t)index_bytes < associations) return 1;
            if (id == item) {
                for (uint64_t j = 0; j < associations; j++) {
                    uint64_t value;
                    read_uint(payload, p + (size_t)j * (size_t)index_bytes, index_bytes, &value);
                    const uint64_t property = value & index_mask;
                    if (property <= MAX_PROPERTY_INDEX && (transform[property / 8] >> (property % 8) & 1)) return 1;
                }
            }
            p += (size_t)associations * (size_t)index_bytes;
        }
    }
    return 0;
}

// The canvas and transform facts about the primary item that libheif's API does not give.
static void read_boxes(const uint8_t *data, size_t length, pm_heif_header *header) {
    header->has_transform = 1;
    span file = {data, length}, meta, pitm;
    if (!find_box(file, "meta", &meta) || meta.n < 4) return;
    meta = (span){meta.p + 4, meta.n - 4};  // a full box: version and flags first
    uint64_t version, primary;
    if (!find_box(meta, "pitm", &pitm) || !read_uint(pitm, 0, 1, &version) ||
        !read_uint(pitm, 4, version ? 4 : 2, &primary))
        return;
    read_canvas(file, meta, (uint32_t)primary, header);
    header->has_transform = has_transform(meta, (uint32_t)primary);
}

// --- metadata ------------------------------------------------------------------------------------

// More than any EXIF or XMP block a camera or editor writes; a larger one is ignored, not copied.
#define MAX_METADATA_BLOCK (4u << 20)

// A malloc'd copy of the primary item's first readable metadata block of item type `type` (and
// content type `content_type`, when given) in `*block`; 0, or -1 when out of memory. A missing,
// oversized or unreadable block leaves `*block` NULL: metadata never fails a decode.
static int copy_metadata(const struct heif_image_handle *handle, const char *type, const char *content_type,
                         uint8_t **block, size_t *length) {
    *block = NULL;
    *length = 0;
    heif_item_id ids[16];
    const int n = HEIF->image_handle_get_list_of_metadata_block_IDs(handle, type, ids, (int)(sizeof ids / sizeof ids[0]));
    for (int i = 0; i < n; i++) {
        if (content_type != NULL) {
            const char *actual = HEIF->image_handle_get_metadata_content_type(handle, ids[i]);
            if (actual == NULL || strcmp(actual, content_type) != 0) continue;
        }
        const size_t size = HEIF->image_handle_get_metadata_size(handle, ids[i]);
        if (size == 0 || size > MAX_METADATA_BLOCK) continue;
        uint8_t *copy = malloc(size);
        if (copy == NULL) return -1;
        if (HEIF->image_handle_get_metadata(handle, ids[i], copy).code != heif_error_Ok) {
            free(copy);
            continue;
        }
        *block = copy;
        *length = size;
        return 0;
    }
    return 0;
}

// Points the header at the primary item's EXIF (its TIFF structure) and XMP packet, if any.
static int read_metadata(pm_heif *heif, pm_heif_header *header) {
    size_t length;
    if (copy_metadata(heif->primary, "Exif", NULL, &heif->exif_block, &length) != 0) return -1;
    // HEIF's Exif item starts with the 32-bit offset of the TIFF header from the end of that field
    // (0, or 6 past an "Exif\0\0" prefix).
    uint64_t offset;
    if (heif->exif_block != NULL && read_uint((span){heif->exif_block, length}, 0, 4, &offset) &&
        offset < length - 4) {
        header->exif = heif->exif_block + 4 + offset;
        header->exif_length = length - 4 - (size_t)offset;
    }
    if (copy_metadata(heif->primary, "mime", "application/rdf+xml", &heif->xmp_block, &length) != 0) return -1;
    header->xmp = heif->xmp_block;
    header->xmp_length = heif->xmp_block != NULL ? length : 0;
    return 0;
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
    if (pm_heif_library_load(message) == NULL) return NULL;
    pm_heif *heif = calloc(1, sizeof *heif);
    if (heif == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    heif->av1 = codec != NULL && strcmp(codec, "AV1") == 0;
    heif->context = HEIF->context_alloc();
    if (heif->context == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        pm_heif_close(heif);
        return NULL;
    }
    // Checked against every image's ispe while the boxes are read, tiles and alpha included, which
    // the caller never sees; the caller's area check is the real limit for the primary image.
    const int64_t side = max_pixels < LIBHEIF_MAX_SIDE ? (max_pixels < 1 ? 1 : max_pixels) : LIBHEIF_MAX_SIDE;
    HEIF->context_set_maximum_image_size_limit(heif->context, (int)side);
    struct heif_error error = HEIF->context_read_from_memory_without_copy(heif->context, data, length, NULL);
    if (error.code == heif_error_Ok)
        error = HEIF->context_get_primary_image_handle(heif->context, &heif->primary);
    if (error.code != heif_error_Ok) {
        set_error(message, error, heif->av1);
        pm_heif_close(heif);
        return NULL;
    }
    header->width = HEIF->image_handle_get_width(heif->primary);
    header->height = HEIF->image_handle_get_height(heif->primary);
    header->stored_width = HEIF->image_handle_get_ispe_width(heif->primary);
    header->stored_height = HEIF->image_handle_get_ispe_height(heif->primary);
    header->has_alpha = HEIF->image_handle_has_alpha_channel(heif->primary) != 0;
    header->bit_depth = HEIF->image_handle_get_luma_bits_per_pixel(heif->primary);
    read_boxes(data, length, header);
    if (read_metadata(heif, header) != 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        pm_heif_close(heif);
        return NULL;
    }
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
    const enum heif_color_profile_type type = HEIF->image_handle_get_color_profile_type(handle);
    if (type == heif_color_profile_type_prof || type == heif_color_profile_type_rICC) {
        const size_t size = HEIF->image_handle_get_raw_color_profile_size(handle);
        if (size == 0) return 0;
        out->icc = malloc(size);
        if (out->icc == NULL) return -1;
        if (HEIF->image_handle_get_raw_color_profile(handle, out->icc).code != heif_error_Ok) {
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
    if (HEIF->image_handle_get_nclx_color_profile(handle, &nclx).code == heif_error_Ok && nclx != NULL) {
        out->cicp_primaries = (int)nclx->color_primaries;
        out->cicp_transfer = (int)nclx->transfer_characteristics;
    }
    HEIF->nclx_color_profile_free(nclx);
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
    if (side < LIBHEIF_MAX_SIDE) HEIF->context_set_maximum_image_size_limit(heif->context, side + 1);

    struct heif_decoding_options *options = HEIF->decoding_options_alloc();
    if (options == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    options->convert_hdr_to_8bit = 1;  // interleaved 8-bit output; libheif scales 10/12-bit down
    const int alpha = h->has_alpha;
    struct heif_image *image = NULL;
    struct heif_error error = HEIF->decode_image(heif->primary, &image, heif_colorspace_RGB,
                                                alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB,
                                                options);
    HEIF->decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        set_error(message, error, heif->av1);
        HEIF->image_release(image);
        return -1;
    }
    const int channels = alpha ? 4 : 3;
    const int width = HEIF->image_get_width(image, heif_channel_interleaved);
    const int height = HEIF->image_get_height(image, heif_channel_interleaved);
    int stride = 0;
    const uint8_t *plane = HEIF->image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (plane == NULL || width <= 0 || height <= 0 || stride < width * channels ||
        HEIF->image_get_bits_per_pixel(image, heif_channel_interleaved) != 8 * channels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "unexpected decoded image layout");
        HEIF->image_release(image);
        return -1;
    }
    if (over_limit(width, height, max_pixels, message)) {
        HEIF->image_release(image);
        return -1;
    }
    const size_t row = (size_t)width * (size_t)channels;
    uint8_t *pixels = malloc(row * (size_t)height);
    if (pixels == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        HEIF->image_release(image);
        return -1;
    }
    for (int y = 0; y < height; y++) memcpy(pixels + row * (size_t)y, plane + (size_t)stride * (size_t)y, row);
    HEIF->image_release(image);
    if (alpha && HEIF->image_handle_is_premultiplied_alpha(heif->primary))
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
    if (heif->primary != NULL) HEIF->image_handle_release(heif->primary);
    if (heif->context != NULL) HEIF->context_free(heif->context);
    free(heif->exif_block);
    free(heif->xmp_block);
    free(heif);
}
