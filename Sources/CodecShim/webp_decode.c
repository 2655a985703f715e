// WebP decoding through libwebp: WebPDemux for the container (animation, ICCP, EXIF), WebPDecode
// for the first frame. libwebp reports errors as status codes and never prints or aborts.
#include "webp_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/decode.h>
#include <webp/demux.h>

struct pm_webp {
    WebPDemuxer *demux;
    WebPIterator frame;   // the first frame; its fragment points into the input
    int has_frame;
    pm_webp_header header;
};

static const char *status_words(VP8StatusCode status) {
    switch (status) {
    case VP8_STATUS_OK: return "no error";
    case VP8_STATUS_OUT_OF_MEMORY: return "out of memory";
    case VP8_STATUS_INVALID_PARAM: return "invalid decoding parameters";
    case VP8_STATUS_BITSTREAM_ERROR: return "corrupt bitstream";
    case VP8_STATUS_UNSUPPORTED_FEATURE: return "unsupported feature";
    case VP8_STATUS_SUSPENDED: return "decoding suspended";
    case VP8_STATUS_USER_ABORT: return "decoding aborted";
    case VP8_STATUS_NOT_ENOUGH_DATA: return "truncated data";
    }
    return "unknown decoder status";
}

static void fail_status(char *message, const char *stage, VP8StatusCode status) {
    snprintf(message, PM_MESSAGE_CAPACITY, "%s (%s)", status_words(status), stage);
}

pm_webp *pm_webp_open(const uint8_t *data, size_t length, pm_webp_header *header, char *message) {
    memset(header, 0, sizeof *header);
    if (length < 12 || memcmp(data, "RIFF", 4) != 0 || memcmp(data + 8, "WEBP", 4) != 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "not a RIFF WEBP signature");
        return NULL;
    }
    // The headers first: a bitstream header libwebp rejects gets its own reason, before the
    // container is walked.
    WebPBitstreamFeatures features;
    VP8StatusCode status = WebPGetFeatures(data, length, &features);
    if (status != VP8_STATUS_OK) {
        fail_status(message, "reading the header", status);
        return NULL;
    }
    pm_webp *webp = calloc(1, sizeof *webp);
    if (webp == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    // Partial parsing tells a file that ends early (state short of DONE) from a malformed one
    // (NULL or PARSE_ERROR); plain WebPDemux returns NULL for both.
    WebPData input = {data, length};
    WebPDemuxState state = WEBP_DEMUX_PARSE_ERROR;
    webp->demux = WebPDemuxPartial(&input, &state);
    if (webp->demux == NULL || state == WEBP_DEMUX_PARSE_ERROR) {
        snprintf(message, PM_MESSAGE_CAPACITY, "corrupt RIFF container (chunk sizes or layout)");
        pm_webp_close(webp);
        return NULL;
    }
    if (state != WEBP_DEMUX_DONE) {
        snprintf(message, PM_MESSAGE_CAPACITY, "truncated data (the file ends inside its %s)",
                 state == WEBP_DEMUX_PARSING_HEADER ? "header chunks" : "frame data");
        pm_webp_close(webp);
        return NULL;
    }
    const uint32_t flags = WebPDemuxGetI(webp->demux, WEBP_FF_FORMAT_FLAGS);
    header->width = (int)WebPDemuxGetI(webp->demux, WEBP_FF_CANVAS_WIDTH);
    header->height = (int)WebPDemuxGetI(webp->demux, WEBP_FF_CANVAS_HEIGHT);
    header->animated = features.has_animation;
    header->frame_count = (int)WebPDemuxGetI(webp->demux, WEBP_FF_FRAME_COUNT);

    if (!WebPDemuxGetFrame(webp->demux, 1, &webp->frame) || !webp->frame.complete) {
        snprintf(message, PM_MESSAGE_CAPACITY, "no complete image frame");
        pm_webp_close(webp);
        return NULL;
    }
    webp->has_frame = 1;
    const WebPIterator *frame = &webp->frame;
    // The frame's own header: for an animation WebPGetFeatures saw only the container.
    WebPBitstreamFeatures frame_features;
    status = WebPGetFeatures(frame->fragment.bytes, frame->fragment.size, &frame_features);
    if (status != VP8_STATUS_OK) {
        fail_status(message, "reading the first frame's header", status);
        pm_webp_close(webp);
        return NULL;
    }
    if (frame_features.width != frame->width || frame_features.height != frame->height) {
        snprintf(message, PM_MESSAGE_CAPACITY, "first frame is %dx%d but its bitstream is %dx%d",
                 frame->width, frame->height, frame_features.width, frame_features.height);
        pm_webp_close(webp);
        return NULL;
    }
    header->lossless = frame_features.format == 2;
    header->partial_first_frame = frame->x_offset != 0 || frame->y_offset != 0 ||
                                  frame->width != header->width || frame->height != header->height;
    header->has_alpha = features.has_alpha || frame->has_alpha || frame_features.has_alpha ||
                        header->partial_first_frame;

    WebPChunkIterator chunk;
    if ((flags & EXIF_FLAG) && WebPDemuxGetChunk(webp->demux, "EXIF", 1, &chunk)) {
        header->exif = chunk.chunk.bytes;
        header->exif_length = chunk.chunk.size;
        WebPDemuxReleaseChunkIterator(&chunk);
    }
    webp->header = *header;
    return webp;
}

