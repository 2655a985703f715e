// Reading a HEIF/AVIF file's boxes for what libheif 1.15's API does not tell. See heif_boxes.h.
#include "heif_boxes.h"

#include <limits.h>
#include <string.h>

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
static void read_canvas(span file, span meta, uint32_t primary, pm_heif_boxes *boxes) {
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
        boxes->canvas_width = w > INT_MAX ? INT_MAX : (int)w;
        boxes->canvas_height = h > INT_MAX ? INT_MAX : (int)h;
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

// --- what the primary image is coded as -----------------------------------------------------------
// libheif 1.15 converts a 4:0:0 image to RGB by copying its luma, ignoring a limited range, and
// converts YCgCo-R (H.273 matrices 16 and 17, which it does not know) as BT.601. heif_decode.c
// decodes those itself; these say which they are, before anything is decoded.

// The `nth` (1-based) property of ipco, or 0.
static int ipco_property(span ipco, uint64_t nth, const uint8_t **type, span *payload) {
    size_t at = 0;
    uint64_t index = 0;
    while (index < nth && next_box(ipco, &at, type, payload)) {
        if (++index == nth) return 1;
    }
    return 0;
}

// The first property of `type` associated with `item` (with `colour_type` first in its payload,
// when given: colr boxes of type nclx or prof), from the item's first ipma entry; 0 when none.
static int item_property(span meta, uint32_t item, const char *type, const char *colour_type, span *found) {
    span iprp, ipco, payload;
    if (!find_box(meta, "iprp", &iprp) || !find_box(iprp, "ipco", &ipco)) return 0;
    const uint8_t *box_type;
    size_t at = 0;
    while (next_box(iprp, &at, &box_type, &payload)) {
        if (memcmp(box_type, "ipma", 4) != 0) continue;
        uint64_t version, flags, count;
        if (!read_uint(payload, 0, 1, &version) || !read_uint(payload, 1, 3, &flags) ||
            !read_uint(payload, 4, 4, &count))
            return 0;
        const int id_bytes = version < 1 ? 2 : 4, index_bytes = (flags & 1) ? 2 : 1;
        const uint64_t index_mask = (flags & 1) ? 0x7FFF : 0x7F;
        size_t p = 8;
        for (uint64_t i = 0; i < count; i++) {
            uint64_t id, associations;
            if (!read_uint(payload, p, id_bytes, &id) || !read_uint(payload, p + (size_t)id_bytes, 1, &associations))
                return 0;
            p += (size_t)id_bytes + 1;
            if ((payload.n - p) / (size_t)index_bytes < associations) return 0;
            if (id != item) {
                p += (size_t)associations * (size_t)index_bytes;
                continue;
            }
            for (uint64_t j = 0; j < associations; j++) {
                uint64_t value;
                read_uint(payload, p + (size_t)j * (size_t)index_bytes, index_bytes, &value);
                const uint8_t *property_type;
                span property;
                if (ipco_property(ipco, value & index_mask, &property_type, &property) &&
                    memcmp(property_type, type, 4) == 0 &&
                    (colour_type == NULL || (property.n >= 4 && memcmp(property.p, colour_type, 4) == 0))) {
                    *found = property;
                    return 1;
                }
            }
            return 0;
        }
    }
    return 0;
}

// The first item a `dimg` reference of `item` names (a grid's or overlay's first tile), or 0.
static uint32_t first_input(span meta, uint32_t item) {
    span iref;
    uint64_t version;
    if (!find_box(meta, "iref", &iref) || iref.n < 4 || !read_uint(iref, 0, 1, &version)) return 0;
    const int id_bytes = version == 0 ? 2 : 4;
    const span references = {iref.p + 4, iref.n - 4};  // after version and flags (read above)
    const uint8_t *type;
    span reference;
    size_t at = 0;
    while (next_box(references, &at, &type, &reference)) {
        uint64_t from, count, to;
        if (memcmp(type, "dimg", 4) != 0 || !read_uint(reference, 0, id_bytes, &from) || from != item) continue;
        if (!read_uint(reference, (size_t)id_bytes, 2, &count) || count == 0 ||
            !read_uint(reference, (size_t)id_bytes + 2, id_bytes, &to))
            return 0;
        return (uint32_t)to;
    }
    return 0;
}

// Whether `item`'s codec configuration says 4:0:0: av1C's mono_chrome bit, or hvcC's
// chroma_format_idc of 0 (byte 16, after the profile, level and segmentation fields).
static int coded_monochrome(span meta, uint32_t item) {
    span config;
    if (item_property(meta, item, "av1C", NULL, &config)) return config.n >= 3 && (config.p[2] & 0x10) != 0;
    if (item_property(meta, item, "hvcC", NULL, &config)) return config.n >= 17 && (config.p[16] & 3) == 0;
    return 0;
}

// nclx: colour type, primaries, transfer and matrix (16 bits each), then the full-range bit.
static int nclx_matrix(span nclx) { return nclx.n >= 11 ? nclx.p[8] << 8 | nclx.p[9] : -1; }

static int is_ycgco_r(int matrix) { return matrix == 16 || matrix == 17; }

static void find_ycgco_colr(span file, span meta, pm_heif_boxes *boxes) {
    span iprp, ipco, payload;
    if (!find_box(meta, "iprp", &iprp) || !find_box(iprp, "ipco", &ipco)) return;
    const uint8_t *type;
    size_t at = 0;
    while (next_box(ipco, &at, &type, &payload)) {
        if (memcmp(type, "colr", 4) != 0 || payload.n < 11 || memcmp(payload.p, "nclx", 4) != 0) continue;
        if (!is_ycgco_r(nclx_matrix(payload))) continue;
        if (boxes->ycgco_matrix_count == PM_HEIF_MAX_PATCHED_COLR) {
            boxes->ycgco_matrix_count = -1;  // more than any writer makes: left to libheif
            return;
        }
        boxes->ycgco_matrix_at[boxes->ycgco_matrix_count++] = (size_t)(payload.p + 8 - file.p);
    }
}

// --- the file type ------------------------------------------------------------------------------

static int brand_is(const uint8_t *brand, const char *name) { return memcmp(brand, name, 4) == 0; }

static int sequence_brand(const uint8_t *brand) {
    return brand_is(brand, "avis") || brand_is(brand, "msf1") || brand_is(brand, "hevs");
}

// libheif 1.15 opens only files whose compatible brands include heic, heix, mif1 or avif. An
// image sequence may list none of them (Netflix's AVIF sequences: avis, msf1, miaf, MA1B, iso8)
// and still carry its first frame as the primary item. The brand to rewrite is the sequence's
// own (avis, else msf1, hevs), else the first compatible one; in place, so that no offset moves.
static void read_file_type(span file, pm_heif_boxes *boxes) {
    uint64_t size;
    if (file.n < 16 || !read_uint(file, 0, 4, &size) || memcmp(file.p + 4, "ftyp", 4) != 0 || size < 16 || size > file.n)
        return;
    boxes->sequence = sequence_brand(file.p + 8);
    size_t slot = 0;
    for (size_t at = 16; at + 4 <= size; at += 4) {
        const uint8_t *brand = file.p + at;
        if (brand_is(brand, "heic") || brand_is(brand, "heix") || brand_is(brand, "mif1") || brand_is(brand, "avif"))
            return;  // libheif takes the file as it is
        if (sequence_brand(brand)) {
            boxes->sequence = 1;
            if (slot == 0 || !sequence_brand(file.p + slot)) slot = at;
        } else if (slot == 0) {
            slot = at;
        }
    }
    if (boxes->sequence) boxes->sequence_brand_at = slot;
}

void pm_heif_read_boxes(const uint8_t *data, size_t length, pm_heif_boxes *boxes) {
    memset(boxes, 0, sizeof *boxes);
    boxes->has_transform = 1;
    span file = {data, length}, meta, pitm;
    read_file_type(file, boxes);
    if (!find_box(file, "meta", &meta) || meta.n < 4) return;
    boxes->has_meta = 1;
    meta = (span){meta.p + 4, meta.n - 4};  // a full box: version and flags first
    find_ycgco_colr(file, meta, boxes);
    uint64_t version, primary;
    if (!find_box(meta, "pitm", &pitm) || !read_uint(pitm, 0, 1, &version) ||
        !read_uint(pitm, 4, version ? 4 : 2, &primary))
        return;
    const uint32_t item = (uint32_t)primary;
    read_canvas(file, meta, item, boxes);
    boxes->has_transform = has_transform(meta, item);
    // A grid or overlay is coded in its tiles; it may carry colr itself, else its tiles do.
    char kind[4];
    span iinf, nclx;
    const int coded = find_box(meta, "iinf", &iinf) && item_type(iinf, item, kind) &&
                      (memcmp(kind, "av01", 4) == 0 || memcmp(kind, "hvc1", 4) == 0);
    const uint32_t tile = coded ? item : first_input(meta, item);
    boxes->monochrome = tile != 0 && coded_monochrome(meta, tile);
    if (item_property(meta, item, "colr", "nclx", &nclx) || (tile != 0 && item_property(meta, tile, "colr", "nclx", &nclx))) {
        const int matrix = nclx_matrix(nclx);
        if (is_ycgco_r(matrix)) {
            boxes->ycgco_matrix = matrix;
            boxes->ycgco_full_range = (nclx.p[10] & 0x80) != 0;
        }
    }
}
