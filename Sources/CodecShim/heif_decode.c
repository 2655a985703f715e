// HEIF (HEVC) and AVIF (AV1) decoding through libheif: never prints, never exits.
#include "heif_decode.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "heif_boxes.h"
#include "heif_library.h"
#include "heif_planar.h"

// Every call into libheif below runs after pm_heif_open has loaded it (pm_heif_library_load).
#define HEIF (pm_heif_library_get())

struct pm_heif {
    struct heif_context *context;
    struct heif_image_handle *primary;
    int av1;  // which plugin a missing-codec message names
    uint8_t *exif_block;  // the primary item's metadata as libheif gives it; the header points in
    uint8_t *xmp_block;
    uint8_t *rewritten;   // the file with the boxes libheif must read otherwise, or NULL
    pm_heif_boxes boxes;
    pm_heif_header header;
};

// libheif's own default side limit; a larger pixel limit must not loosen it.
#define LIBHEIF_MAX_SIDE 32768
// The largest block a coded picture's sides are a multiple of (HEVC's coding tree blocks).
#define CODED_BLOCK 64

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
    const uint8_t *block = heif->exif_block;
    const uint32_t offset = block != NULL && length >= 4
        ? (uint32_t)block[0] << 24 | (uint32_t)block[1] << 16 | (uint32_t)block[2] << 8 | block[3] : UINT32_MAX;
    if (block != NULL && length >= 4 && offset < length - 4) {
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

// The bytes libheif reads: the file itself, or a copy with the boxes it would misread rewritten
// in place (no offset moves): an image sequence's brand it does not accept, and YCgCo-R colour
// boxes, which name identity (GBR) instead so that libheif hands their planes through for
// heif_planar.c. NULL when out of memory.
static const uint8_t *bytes_for_libheif(pm_heif *heif, const uint8_t *data, size_t length) {
    const pm_heif_boxes *boxes = &heif->boxes;
    const int ycgco = boxes->ycgco_matrix != 0 && boxes->ycgco_matrix_count > 0;
    if (boxes->sequence_brand_at == 0 && !ycgco) return data;
    heif->rewritten = malloc(length);
    if (heif->rewritten == NULL) return NULL;
    memcpy(heif->rewritten, data, length);
    if (boxes->sequence_brand_at != 0) memcpy(heif->rewritten + boxes->sequence_brand_at, "mif1", 4);
    for (int i = 0; ycgco && i < boxes->ycgco_matrix_count; i++) {
        heif->rewritten[boxes->ycgco_matrix_at[i]] = 0;
        heif->rewritten[boxes->ycgco_matrix_at[i] + 1] = 0;
    }
    return heif->rewritten;
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
    pm_heif_read_boxes(data, length, &heif->boxes);
    if (heif->boxes.sequence && !heif->boxes.has_meta) {
        // libheif 1.15 reads items only; image sequences (moov tracks) came with libheif 1.20.
        snprintf(message, PM_MESSAGE_CAPACITY,
                 "an image sequence without a still image (no meta box): libheif 1.15 reads no tracks");
        pm_heif_close(heif);
        return NULL;
    }
    data = bytes_for_libheif(heif, data, length);
    if (data == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        pm_heif_close(heif);
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
    header->canvas_width = heif->boxes.canvas_width;
    header->canvas_height = heif->boxes.canvas_height;
    header->has_transform = heif->boxes.has_transform;
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

// How the primary image becomes 8-bit RGB(A): libheif converts, except the two cases it gets
// wrong, which heif_planar.c converts from the samples it decodes.
enum decoding { BY_LIBHEIF, MONOCHROME, YCGCO_R };

static enum decoding decoding_of(const pm_heif *heif) {
    if (heif->boxes.monochrome) return MONOCHROME;
    if (heif->boxes.ycgco_matrix != 0 && heif->boxes.ycgco_matrix_count > 0) return YCGCO_R;
    return BY_LIBHEIF;
}

// libheif's interleaved 8-bit RGB(A), row by row. 0, or -1 when it is laid out otherwise.
static int libheif_pixels(const struct heif_image *image, int channels, int width, int height, uint8_t *pixels) {
    int stride = 0;
    const uint8_t *plane = HEIF->image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    if (plane == NULL || stride < width * channels ||
        HEIF->image_get_bits_per_pixel(image, heif_channel_interleaved) != 8 * channels)
        return -1;
    const size_t row = (size_t)width * (size_t)channels;
    for (int y = 0; y < height; y++) memcpy(pixels + row * (size_t)y, plane + (size_t)stride * (size_t)y, row);
    return 0;
}

static int plane_of(const struct heif_image *image, enum heif_channel channel, int width, int height, pm_plane *plane) {
    int stride = 0;
    plane->data = HEIF->image_get_plane_readonly(image, channel, &stride);
    plane->depth = HEIF->image_get_bits_per_pixel_range(image, channel);
    plane->stride = stride > 0 ? (size_t)stride : 0;
    if (plane->data == NULL || plane->depth < 1 || plane->depth > 16 ||
        HEIF->image_get_width(image, channel) != width || HEIF->image_get_height(image, channel) != height)
        return -1;
    return plane->stride >= (size_t)width * (plane->depth > 8 ? 2 : 1) ? 0 : -1;
}

// A 4:0:0 image as decoded (luma and alpha planes), its range from its nclx: the colr box's, else
// the bitstream's; full (libheif's default) when neither gives one.
static int monochrome_pixels(const struct heif_image *image, int alpha, int width, int height, uint8_t *pixels) {
    pm_plane luma, transparency;
    if (HEIF->image_get_chroma_format(image) != heif_chroma_monochrome ||
        plane_of(image, heif_channel_Y, width, height, &luma) != 0 || luma.depth < 8)
        return -1;
    const int has_alpha = alpha && HEIF->image_has_channel(image, heif_channel_Alpha);
    if (alpha && (!has_alpha || plane_of(image, heif_channel_Alpha, width, height, &transparency) != 0)) return -1;
    int full_range = 1;
    struct heif_color_profile_nclx *nclx = NULL;
    if (HEIF->image_get_nclx_color_profile(image, &nclx).code == heif_error_Ok && nclx != NULL)
        full_range = nclx->full_range_flag != 0;
    HEIF->nclx_color_profile_free(nclx);
    pm_monochrome_to_rgb8(luma, has_alpha ? &transparency : NULL, full_range, width, height, pixels);
    return 0;
}

// YCgCo-R planes, which libheif decoded as identity (see bytes_for_libheif) to RRGGBB(AA).
static int ycgco_r_pixels(const struct heif_image *image, int matrix, int alpha, int width, int height, uint8_t *pixels) {
    int stride = 0;
    const uint8_t *plane = HEIF->image_get_plane_readonly(image, heif_channel_interleaved, &stride);
    const int depth = HEIF->image_get_bits_per_pixel_range(image, heif_channel_interleaved);
    const int channels = alpha ? 4 : 3;
    // Re takes 2 bits more than the RGB it codes, Ro 1: at least 9 bits (AV1 has 10 and 12).
    if (plane == NULL || depth < 9 || depth > 16 || stride < width * channels * 2) return -1;
    pm_ycgco_r_to_rgb8(plane, (size_t)stride, depth, matrix, alpha, width, height, pixels);
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
    // The limit also bounds the coded picture (libheif 1.15.1-1+deb12u2 on), which is the shown
    // one rounded up to the codec's blocks and cropped after decoding: HEVC's coding blocks are up
    // to 64 samples a side. Never above libheif's own default.
    const int64_t coded = ((int64_t)side + CODED_BLOCK) / CODED_BLOCK * CODED_BLOCK;
    if (side < LIBHEIF_MAX_SIDE)
        HEIF->context_set_maximum_image_size_limit(heif->context, (int)(coded < LIBHEIF_MAX_SIDE ? coded : LIBHEIF_MAX_SIDE));

    const enum decoding how = decoding_of(heif);
    if (how == YCGCO_R && !heif->boxes.ycgco_full_range) {
        snprintf(message, PM_MESSAGE_CAPACITY,
                 "YCgCo-R (matrix %d) in limited range, which H.273 does not define (libavif refuses it too)",
                 heif->boxes.ycgco_matrix);
        return -1;
    }
    struct heif_decoding_options *options = HEIF->decoding_options_alloc();
    if (options == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    // Interleaved 8-bit output (libheif scales 10/12-bit down), except where heif_planar.c
    // converts: it needs the samples as decoded.
    options->convert_hdr_to_8bit = how == BY_LIBHEIF;
    const int alpha = h->has_alpha;
    enum heif_colorspace colorspace = heif_colorspace_RGB;
    enum heif_chroma chroma = alpha ? heif_chroma_interleaved_RGBA : heif_chroma_interleaved_RGB;
    if (how == MONOCHROME) colorspace = heif_colorspace_undefined, chroma = heif_chroma_undefined;
    if (how == YCGCO_R) chroma = alpha ? heif_chroma_interleaved_RRGGBBAA_LE : heif_chroma_interleaved_RRGGBB_LE;
    struct heif_image *image = NULL;
    struct heif_error error = HEIF->decode_image(heif->primary, &image, colorspace, chroma, options);
    HEIF->decoding_options_free(options);
    if (error.code != heif_error_Ok) {
        set_error(message, error, heif->av1);
        HEIF->image_release(image);
        return -1;
    }
    const int channels = alpha ? 4 : 3;
    const enum heif_channel channel = how == MONOCHROME ? heif_channel_Y : heif_channel_interleaved;
    const int width = HEIF->image_get_width(image, channel);
    const int height = HEIF->image_get_height(image, channel);
    if (width <= 0 || height <= 0 || over_limit(width, height, max_pixels, message)) {
        if (width <= 0 || height <= 0) snprintf(message, PM_MESSAGE_CAPACITY, "unexpected decoded image layout");
        HEIF->image_release(image);
        return -1;
    }
    uint8_t *pixels = malloc((size_t)width * (size_t)channels * (size_t)height);
    if (pixels == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        HEIF->image_release(image);
        return -1;
    }
    const int converted = how == MONOCHROME ? monochrome_pixels(image, alpha, width, height, pixels)
                        : how == YCGCO_R ? ycgco_r_pixels(image, heif->boxes.ycgco_matrix, alpha, width, height, pixels)
                        : libheif_pixels(image, channels, width, height, pixels);
    if (converted != 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "unexpected decoded image layout");
        free(pixels);
        HEIF->image_release(image);
        return -1;
    }
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
    free(heif->rewritten);
    free(heif->exif_block);
    free(heif->xmp_block);
    free(heif);
}
