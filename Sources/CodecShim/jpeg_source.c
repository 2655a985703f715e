// A memory source for libjpeg that can leave out progressive scans no output pixel depends on.
// See jpeg_source.h. Everything here reads only marker structure, bounds-checked against length.
#include "jpeg_source.h"

#include <string.h>
#include <jerror.h>

// Marker codes jpeglib.h does not name (ITU T.81 table B.1).
enum { MARKER_DHT = 0xC4, MARKER_SOS = 0xDA, MARKER_DQT = 0xDB, MARKER_DNL = 0xDC, MARKER_DRI = 0xDD };

static const JOCTET fake_eoi[2] = {0xFF, JPEG_EOI};

static void init_source(j_decompress_ptr cinfo) { (void)cinfo; }
static void term_source(j_decompress_ptr cinfo) { (void)cinfo; }

// The next kept range, then (as jpeg_mem_src does) a warning and a fake EOI: a truncated file.
static boolean fill_input_buffer(j_decompress_ptr cinfo) {
    pm_jpeg_source *source = (pm_jpeg_source *)cinfo->src;
    while (source->next_skip < source->skips) {
        const size_t from = source->skip_end[source->next_skip++];
        const size_t to = source->next_skip < source->skips ? source->skip_start[source->next_skip]
                                                            : source->length;
        if (to > from) {
            source->pub.next_input_byte = source->data + from;
            source->pub.bytes_in_buffer = to - from;
            return TRUE;
        }
    }
    WARNMS(cinfo, JWRN_JPEG_EOF);
    source->pub.next_input_byte = fake_eoi;
    source->pub.bytes_in_buffer = 2;
    return TRUE;
}

static void skip_input_data(j_decompress_ptr cinfo, long count) {
    struct jpeg_source_mgr *source = cinfo->src;
    if (count <= 0) return;
    while ((size_t)count > source->bytes_in_buffer) {
        count -= (long)source->bytes_in_buffer;
        (void)fill_input_buffer(cinfo);  // never suspends
    }
    source->next_input_byte += count;
    source->bytes_in_buffer -= (size_t)count;
}

void pm_jpeg_source_install(j_decompress_ptr cinfo, pm_jpeg_source *source,
                            const uint8_t *data, size_t length) {
    if (length == 0) ERREXIT(cinfo, JERR_INPUT_EMPTY);  // as jpeg_mem_src
    memset(source, 0, sizeof *source);
    source->data = data;
    source->length = length;
    source->pub.init_source = init_source;
    source->pub.fill_input_buffer = fill_input_buffer;
    source->pub.skip_input_data = skip_input_data;
    source->pub.resync_to_restart = jpeg_resync_to_restart;
    source->pub.term_source = term_source;
    source->pub.next_input_byte = data;
    source->pub.bytes_in_buffer = length;
    cinfo->src = &source->pub;
}

// Offset of the 0xFF that starts the first marker at or after `at` in entropy-coded data
// (stuffed 0xFF00, restart markers and 0xFF fill bytes are part of the data), or `length`.
static size_t next_marker(const uint8_t *data, size_t length, size_t at) {
    while (at + 1 < length) {
        const uint8_t *ff = memchr(data + at, 0xFF, length - at - 1);
        if (ff == NULL) return length;
        at = (size_t)(ff - data);
        const uint8_t code = data[at + 1];
        if (code == 0x00 || (code >= JPEG_RST0 && code <= JPEG_RST0 + 7)) at += 2;
        else if (code == 0xFF) at += 1;
        else return at;
    }
    return length;
}

static int component_index(j_decompress_ptr cinfo, int id) {
    for (int i = 0; i < cinfo->num_components; i++)
        if (cinfo->comp_info[i].component_id == id) return i;
    return -1;
}

// libjpeg's 1x1 inverse DCT (jidctred.c) reads coefficient 0 and nothing else.
static int reads_dc_only(const jpeg_component_info *component) {
#if JPEG_LIB_VERSION >= 70
    return component->DCT_h_scaled_size == 1 && component->DCT_v_scaled_size == 1;
#else
    return component->DCT_scaled_size == 1;
#endif
}

// Segments that may sit between two scans and carry no entropy-coded data.
static int is_table_or_misc(uint8_t code) {
    return code == MARKER_DHT || code == MARKER_DQT || code == MARKER_DRI || code == MARKER_DNL ||
           code == JPEG_COM || (code >= JPEG_APP0 && code <= JPEG_APP0 + 15);
}

