// GIF decoding through giflib's record-level API: never prints, never aborts. giflib reports every
// failure as a return code (no longjmp), so no setjmp is needed. DGifSlurp is avoided on purpose:
// it reads and keeps every frame, where a thumbnail needs only the first.
#include "gif_decode.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <gif_lib.h>

#include "gif_lzw.h"

// Real files carry a handful of extensions before their first image (loop count, comment, XMP,
// ICC, the frame's GCE); a long run of them is a file built to make the decoder spin.
#define PM_GIF_MAX_EXTENSIONS 1024
// An ICC profile over this is not one a GIF encoder wrote; it is dropped, not an error.
#define PM_GIF_MAX_ICC ((size_t)4 << 20)

struct pm_gif {
    GifFileType *file;
    const uint8_t *data;
    size_t length;
    size_t offset;
};

static int read_from_memory(GifFileType *file, GifByteType *into, int count) {
    pm_gif *gif = file->UserData;
    if (count <= 0) return 0;
    const size_t available = gif->length - gif->offset;
    const size_t n = (size_t)count < available ? (size_t)count : available;
    memcpy(into, gif->data + gif->offset, n);
    gif->offset += n;
    return (int)n;
}

static void giflib_message(char *message, int error) {
    const char *text = GifErrorString(error);
    // A few short reads (the LZW code size byte) return failure without setting an error code.
    snprintf(message, PM_MESSAGE_CAPACITY, "%s", text != NULL ? text : "unexpected end of GIF data");
}

pm_gif *pm_gif_open(const uint8_t *data, size_t length, pm_gif_header *header, char *message) {
    memset(header, 0, sizeof *header);
    pm_gif *gif = calloc(1, sizeof *gif);
    if (gif == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return NULL;
    }
    gif->data = data;
    gif->length = length;
    int error = 0;
    gif->file = DGifOpen(gif, read_from_memory, &error);
    if (gif->file == NULL) {
        giflib_message(message, error);
        free(gif);
        return NULL;
    }
    header->width = gif->file->SWidth;
    header->height = gif->file->SHeight;
    return gif;
}

// An ICC profile in an application extension ("ICCRGBG1" "012"), its data sub-blocks concatenated.
typedef struct icc_collector {
    uint8_t *data;
    size_t length;
    int active;    // the extension being read is an ICC one still under the size cap
    int done;      // the first ICC extension has been read: later ones are ignored
} icc_collector;

static void icc_append(icc_collector *icc, const GifByteType *block) {
    const size_t count = block[0];
    if (icc->length + count > PM_GIF_MAX_ICC) {
        free(icc->data);
        icc->data = NULL;
        icc->length = 0;
        icc->active = 0;
        return;
    }
    uint8_t *grown = realloc(icc->data, icc->length + count);
    if (grown == NULL) {
        free(icc->data);
        icc->data = NULL;
        icc->length = 0;
        icc->active = 0;
        return;
    }
    memcpy(grown + icc->length, block + 1, count);
    icc->data = grown;
    icc->length += count;
}