// A malloc'd copy of the first chunk of `fourcc`, when the VP8X flags announce it (the spec has
// readers ignore an unannounced one). Returns 0 only when memory runs out.
static int copy_chunk(WebPDemuxer *demux, uint32_t flag, const char *fourcc, uint8_t **to, size_t *length) {
    WebPChunkIterator chunk;
    if (!(WebPDemuxGetI(demux, WEBP_FF_FORMAT_FLAGS) & flag) || !WebPDemuxGetChunk(demux, fourcc, 1, &chunk))
        return 1;
    int ok = 1;
    if (chunk.chunk.size > 0) {
        *to = malloc(chunk.chunk.size);
        if (*to != NULL) {
            memcpy(*to, chunk.chunk.bytes, chunk.chunk.size);
            *length = chunk.chunk.size;
        } else {
            ok = 0;
        }
    }
    WebPDemuxReleaseChunkIterator(&chunk);
    return ok;
}

int pm_webp_decode(pm_webp *webp, int scaled_width, int scaled_height, int64_t max_pixels,
                   pm_image *out, char *message) {
    memset(out, 0, sizeof *out);
    const pm_webp_header *header = &webp->header;
    const WebPIterator *frame = &webp->frame;
    if ((int64_t)header->width * header->height > max_pixels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "image %dx%d is over the %lld-pixel limit",
                 header->width, header->height, (long long)max_pixels);
        return -1;
    }
    WebPDecoderConfig config;
    if (!WebPInitDecoderConfig(&config)) {
        snprintf(message, PM_MESSAGE_CAPACITY, "libwebp version mismatch");
        return -1;
    }
    const int channels = header->has_alpha ? 4 : 3;
    int width = header->width, height = header->height;
    // A frame that leaves canvas uncovered is drawn at its offset on a transparent canvas, as
    // WebPAnimDecoder does for a first (key) frame; the rescaler works on whole frames only, so
    // that case stays at canvas size. So does a frame with alpha, which libwebp's rescaler does
    // not average by alpha exactly: a lossy frame's Y, U and V are rescaled unweighted
    // (io_dec.c, RGB output), so the colour of transparent pixels, often light, bleeds into the
    // edges (2-6/255 over black); a lossless frame is premultiplied in 8 bits and divided back
    // after (vp8l_dec.c), which loses the colour where alpha is low. The resampler averages the
    // whole frame premultiplied, in floats.
    if (!header->partial_first_frame && !header->has_alpha && scaled_width > 0 && scaled_height > 0 &&
        scaled_width <= width && scaled_height <= height && (scaled_width < width || scaled_height < height)) {
        config.options.use_scaling = 1;
        config.options.scaled_width = scaled_width;
        config.options.scaled_height = scaled_height;
        width = scaled_width;
        height = scaled_height;
    }
    const size_t stride = (size_t)width * (size_t)channels;
    const size_t size = stride * (size_t)height;
    // calloc: the uncovered canvas of a partial first frame must read as transparent black.
    uint8_t *pixels = header->partial_first_frame ? calloc(size, 1) : malloc(size);
    if (pixels == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    config.output.colorspace = channels == 4 ? MODE_RGBA : MODE_RGB;
    config.output.is_external_memory = 1;
    config.output.u.RGBA.rgba = pixels + (size_t)frame->y_offset * stride + (size_t)frame->x_offset * (size_t)channels;
    config.output.u.RGBA.stride = (int)stride;
    config.output.u.RGBA.size = size - ((size_t)frame->y_offset * stride + (size_t)frame->x_offset * (size_t)channels);
    const VP8StatusCode status = WebPDecode(frame->fragment.bytes, frame->fragment.size, &config);
    WebPFreeDecBuffer(&config.output);
    if (status != VP8_STATUS_OK) {
        fail_status(message, header->animated ? "decoding the first frame" : "decoding", status);
        free(pixels);
        return -1;
    }
    out->data = pixels;
    out->width = width;
    out->height = height;
    out->channels = channels;
    if (!copy_chunk(webp->demux, ICCP_FLAG, "ICCP", &out->icc, &out->icc_length) ||
        !copy_chunk(webp->demux, EXIF_FLAG, "EXIF", &out->exif, &out->exif_length)) {
        pm_image_free(out);
        memset(out, 0, sizeof *out);
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    return 0;
}

void pm_webp_close(pm_webp *webp) {
    if (webp == NULL) return;
    if (webp->has_frame) WebPDemuxReleaseIterator(&webp->frame);
    WebPDemuxDelete(webp->demux);
    free(webp);
}
