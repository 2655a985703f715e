// JPEG decoding through libjpeg(-turbo) with setjmp error recovery: never prints, never exits.
#include "jpeg_decode.h"
#include "jpeg_source.h"
#include "color_convert.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <jerror.h>

struct pm_jpeg {
    struct jpeg_decompress_struct cinfo;
    struct jpeg_error_mgr errors;
    struct jpeg_progress_mgr progress;
    pm_jpeg_source source;
    jmp_buf escape;      // re-armed by every entry point before calling into libjpeg
    char *message;       // the current call's message buffer
    int max_scans;       // set by pm_jpeg_decode, checked by limit_scans
    int64_t max_pixels;  // for limit_scans' message
    JOCTET *icc;         // the APP2 ICC_PROFILE chunks reassembled (malloc'd by libjpeg), or NULL
    unsigned int icc_length;
    // The first warning that means damaged data, and where the decoder stood when it came.
    char damage[PM_MESSAGE_CAPACITY];
    int damaged;
    int damage_scan;     // input_scan_number: 1 for the first scan (0 before any SOS)
    JDIMENSION damage_row;  // input_iMCU_row: the iMCU rows of that scan decoded before it
};

// Scans a multi-scan (progressive) file may have, in full passes over an image at the pixel limit.
// libjpeg absorbs every scan before the first output row and each scan walks all of its
// component's blocks, even when its data is one end-of-band run of a few bytes. A valid
// progression can have about 700 scans per component (one per coefficient and bit), so a
// 117 KB file declaring 2048x2048 took 2.7 s and a 2 MB one at 10000x10000 took 49 s to
// decode; real encoders write 10 or so. 16 passes keep the worst case near a second of work.
#define SCAN_PASSES_AT_PIXEL_LIMIT 16
#define MIN_SCANS 16

#define QUOTED(x) #x
#define VERSION_TEXT(x) QUOTED(x)
#ifdef LIBJPEG_TURBO_VERSION
#define LINKED_LIBJPEG VERSION_TEXT(LIBJPEG_TURBO_VERSION)
#else
#define LINKED_LIBJPEG "before 3.0"
#endif

// The lossless processes (SOF3, 7, 11, 15): libjpeg-turbo decodes them from 3.0 on, not 2.1.
static int is_lossless_sof(int marker) {
    return marker == 0xC3 || marker == 0xC7 || marker == 0xCB || marker == 0xCF;
}

static void fail_with_current_message(j_common_ptr cinfo) {
    pm_jpeg *jpeg = (pm_jpeg *)cinfo;  // cinfo is the first member
    const int code = cinfo->err->msg_code;
    if (code == JERR_NO_BACKING_STORE) {
        // libjpeg's wording for "over max_memory_to_use" is about temp files; say what happened.
        snprintf(jpeg->message, PM_MESSAGE_CAPACITY,
                 "multi-scan image needs more than the %ld-byte decoder memory limit",
                 cinfo->mem->max_memory_to_use);
    } else if (code == JERR_SOF_UNSUPPORTED && is_lossless_sof(cinfo->err->msg_parm.i[0])) {
        snprintf(jpeg->message, PM_MESSAGE_CAPACITY,
                 "lossless JPEG (SOF%d) is not supported: libjpeg-turbo %s has no lossless mode "
                 "(it came with libjpeg-turbo 3.0)", cinfo->err->msg_parm.i[0] - 0xC0, LINKED_LIBJPEG);
    } else {
        (*cinfo->err->format_message)(cinfo, jpeg->message);
    }
    longjmp(jpeg->escape, 1);
}

// These warnings describe metadata we ignore; the decoded pixels are complete, so they must not
// reject real-world photos. Every other warning means libjpeg substituted grey or skipped data.
static int warning_is_harmless(int code) {
    return code == JWRN_ADOBE_XFORM || code == JWRN_JFIF_MAJOR || code == JWRN_BOGUS_ICC ||
           code == JWRN_EXTRANEOUS_DATA;
}

