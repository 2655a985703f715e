#pragma once
// libjpeg data source over a memory buffer that can leave out the scans of a progressive JPEG
// whose coefficients the chosen DCT scale never reads. Private to the shim.
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <jpeglib.h>

#define PM_JPEG_MAX_SKIPPED_SCANS 64

typedef struct pm_jpeg_source {
    struct jpeg_source_mgr pub;
    const uint8_t *data;
    size_t length;
    // Byte ranges [skip_start, skip_end) left out of the stream, in file order.
    size_t skip_start[PM_JPEG_MAX_SKIPPED_SCANS];
    size_t skip_end[PM_JPEG_MAX_SKIPPED_SCANS];
    int skips;
    int next_skip;
} pm_jpeg_source;

/// Like jpeg_mem_src (an error for empty data; a JWRN_JPEG_EOF warning and a fake EOI at its end),
/// with `source` owned by the caller.
void pm_jpeg_source_install(j_decompress_ptr cinfo, pm_jpeg_source *source,
                            const uint8_t *data, size_t length);

/// Call after jpeg_read_header and jpeg_calc_output_dimensions, before jpeg_start_decompress.
///
/// At a DCT scale where a component is decoded 1x1 per block (1/8 for luma; chroma of a 4:2:0
/// file is decoded 2x2 there), libjpeg's 1x1 inverse DCT reads only the DC coefficient, so the
/// progressive scans carrying that component's AC coefficients cost Huffman decoding (two
/// thirds of a progressive photo's decode time at 1/8) and change no output pixel. This walks the
/// remaining marker structure without decoding it and leaves such scans out of the stream. It
/// leaves the stream whole unless the walk reaches EOI through well-formed segments, the file has
/// at most `max_scans` scans (so the scan limit still trips as before), and the progression
/// completes the AC coefficients that libjpeg's block smoothing estimates (so a full decode would
/// not have smoothed either; the caller turns smoothing off when scans are left out).
/// Returns the number of scans left out.
int pm_jpeg_source_skip_unread_scans(j_decompress_ptr cinfo, int max_scans);
