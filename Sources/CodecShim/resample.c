// Separable box (area-average) filter: a horizontal pass over the crop's rows into a float
// buffer, then a vertical pass. Weights are exact overlaps, so any scale factor works.
#include "resample.h"

#include <math.h>
#include <stdlib.h>

typedef struct axis_taps {
    int *first;      // first source index for each output index
    int *count;      // number of taps for each output index
    float *weights;  // count[i] weights at weights[i * stride]
    int stride;
} axis_taps;

static void free_taps(axis_taps *taps) {
    free(taps->first);
    free(taps->count);
    free(taps->weights);
}

// Output pixel i covers [start + i*extent/out, start + (i+1)*extent/out) in source coordinates.
static int build_taps(double start, double extent, int out_size, int source_size, axis_taps *taps) {
    const double step = extent / out_size;
    taps->stride = (int)ceil(step) + 2;
    taps->first = malloc(sizeof(int) * (size_t)out_size);
    taps->count = malloc(sizeof(int) * (size_t)out_size);
    taps->weights = malloc(sizeof(float) * (size_t)out_size * (size_t)taps->stride);
    if (!taps->first || !taps->count || !taps->weights) return -1;
    for (int i = 0; i < out_size; i++) {
        const double lo = start + i * step, hi = start + (i + 1) * step;
        int first = (int)floor(lo), last = (int)ceil(hi) - 1;
        if (first < 0) first = 0;
        if (last > source_size - 1) last = source_size - 1;
        if (last < first) last = first;  // rounding at the edge: fall back to the nearest pixel
        if (last - first + 1 > taps->stride) last = first + taps->stride - 1;
        float *w = taps->weights + (size_t)i * (size_t)taps->stride;
        double total = 0;
        for (int s = first; s <= last; s++) {
            double overlap = fmin(hi, s + 1.0) - fmax(lo, (double)s);
            w[s - first] = (float)(overlap > 0 ? overlap : 0);
            total += w[s - first];
        }
        if (total <= 0) {  // degenerate crop: take the pixel outright
            w[0] = 1;
            total = 1;
            last = first;
        }
        for (int s = first; s <= last; s++) w[s - first] = (float)(w[s - first] / total);
        taps->first[i] = first;
        taps->count[i] = last - first + 1;
    }
    return 0;
}

static uint8_t to_byte(float value) {
    if (value <= 0) return 0;
    if (value >= 255) return 255;
    return (uint8_t)(value + 0.5f);
}

// Premultiplied lanes: colour * alpha (0...65025) and alpha, so a transparent pixel adds nothing.
static void horizontal_rgba(const uint8_t *row, const axis_taps *x, int dst_width, float *out) {
    for (int o = 0; o < dst_width; o++, out += 4) {
        const uint8_t *p = row + (size_t)x->first[o] * 4;
        const float *w = x->weights + (size_t)o * (size_t)x->stride;
        float r = 0, g = 0, b = 0, a = 0;
        for (int t = 0; t < x->count[o]; t++, p += 4) {
            const float wa = w[t] * p[3];
            r += wa * p[0];
            g += wa * p[1];
            b += wa * p[2];
            a += wa;
        }
        out[0] = r, out[1] = g, out[2] = b, out[3] = a;
    }
}

static void horizontal_rgb(const uint8_t *row, const axis_taps *x, int dst_width, float *out) {
    for (int o = 0; o < dst_width; o++, out += 3) {
        const uint8_t *p = row + (size_t)x->first[o] * 3;
        const float *w = x->weights + (size_t)o * (size_t)x->stride;
        float r = 0, g = 0, b = 0;
        for (int t = 0; t < x->count[o]; t++, p += 3) {
            r += w[t] * p[0];
            g += w[t] * p[1];
            b += w[t] * p[2];
        }
        out[0] = r, out[1] = g, out[2] = b;
    }
}

static void write_pixel(const float *sum, int channels, uint8_t *dst) {
    if (channels == 3) {
        dst[0] = to_byte(sum[0]), dst[1] = to_byte(sum[1]), dst[2] = to_byte(sum[2]);
        return;
    }
    const float alpha = sum[3];
    if (alpha <= 0) {
        dst[0] = dst[1] = dst[2] = dst[3] = 0;
        return;
    }
    dst[0] = to_byte(sum[0] / alpha), dst[1] = to_byte(sum[1] / alpha), dst[2] = to_byte(sum[2] / alpha);
    dst[3] = to_byte(alpha);
}

int pm_resample_box(const pm_image *source,
                    double crop_x, double crop_y, double crop_width, double crop_height,
                    uint8_t *destination, int dst_width, int dst_height) {
    const int channels = source->channels;
    if ((channels != 3 && channels != 4) || dst_width <= 0 || dst_height <= 0 ||
        source->width <= 0 || source->height <= 0 || !(crop_width > 0) || !(crop_height > 0))
        return -1;
    axis_taps x = {0}, y = {0};
    float *rows = NULL;
    int status = -1;
    if (build_taps(crop_x, crop_width, dst_width, source->width, &x) != 0) goto done;
    if (build_taps(crop_y, crop_height, dst_height, source->height, &y) != 0) goto done;

    // Only the source rows the vertical taps touch are filtered horizontally, each exactly once.
    const int first_row = y.first[0];
    const int last_row = y.first[dst_height - 1] + y.count[dst_height - 1] - 1;
    const size_t row_floats = (size_t)dst_width * (size_t)channels;
    // One extra row at the end accumulates the vertical sums.
    rows = malloc(sizeof(float) * row_floats * (size_t)(last_row - first_row + 2));
    if (rows == NULL) goto done;
    float *const sum = rows + row_floats * (size_t)(last_row - first_row + 1);
    const size_t stride = (size_t)source->width * (size_t)channels;
    for (int r = first_row; r <= last_row; r++) {
        const uint8_t *row = source->data + stride * (size_t)r;
        float *out = rows + row_floats * (size_t)(r - first_row);
        if (channels == 4) horizontal_rgba(row, &x, dst_width, out);
        else horizontal_rgb(row, &x, dst_width, out);
    }

    // Vertical pass over whole rows: contiguous multiply-adds the compiler vectorises.
    for (int o = 0; o < dst_height; o++) {
        const float *w = y.weights + (size_t)o * (size_t)y.stride;
        const float *row = rows + row_floats * (size_t)(y.first[o] - first_row);
        for (size_t i = 0; i < row_floats; i++) sum[i] = 0;
        for (int t = 0; t < y.count[o]; t++, row += row_floats) {
            const float weight = w[t];
            for (size_t i = 0; i < row_floats; i++) sum[i] += weight * row[i];
        }
        uint8_t *dst = destination + row_floats * (size_t)o;
        for (int ox = 0; ox < dst_width; ox++)
            write_pixel(sum + (size_t)ox * (size_t)channels, channels, dst + (size_t)ox * (size_t)channels);
    }
    status = 0;
done:
    free(rows);
    free_taps(&x);
    free_taps(&y);
    return status;
}