// Reads the records before the first image descriptor. Returns the GCE's transparency index
// (or NO_TRANSPARENT_COLOR) through `transparent`; 0 on reaching the image, -1 with `message`.
static int read_to_first_image(GifFileType *file, int *transparent, icc_collector *icc, char *message) {
    *transparent = NO_TRANSPARENT_COLOR;
    for (int extensions = 0;;) {
        GifRecordType type;
        if (DGifGetRecordType(file, &type) == GIF_ERROR) {
            giflib_message(message, file->Error);
            return -1;
        }
        if (type == IMAGE_DESC_RECORD_TYPE) return 0;
        if (type == TERMINATE_RECORD_TYPE) {
            snprintf(message, PM_MESSAGE_CAPACITY, "no image before the GIF trailer");
            return -1;
        }
        if (type != EXTENSION_RECORD_TYPE) {  // DGifGetRecordType already rejects unknown bytes
            snprintf(message, PM_MESSAGE_CAPACITY, "unexpected GIF record");
            return -1;
        }
        if (++extensions > PM_GIF_MAX_EXTENSIONS) {
            snprintf(message, PM_MESSAGE_CAPACITY, "more than %d extension blocks before the first image",
                     PM_GIF_MAX_EXTENSIONS);
            return -1;
        }
        int code = 0;
        GifByteType *block = NULL;
        if (DGifGetExtension(file, &code, &block) == GIF_ERROR) {
            giflib_message(message, file->Error);
            return -1;
        }
        // No first sub-block (an empty comment, `21 FE 00`): DGifGetExtension has read the
        // terminator already, and asking for the next sub-block would read the next record as one.
        if (block == NULL) continue;
        // A GCE applies to the image that follows it, so a later one replaces an earlier one.
        if (code == GRAPHICS_EXT_FUNC_CODE) {
            GraphicsControlBlock gcb;
            if (DGifExtensionToGCB(block[0], block + 1, &gcb) == GIF_OK) *transparent = gcb.TransparentColor;
        }
        icc->active = code == APPLICATION_EXT_FUNC_CODE && !icc->done &&
                      block[0] == 11 && memcmp(block + 1, "ICCRGBG1012", 11) == 0;
        for (;;) {
            if (DGifGetExtensionNext(file, &block) == GIF_ERROR) {
                giflib_message(message, file->Error);
                return -1;
            }
            if (block == NULL) break;
            if (icc->active) icc_append(icc, block);
        }
        if (icc->active) icc->done = 1;
    }
}

// Where the image data of the descriptor at `descriptor` (just past its ',') starts, at its LZW
// minimum code size byte, when that size is one giflib refuses and gif_lzw.h reads (9-11); 0
// otherwise. The descriptor is 9 bytes: left, top, width, height (16-bit each) and flags.
static size_t refused_code_size_at(const pm_gif *gif, size_t descriptor) {
    if (descriptor + 9 > gif->length) return 0;
    const uint8_t flags = gif->data[descriptor + 8];
    const size_t map = (flags & 0x80) ? (size_t)3 << ((flags & 7) + 1) : 0;
    const size_t at = descriptor + 9 + map;
    if (at >= gif->length || gif->data[at] <= 8 || gif->data[at] >= 12) return 0;
    return at;
}

