// Separable box (area-average) filter, fed one source row at a time: each row is filtered
// horizontally into a float row, which is added into the vertical sums of the output rows it
// lies under; an output row is written out as soon as its last source row has been added.
// Only the output rows open at once keep sums, so memory is a few float rows whether the rows
// come from a decoded image or straight from a decoder. Weights are exact overlaps, so any
// scale factor works.
#include "resample.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

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

struct pm_box_filter {
    int channels;
    int dst_width, dst_height;
    axis_taps x, y;
    int first_row, last_row;  // the source rows any output row reads
    int monotone;             // output rows' source ranges only move down (always, but checked)
    int window;               // vertical sums kept at once: output row o uses slot o % window
    int open;                 // the first output row not written yet (when monotone)
    float *horizontal;        // the current source row, filtered horizontally
    float *sums;
    uint8_t *destination;
};

// The most output rows whose source ranges contain one source row.
static int open_rows_at_most(const axis_taps *y, int dst_height, int first_row, int last_row) {
    int most = 1, low = 0, high = 0;
    for (int r = first_row; r <= last_row; r++) {
        while (low < dst_height && y->first[low] + y->count[low] - 1 < r) low++;
        if (high < low) high = low;
        while (high < dst_height && y->first[high] <= r) high++;
        if (high - low > most) most = high - low;
    }
    return most;
}

pm_box_filter *pm_box_filter_new(int source_width, int source_height, int channels,
                                 double crop_x, double crop_y, double crop_width, double crop_height,
                                 uint8_t *destination, int dst_width, int dst_height) {
    if ((channels != 3 && channels != 4) || dst_width <= 0 || dst_height <= 0 ||
        source_width <= 0 || source_height <= 0 || !(crop_width > 0) || !(crop_height > 0))
        return NULL;
    pm_box_filter *filter = calloc(1, sizeof *filter);
    if (filter == NULL) return NULL;
    filter->channels = channels;
    filter->dst_width = dst_width;
    filter->dst_height = dst_height;
    filter->destination = destination;
    if (build_taps(crop_x, crop_width, dst_width, source_width, &filter->x) != 0 ||
        build_taps(crop_y, crop_height, dst_height, source_height, &filter->y) != 0) {
        pm_box_filter_free(filter);
        return NULL;
    }
    const axis_taps *y = &filter->y;
    filter->first_row = y->first[0];
    filter->last_row = y->first[dst_height - 1] + y->count[dst_height - 1] - 1;
    filter->monotone = 1;
    for (int o = 1; o < dst_height; o++) {
        if (y->first[o] < y->first[o - 1] || y->first[o] + y->count[o] < y->first[o - 1] + y->count[o - 1])
            filter->monotone = 0;
        const int last = y->first[o] + y->count[o] - 1;
        if (y->first[o] < filter->first_row) filter->first_row = y->first[o];
        if (last > filter->last_row) filter->last_row = last;
    }
    filter->window = filter->monotone ? open_rows_at_most(y, dst_height, filter->first_row, filter->last_row)
                                      : dst_height;
    const size_t row_floats = (size_t)dst_width * (size_t)channels;
    filter->horizontal = malloc(sizeof(float) * row_floats);
    filter->sums = malloc(sizeof(float) * row_floats * (size_t)filter->window);
    if (filter->horizontal == NULL || filter->sums == NULL) {
        pm_box_filter_free(filter);
        return NULL;
    }
    return filter;
}

void pm_box_filter_add_row(pm_box_filter *filter, int r, const uint8_t *row) {
    if (r < filter->first_row || r > filter->last_row) return;
    const int channels = filter->channels, dst_width = filter->dst_width;
    const axis_taps *y = &filter->y;
    if (channels == 4) horizontal_rgba(row, &filter->x, dst_width, filter->horizontal);
    else horizontal_rgb(row, &filter->x, dst_width, filter->horizontal);

    // Contiguous multiply-adds over whole rows, which the compiler vectorises. Each output row
    // sums its source rows in ascending order, starting from zero, whatever feeds the rows.
    const size_t row_floats = (size_t)dst_width * (size_t)channels;
    const float *horizontal = filter->horizontal;
    for (int o = filter->monotone ? filter->open : 0; o < filter->dst_height; o++) {
        const int first = y->first[o], last = first + y->count[o] - 1;
        if (first > r) {
            if (filter->monotone) break;
            continue;
        }
        if (last < r) continue;
        float *sum = filter->sums + row_floats * (size_t)(o % filter->window);
        if (r == first) memset(sum, 0, sizeof(float) * row_floats);
        const float weight = y->weights[(size_t)o * (size_t)y->stride + (size_t)(r - first)];
        for (size_t i = 0; i < row_floats; i++) sum[i] += weight * horizontal[i];
        if (r == last) {
            uint8_t *dst = filter->destination + row_floats * (size_t)o;
            for (int ox = 0; ox < dst_width; ox++)
                write_pixel(sum + (size_t)ox * (size_t)channels, channels, dst + (size_t)ox * (size_t)channels);
            if (filter->monotone && o == filter->open) filter->open++;
        }
    }
}

void pm_box_filter_free(pm_box_filter *filter) {
    if (filter == NULL) return;
    free_taps(&filter->x);
    free_taps(&filter->y);
    free(filter->horizontal);
    free(filter->sums);
    free(filter);
}

int pm_resample_box(const pm_image *source,
                    double crop_x, double crop_y, double crop_width, double crop_height,
                    uint8_t *destination, int dst_width, int dst_height) {
    pm_box_filter *filter = pm_box_filter_new(source->width, source->height, source->channels,
                                              crop_x, crop_y, crop_width, crop_height,
                                              destination, dst_width, dst_height);
    if (filter == NULL) return -1;
    const size_t stride = (size_t)source->width * (size_t)source->channels;
    for (int r = filter->first_row; r <= filter->last_row; r++)
        pm_box_filter_add_row(filter, r, source->data + stride * (size_t)r);
    pm_box_filter_free(filter);
    return 0;
}