// Any other warning means damaged data, after which libjpeg goes on as browsers, Pillow and
// ImageIO do: what decodes is kept and the rest filled in (grey past a truncation, the decoder's
// guess after a bad code). The first is remembered with its position; pm_jpeg_decode judges it.
// Damage libjpeg does not notice stays unreported: its fast Huffman path (jdhuff.c, taken but for
// the last few KB of a scan) decodes a code no table has as 0, silently, as browsers then show it.
static void on_message(j_common_ptr cinfo, int level) {
    pm_jpeg *jpeg = (pm_jpeg *)cinfo;  // cinfo is the first member
    if (level < 0 && !warning_is_harmless(cinfo->err->msg_code) && !jpeg->damaged) {
        (*cinfo->err->format_message)(cinfo, jpeg->damage);
        jpeg->damaged = 1;
        jpeg->damage_scan = jpeg->cinfo.input_scan_number;
        jpeg->damage_row = jpeg->cinfo.input_iMCU_row;
    }
    // Trace messages and warnings are not printed; nothing reaches stderr.
}

// Whether the image holds anything decoded before the first damage: a whole scan, or at least
// one iMCU row of the first. Damage in the headers or the first rows of the first scan leaves
// only what the decoder made up.
static int decoded_before_damage(const pm_jpeg *jpeg) {
    return jpeg->damage_scan > 1 || (jpeg->damage_scan == 1 && jpeg->damage_row > 0);
}

// Says where the damage is, for the image's warning.
static void describe_damage(const pm_jpeg *jpeg, pm_image *out) {
    const struct jpeg_decompress_struct *cinfo = &jpeg->cinfo;
    if (jpeg->damage_scan > 1) {
        pm_image_warn(out, "%s (in scan %d; what the earlier scans decoded is kept)", jpeg->damage, jpeg->damage_scan);
        return;
    }
    const JDIMENSION rows = (JDIMENSION)cinfo->max_v_samp_factor * DCTSIZE * jpeg->damage_row;
    if (rows >= cinfo->image_height)
        pm_image_warn(out, "%s (after the last row: the image is whole)", jpeg->damage);
    else
        pm_image_warn(out, "%s (from row %u of %u on, filled in by the decoder)", jpeg->damage, rows,
                      cinfo->image_height);
}

static void on_output_message(j_common_ptr cinfo) { (void)cinfo; }

// libjpeg's progress hook runs before each iMCU row it absorbs, so this stops at the first row of
// the first scan over the limit.
static void limit_scans(j_common_ptr common) {
    pm_jpeg *jpeg = (pm_jpeg *)common;  // cinfo is the first member
    if (jpeg->cinfo.input_scan_number > jpeg->max_scans) {
        snprintf(jpeg->message, PM_MESSAGE_CAPACITY,
                 "more than %d scans in a %ux%u image, over %d passes at the %lld-pixel limit",
                 jpeg->max_scans, jpeg->cinfo.image_width, jpeg->cinfo.image_height,
                 SCAN_PASSES_AT_PIXEL_LIMIT, (long long)jpeg->max_pixels);
        longjmp(jpeg->escape, 1);
    }
}

static void find_exif(struct jpeg_decompress_struct *cinfo, pm_jpeg_header *header) {
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length >= 6 && memcmp(m->data, "Exif\0\0", 6) == 0) {
            header->exif = m->data;
            header->exif_length = m->data_length;
            return;
        }
    }
}

static const char xmp_namespace[] = "http://ns.adobe.com/xap/1.0/";  // with its NUL, as stored

static const uint8_t *find_xmp(struct jpeg_decompress_struct *cinfo, size_t *length) {
    const size_t prefix = sizeof xmp_namespace;
    for (jpeg_saved_marker_ptr m = cinfo->marker_list; m != NULL; m = m->next) {
        if (m->marker == JPEG_APP0 + 1 && m->data_length > prefix && memcmp(m->data, xmp_namespace, prefix) == 0) {
            *length = m->data_length - prefix;
            return m->data + prefix;
        }
    }
    *length = 0;
    return NULL;
}