// libjpeg's own limit on components in a frame (jmorecfg.h MAX_COMPONENTS, not exported).
#define MAX_FRAME_COMPONENTS 10

// libjpeg's coef_bits bookkeeping (the last Al per zigzag position), for the positions 1-5 whose
// precision decides whether block smoothing runs (jdcoefct.c, smoothing_ok).
#define SMOOTHED_END 6
static void record_scan(int bits[][SMOOTHED_END], int component, int ss, int se, int al) {
    for (int k = ss < 1 ? 1 : ss; k <= se && k < SMOOTHED_END; k++) bits[component][k] = al;
}

int pm_jpeg_source_skip_unread_scans(j_decompress_ptr cinfo, int max_scans) {
    pm_jpeg_source *source = (pm_jpeg_source *)cinfo->src;
    if (!cinfo->progressive_mode || cinfo->arith_code || source->skips != 0 ||
        cinfo->num_components > MAX_FRAME_COMPONENTS)
        return 0;
    int any_dc_only = 0;
    for (int i = 0; i < cinfo->num_components; i++) any_dc_only |= reads_dc_only(&cinfo->comp_info[i]);
    if (!any_dc_only) return 0;

    int bits[MAX_FRAME_COMPONENTS][SMOOTHED_END];
    for (int c = 0; c < MAX_FRAME_COMPONENTS; c++)
        for (int k = 0; k < SMOOTHED_END; k++) bits[c][k] = -1;
    // The first scan's header is already read: libjpeg stands at its entropy-coded data.
    for (int i = 0; i < cinfo->comps_in_scan; i++)
        record_scan(bits, cinfo->cur_comp_info[i]->component_index, cinfo->Ss, cinfo->Se, cinfo->Al);

    const uint8_t *const data = source->data;
    const size_t length = source->length;
    const size_t start = (size_t)(source->pub.next_input_byte - data);
    size_t starts[PM_JPEG_MAX_SKIPPED_SCANS], ends[PM_JPEG_MAX_SKIPPED_SCANS];
    int skips = 0, scans = 1;
    size_t at = next_marker(data, length, start);
    for (;;) {
        if (at + 2 > length || data[at] != 0xFF) return 0;  // truncated or garbage: keep all
        const uint8_t code = data[at + 1];
        if (code == JPEG_EOI) break;
        if (at + 4 > length) return 0;
        const size_t segment = (size_t)data[at + 2] << 8 | data[at + 3];
        if (segment < 2 || segment > length - at - 2) return 0;
        if (code == MARKER_SOS) {
            const uint8_t *header = data + at + 4;
            const int count = segment >= 3 ? header[0] : 0;
            if (count < 1 || count > MAX_COMPS_IN_SCAN || segment != (size_t)(6 + 2 * count)) return 0;
            const int ss = header[1 + 2 * count], se = header[2 + 2 * count];
            const int al = header[3 + 2 * count] & 15;
            int first = -1;
            for (int i = 0; i < count; i++) {
                const int component = component_index(cinfo, header[1 + 2 * i]);
                if (component < 0) return 0;  // libjpeg rejects it; let it say so
                if (i == 0) first = component;
                record_scan(bits, component, ss, se, al);
            }
            if (++scans > max_scans) return 0;  // the scan limit must trip as it did
            const size_t end = next_marker(data, length, at + 2 + segment);
            if (count == 1 && ss > 0 && ss <= se && se < DCTSIZE2 && reads_dc_only(&cinfo->comp_info[first])) {
                if (skips == PM_JPEG_MAX_SKIPPED_SCANS) return 0;
                starts[skips] = at;
                ends[skips] = end;
                skips++;
            }
            at = end;
        } else if (is_table_or_misc(code)) {
            at += 2 + segment;
            while (at + 1 < length && data[at] == 0xFF && data[at + 1] == 0xFF) at++;  // fill bytes
        } else {
            return 0;  // another frame, a stray restart marker...: not a plain progression
        }
    }
    if (skips == 0) return 0;
    for (int c = 0; c < cinfo->num_components; c++)
        for (int k = 1; k < SMOOTHED_END; k++)
            if (bits[c][k] != 0) return 0;  // a full decode would smooth: keep every scan

    memcpy(source->skip_start, starts, sizeof(size_t) * (size_t)skips);
    memcpy(source->skip_end, ends, sizeof(size_t) * (size_t)skips);
    source->skips = skips;
    source->next_skip = 0;
    source->pub.bytes_in_buffer = starts[0] - start;
    return skips;
}
