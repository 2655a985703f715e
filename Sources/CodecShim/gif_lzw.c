// GIF LZW for the minimum code sizes giflib refuses (9-11). See gif_lzw.h. Every read is
// bounds-checked against `length`; the code table and the string stack have fixed sizes.
#include "gif_lzw.h"

#include <string.h>

// GIF codes are at most 12 bits wide; a full table stays full until a clear code.
#define MAX_WIDTH 12

static void reset(pm_gif_lzw *lzw) {
    lzw->width = lzw->minimum + 1;
    lzw->next = lzw->clear + 2;
    lzw->previous = -1;
}

int pm_gif_lzw_start(pm_gif_lzw *lzw, const uint8_t *data, size_t length, size_t at) {
    memset(lzw, 0, sizeof *lzw);
    if (at >= length || data[at] < 2 || data[at] >= MAX_WIDTH) return -1;
    lzw->data = data;
    lzw->length = length;
    lzw->at = at + 1;
    lzw->minimum = data[at];
    lzw->clear = 1 << lzw->minimum;
    lzw->end_code = lzw->clear + 1;
    reset(lzw);
    return 0;
}

// The next code, or -1 when the data sub-blocks end first.
static int read_code(pm_gif_lzw *lzw) {
    while (lzw->bit_count < lzw->width) {
        if (lzw->block_left == 0) {
            if (lzw->ended || lzw->at >= lzw->length) return -1;
            lzw->block_left = lzw->data[lzw->at++];
            if (lzw->block_left == 0) {
                lzw->ended = 1;
                return -1;
            }
        }
        if (lzw->at >= lzw->length) return -1;
        lzw->bits |= (uint32_t)lzw->data[lzw->at++] << lzw->bit_count;
        lzw->bit_count += 8;
        lzw->block_left--;
    }
    const int code = (int)(lzw->bits & ((1u << lzw->width) - 1));
    lzw->bits >>= lzw->width;
    lzw->bit_count -= lzw->width;
    return code;
}

// Pushes the string of `code` (its last byte first) for the caller to pop; -1 on a code that
// names no string yet.
static int expand(pm_gif_lzw *lzw, int code) {
    const int current = code;
    if (code == lzw->next) {
        // The string being defined: the previous one and its own first byte.
        if (lzw->previous < 0) return -1;
        lzw->stack[lzw->stacked++] = lzw->first;
        code = lzw->previous;
    } else if (code > lzw->next) {
        return -1;
    }
    // prefix[k] < k for every entry, so this walks down to a literal.
    while (code > lzw->end_code) {
        if (lzw->stacked >= PM_GIF_LZW_MAX_CODES) return -1;
        lzw->stack[lzw->stacked++] = lzw->suffix[code];
        code = lzw->prefix[code];
    }
    if (lzw->stacked >= PM_GIF_LZW_MAX_CODES) return -1;
    // Literals past 255 keep their low byte, as Firefox, Pillow and libnsgif read them.
    lzw->first = (uint8_t)code;
    lzw->stack[lzw->stacked++] = lzw->first;
    if (lzw->previous >= 0 && lzw->next < PM_GIF_LZW_MAX_CODES) {
        lzw->prefix[lzw->next] = (uint16_t)lzw->previous;
        lzw->suffix[lzw->next] = lzw->first;
        lzw->next++;
        if (lzw->next == 1 << lzw->width && lzw->width < MAX_WIDTH) lzw->width++;
    }
    lzw->previous = current;
    return 0;
}

int pm_gif_lzw_line(pm_gif_lzw *lzw, uint8_t *line, int count) {
    int written = 0;
    while (written < count) {
        if (lzw->stacked > 0) {
            line[written++] = lzw->stack[--lzw->stacked];
            continue;
        }
        const int code = read_code(lzw);
        if (code < 0 || code == lzw->end_code) return -1;
        if (code == lzw->clear) {
            reset(lzw);
            continue;
        }
        // After a clear the first code must be a literal: there is no string to extend yet.
        if (lzw->previous < 0 && code > lzw->clear) return -1;
        if (expand(lzw, code) != 0) return -1;
    }
    return 0;
}
