#pragma once
// GIF image data (LZW in data sub-blocks) whose minimum code size giflib refuses. Internal to the
// GIF shim (gif_decode.c).
//
// GIF89a allows a minimum code size of at most 8 (the largest palette has 256 colours) and giflib
// 5.2 stops at anything larger ("Failed to read from given file"). Firefox, Pillow and libnsgif
// (libvips) read up to 11, the largest that leaves room for codes in 12 bits, and truncate the
// literal codes past 255 to a byte; so does this, and only for those files: giflib keeps every
// other one.
#include <stddef.h>
#include <stdint.h>

#define PM_GIF_LZW_MAX_CODES 4096

typedef struct pm_gif_lzw {
    const uint8_t *data;
    size_t length;
    size_t at;             // the next byte of `data` to read
    size_t block_left;     // bytes left in the current data sub-block
    int ended;             // the terminating zero-length sub-block has been read
    uint32_t bits;         // bit buffer, least significant first
    int bit_count;
    int minimum;           // the minimum code size
    int width;             // the current code width in bits
    int clear, end_code, next, previous;
    uint8_t first;         // first byte of the previous code's string
    uint16_t prefix[PM_GIF_LZW_MAX_CODES];
    uint8_t suffix[PM_GIF_LZW_MAX_CODES];
    uint8_t stack[PM_GIF_LZW_MAX_CODES];
    int stacked;
} pm_gif_lzw;

/// Starts at `data[at]`, the minimum code size byte before the image's data sub-blocks. Returns 0,
/// or -1 when that byte is not a code size this reads (2...11).
int pm_gif_lzw_start(pm_gif_lzw *lzw, const uint8_t *data, size_t length, size_t at);

/// Decodes the next `count` pixels (palette indexes) into `line`. Returns 0, or -1 when the data
/// ends, breaks or stops (end code) before they are all decoded; `line` is then partly written.
int pm_gif_lzw_line(pm_gif_lzw *lzw, uint8_t *line, int count);