pm_jpeg *pm_jpeg_open(const uint8_t *data, size_t length, size_t max_memory,
                      pm_jpeg_header *header, char *message) {
    memset(header, 0, sizeof *header);
    pm_jpeg *jpeg = calloc(1, sizeof *jpeg);
    if (jpeg == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    jpeg->message = message;
    jpeg->cinfo.err = jpeg_std_error(&jpeg->errors);
    jpeg->errors.error_exit = fail_with_current_message;
    jpeg->errors.emit_message = on_message;
    jpeg->errors.output_message = on_output_message;
    if (setjmp(jpeg->escape)) {
        jpeg_destroy_decompress(&jpeg->cinfo);  // safe on a zeroed struct: it checks cinfo->mem
        free(jpeg);
        return NULL;
    }
    jpeg_create_decompress(&jpeg->cinfo);
    jpeg->cinfo.mem->max_memory_to_use = (long)max_memory;
    pm_jpeg_source_install(&jpeg->cinfo, &jpeg->source, data, length);
    jpeg_save_markers(&jpeg->cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_save_markers(&jpeg->cinfo, JPEG_APP0 + 2, 0xFFFF);  // ICC_PROFILE chunks
    jpeg_read_header(&jpeg->cinfo, TRUE);
    // Chunks out of sequence or missing make libjpeg warn (JWRN_BOGUS_ICC) and return nothing:
    // the image is then shown untagged, as an unreadable profile would be.
    if (!jpeg_read_icc_profile(&jpeg->cinfo, &jpeg->icc, &jpeg->icc_length)) {
        jpeg->icc = NULL;
        jpeg->icc_length = 0;
    }

    header->width = (int)jpeg->cinfo.image_width;
    header->height = (int)jpeg->cinfo.image_height;
    header->components = jpeg->cinfo.num_components;
    header->progressive = jpeg->cinfo.progressive_mode;
    find_exif(&jpeg->cinfo, header);
    header->xmp = find_xmp(&jpeg->cinfo, &header->xmp_length);
    header->icc_length = jpeg->icc_length;
    return jpeg;
}

// Adobe writers store CMYK inverted (255 = no ink); YCCK always comes from them.
static void cmyk_row_to_rgb(const uint8_t *cmyk, uint8_t *rgb, int width, int inverted) {
    for (int x = 0; x < width; x++, cmyk += 4, rgb += 3) {
        unsigned k = inverted ? cmyk[3] : 255u - cmyk[3];
        for (int c = 0; c < 3; c++) {
            unsigned v = inverted ? cmyk[c] : 255u - cmyk[c];
            rgb[c] = (uint8_t)((v * k + 127) / 255);
        }
    }
}

int pm_jpeg_decode(pm_jpeg *jpeg, int scale_eighths, int64_t max_pixels,
                   pm_image *out, char *message) {
    struct jpeg_decompress_struct *cinfo = &jpeg->cinfo;
    uint8_t *volatile pixels = NULL;
    uint8_t *volatile cmyk_row = NULL;
    pm_color_transform *volatile cmyk_transform = NULL;
    memset(out, 0, sizeof *out);
    jpeg->message = message;
    if (setjmp(jpeg->escape)) {
        free(pixels);
        free(cmyk_row);
        pm_color_transform_release(cmyk_transform);
        return -1;
    }
    if (scale_eighths < 1 || scale_eighths > 8) {
        snprintf(message, PM_MESSAGE_CAPACITY, "scale %d/8 is outside 1/8...8/8", scale_eighths);
        return -1;
    }
    cinfo->scale_num = (unsigned)scale_eighths;
    cinfo->scale_denom = 8;
    int is_cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    cinfo->out_color_space = is_cmyk ? JCS_CMYK : JCS_RGB;  // libjpeg expands grey to RGB itself
    jpeg_calc_output_dimensions(cinfo);

    const int width = (int)cinfo->output_width, height = (int)cinfo->output_height;
    if ((int64_t)width * height > max_pixels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "decoded size %dx%d is over the %lld-pixel limit",
                 width, height, (long long)max_pixels);
        return -1;
    }
    const int64_t declared = (int64_t)cinfo->image_width * cinfo->image_height;  // > 0: checked by libjpeg
    const int64_t scans = max_pixels > INT64_MAX / SCAN_PASSES_AT_PIXEL_LIMIT
        ? INT32_MAX : SCAN_PASSES_AT_PIXEL_LIMIT * max_pixels / declared;
    jpeg->max_scans = scans < MIN_SCANS ? MIN_SCANS : scans > INT32_MAX ? INT32_MAX : (int)scans;
    jpeg->max_pixels = max_pixels;
    jpeg->progress.progress_monitor = limit_scans;
    cinfo->progress = &jpeg->progress;
    // Progressive scans that only refine coefficients this scale never reads are left unread.
    // Block smoothing would estimate exactly those coefficients; the source only leaves scans
    // out when a full decode would not have smoothed, and then it must stay off.
    if (pm_jpeg_source_skip_unread_scans(cinfo, jpeg->max_scans) > 0) cinfo->do_block_smoothing = FALSE;
    jpeg_start_decompress(cinfo);
    const size_t stride = (size_t)width * 3;
    pixels = malloc(stride * (size_t)height);
    if (is_cmyk) cmyk_row = malloc((size_t)width * 4);
    if (pixels == NULL || (is_cmyk && cmyk_row == NULL)) ERREXIT1(cinfo, JERR_OUT_OF_MEMORY, 0);
    // CMYK has no meaning without a profile: the embedded one, else the built-in one (as
    // libvips does); the naive formula only when neither can be loaded.
    if (is_cmyk) cmyk_transform = pm_color_cmyk_transform(jpeg->icc, jpeg->icc_length, cinfo->saw_Adobe_marker);

    while (cinfo->output_scanline < cinfo->output_height) {
        const JDIMENSION y = cinfo->output_scanline;
        if (is_cmyk) {
            JSAMPROW row = cmyk_row;
            if (jpeg_read_scanlines(cinfo, &row, 1) != 1)
                ERREXIT(cinfo, JERR_INPUT_EOF);  // a memory source never suspends; don't spin
            if (cmyk_transform != NULL)
                pm_color_transform_cmyk_row(cmyk_transform, cmyk_row, pixels + stride * y, width);
            else
                cmyk_row_to_rgb(cmyk_row, pixels + stride * y, width, cinfo->saw_Adobe_marker);
        } else {
            // Handing libjpeg several rows at once avoids its internal spare-row copying.
            JSAMPROW rows[16];
            JDIMENSION count = cinfo->output_height - y;
            if (count > 16) count = 16;
            for (JDIMENSION i = 0; i < count; i++) rows[i] = pixels + stride * (y + i);
            if (jpeg_read_scanlines(cinfo, rows, count) == 0) ERREXIT(cinfo, JERR_INPUT_EOF);
        }
    }
    // Reads through EOI, so a file truncated after the last scanline still gets its warning.
    jpeg_finish_decompress(cinfo);
    free(cmyk_row);
    pm_color_transform_release(cmyk_transform);
    if (jpeg->damaged && !decoded_before_damage(jpeg)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "%s (before any row decoded)", jpeg->damage);
        free(pixels);
        return -1;
    }
    if (jpeg->damaged) describe_damage(jpeg, out);
    // A CMYK image is sRGB now; an RGB or grey one carries its profile to the colour stage.
    if (!is_cmyk && jpeg->icc != NULL) {
        out->icc = malloc(jpeg->icc_length);
        if (out->icc != NULL) {
            memcpy(out->icc, jpeg->icc, jpeg->icc_length);
            out->icc_length = jpeg->icc_length;
        }
    }
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->channels = 3;
    return 0;
}

void pm_jpeg_close(pm_jpeg *jpeg) {
    if (jpeg == NULL) return;
    free(jpeg->icc);
    jpeg_destroy_decompress(&jpeg->cinfo);
    free(jpeg);
}