int pm_gif_decode(pm_gif *gif, int64_t max_pixels, pm_image *out, char *message) {
    GifFileType *file = gif->file;
    memset(out, 0, sizeof *out);
    icc_collector icc = {0};
    uint8_t *canvas = NULL, *line = NULL;
    pm_gif_lzw *lzw = NULL;  // set when the image data is read here instead of by giflib
    int transparent;

    if (read_to_first_image(file, &transparent, &icc, message) != 0) goto fail;
    const size_t descriptor = gif->offset;
    if (DGifGetImageDesc(file) == GIF_ERROR) {
        // giflib has filled file->Image by the time it checks the code size, and reads no further.
        const size_t data = refused_code_size_at(gif, descriptor);
        if (data != 0 && (lzw = malloc(sizeof *lzw)) != NULL && pm_gif_lzw_start(lzw, gif->data, gif->length, data) == 0) {
            // decoded below by gif_lzw.c
        } else {
            giflib_message(message, file->Error);
            goto fail;
        }
    }
    const GifImageDesc *frame = &file->Image;
    const int left = frame->Left, top = frame->Top, frame_width = frame->Width, frame_height = frame->Height;
    if (frame_width <= 0 || frame_height <= 0) {
        snprintf(message, PM_MESSAGE_CAPACITY, "first frame is empty (%dx%d)", frame_width, frame_height);
        goto fail;
    }
    // Sides are 16-bit words, so these sums and their product cannot overflow.
    const int64_t width = file->SWidth > left + frame_width ? file->SWidth : left + frame_width;
    const int64_t height = file->SHeight > top + frame_height ? file->SHeight : top + frame_height;
    if (width * height > max_pixels) {
        snprintf(message, PM_MESSAGE_CAPACITY, "image %lldx%lld is over the %lld-pixel limit",
                 (long long)width, (long long)height, (long long)max_pixels);
        goto fail;
    }

    // RGBA for each of the 256 values a pixel byte can take, so no index reads past the map.
    // Without any colour map the indexes are grey levels, as Pillow reads such files; indexes past
    // a short map are opaque black.
    uint8_t palette[256][4];
    const ColorMapObject *map = frame->ColorMap != NULL ? frame->ColorMap : file->SColorMap;
    for (int i = 0; i < 256; i++) {
        if (map == NULL) {
            palette[i][0] = palette[i][1] = palette[i][2] = (uint8_t)i;
        } else if (i < map->ColorCount) {
            palette[i][0] = map->Colors[i].Red;
            palette[i][1] = map->Colors[i].Green;
            palette[i][2] = map->Colors[i].Blue;
        } else {
            palette[i][0] = palette[i][1] = palette[i][2] = 0;
        }
        palette[i][3] = 255;
    }
    if (transparent >= 0 && transparent < 256) memset(palette[transparent], 0, 4);

    canvas = calloc((size_t)width * (size_t)height, 4);  // zero: transparent where nothing is drawn
    line = malloc((size_t)frame_width);
    if (canvas == NULL || line == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        goto fail;
    }
    // giflib hands out rows in file order; an interlaced image stores every 8th row from 0, every
    // 8th from 4, every 4th from 2, then every 2nd from 1.
    static const int pass_start[4] = {0, 4, 2, 1}, pass_step[4] = {8, 8, 4, 2};
    const int passes = frame->Interlace ? 4 : 1;
    int rows = 0, broken = 0;
    for (int pass = 0; pass < passes && !broken; pass++) {
        const int step = frame->Interlace ? pass_step[pass] : 1;
        for (int y = frame->Interlace ? pass_start[pass] : 0; y < frame_height; y += step) {
            const int read = lzw != NULL ? pm_gif_lzw_line(lzw, line, frame_width) == 0
                                         : DGifGetLine(file, line, frame_width) != GIF_ERROR;
            if (!read) {
                broken = 1;
                break;
            }
            rows++;
            uint8_t *target = canvas + (((size_t)(top + y) * (size_t)width) + (size_t)left) * 4;
            for (int x = 0; x < frame_width; x++) memcpy(target + (size_t)x * 4, palette[line[x]], 4);
        }
    }
    if (broken) {
        char reason[PM_MESSAGE_CAPACITY];
        if (lzw != NULL) snprintf(reason, sizeof reason, "the image data ends or breaks");
        else giflib_message(reason, file->Error);
        if (rows == 0) {
            snprintf(message, PM_MESSAGE_CAPACITY, "%s before the first row", reason);
            goto fail;
        }
        pm_image_warn(out, "%s: %d of the first frame's %d rows decoded, the rest left transparent",
                      reason, rows, frame_height);
    }
    free(line);
    line = NULL;
    free(lzw);
    lzw = NULL;

    const int covers = left == 0 && top == 0 && frame_width == width && frame_height == height;
    int channels = 4;
    if (covers && !broken && transparent == NO_TRANSPARENT_COLOR) {
        // Every pixel is opaque: drop alpha in place (each write lands at or before its read).
        const size_t count = (size_t)width * (size_t)height;
        for (size_t i = 0; i < count; i++) {
            canvas[i * 3] = canvas[i * 4];
            canvas[i * 3 + 1] = canvas[i * 4 + 1];
            canvas[i * 3 + 2] = canvas[i * 4 + 2];
        }
        uint8_t *shrunk = realloc(canvas, count * 3);
        if (shrunk != NULL) canvas = shrunk;
        channels = 3;
    }
    out->data = canvas;
    out->width = (int)width;
    out->height = (int)height;
    out->channels = channels;
    out->icc = icc.data;
    out->icc_length = icc.length;
    return 0;

fail:
    free(canvas);
    free(line);
    free(lzw);
    free(icc.data);
    pm_image_free(out);
    return -1;
}

void pm_gif_close(pm_gif *gif) {
    if (gif == NULL) return;
    int error = 0;
    if (gif->file != NULL) DGifCloseFile(gif->file, &error);
    free(gif);
}
