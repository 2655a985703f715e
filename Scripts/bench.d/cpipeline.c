// The C reference pipeline for target 1 (as RESULTS.md describes its "cfloor"): one thread, one
// process over a list of files. Per file: read it, libjpeg-turbo decode at the smallest DCT scale
// n/8 still covering the target (long side for fit, short side for fill), area (box) average to
// the thumbnail (fill: centre crop to the target's aspect first), libpng write at zlib level 6.
// Scripts/bench.d/thumbs.py compiles it at run time (gcc -O2 against Debian's libs).
//
//   cpipeline -m fit|fill|decode [-z LEVEL] [-s SIDE] -o OUTDIR FILE...
//
// decode = the DCT-scaled decode only (fill's scale), nothing written: the entropy-decode floor.
// Bad inputs are reported on stderr and counted; the exit code is 1 if any file failed.
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>
#include <png.h>

typedef struct { struct jpeg_error_mgr mgr; jmp_buf escape; } error_ctx;

static void on_error(j_common_ptr cinfo) { longjmp(((error_ctx *)cinfo->err)->escape, 1); }

static unsigned char *read_file(const char *path, size_t *length) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, 0, SEEK_SET);
    unsigned char *data = size > 0 ? malloc((size_t)size) : NULL;
    if (data && fread(data, 1, (size_t)size, f) != (size_t)size) { free(data); data = NULL; }
    fclose(f);
    *length = (size_t)size;
    return data;
}

// Exact area average of the source box [x0, x0+cw) x [y0, y0+ch) into out (ow x oh, RGB).
static void box_average(const unsigned char *src, int sw, double x0, double y0, double cw, double ch,
                        unsigned char *out, int ow, int oh) {
    const double sx = cw / ow, sy = ch / oh;
    for (int oy = 0; oy < oh; oy++) {
        const double top = y0 + oy * sy, bottom = top + sy;
        for (int ox = 0; ox < ow; ox++) {
            const double left = x0 + ox * sx, right = left + sx;
            double sum[3] = {0, 0, 0}, area = 0;
            for (int y = (int)top; y < bottom; y++) {
                double wy = (y + 1 < bottom ? y + 1 : bottom) - (y > top ? y : top);
                const unsigned char *row = src + (size_t)y * (size_t)sw * 3;
                for (int x = (int)left; x < right; x++) {
                    double w = wy * ((x + 1 < right ? x + 1 : right) - (x > left ? x : left));
                    sum[0] += w * row[3 * x], sum[1] += w * row[3 * x + 1], sum[2] += w * row[3 * x + 2];
                    area += w;
                }
            }
            for (int c = 0; c < 3; c++) out[(oy * ow + ox) * 3 + c] = (unsigned char)(sum[c] / area + 0.5);
        }
    }
}

static int write_png(const char *path, const unsigned char *rgb, int w, int h, int level) {
    FILE *f = fopen(path, "wb");
    if (!f) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png ? png_create_info_struct(png) : NULL;
    if (!info || setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        fclose(f);
        return -1;
    }
    png_init_io(png, f);
    png_set_compression_level(png, level);
    png_set_IHDR(png, info, (png_uint_32)w, (png_uint_32)h, 8, PNG_COLOR_TYPE_RGB, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) png_write_row(png, (png_const_bytep)(rgb + (size_t)y * (size_t)w * 3));
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return fclose(f);
}

// 0 on success. fill: centre crop to side x side; fit: long side = side; decode: no output.
static int thumbnail(const char *path, const char *mode, int side, int level, const char *outdir) {
    struct jpeg_decompress_struct cinfo;
    error_ctx err;
    size_t length = 0;
    unsigned char *data = read_file(path, &length), *volatile pixels = NULL;
    if (!data) return -1;
    cinfo.err = jpeg_std_error(&err.mgr);
    err.mgr.error_exit = on_error;
    if (setjmp(err.escape)) {
        jpeg_destroy_decompress(&cinfo);
        free(pixels);
        free(data);
        return -1;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    const int fit = strcmp(mode, "fit") == 0;
    const unsigned w0 = cinfo.image_width, h0 = cinfo.image_height;
    const unsigned cover = fit ? (w0 > h0 ? w0 : h0) : (w0 < h0 ? w0 : h0);
    int n = 1;
    while (n < 8 && (cover * (unsigned)n + 7) / 8 < (unsigned)side) n++;
    cinfo.scale_num = (unsigned)n;
    cinfo.scale_denom = 8;
    cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);
    const int w = (int)cinfo.output_width, h = (int)cinfo.output_height;
    pixels = malloc((size_t)w * (size_t)h * 3);
    if (!pixels) longjmp(err.escape, 1);
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW row = pixels + (size_t)cinfo.output_scanline * (size_t)w * 3;
        jpeg_read_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    free(data);
    int status = 0;
    if (strcmp(mode, "decode") != 0) {
        unsigned char out[64 * 64 * 3];  // side <= 64, checked in main
        int ow = side, oh = side;
        double x0 = 0, y0 = 0, cw = w, ch = h;
        if (fit) {
            if (w >= h) oh = (int)((double)h * side / w + 0.5);
            else ow = (int)((double)w * side / h + 0.5);
            if (oh < 1) oh = 1;
            if (ow < 1) ow = 1;
        } else if (w > h) {
            cw = h, x0 = (w - h) / 2.0;
        } else {
            ch = w, y0 = (h - w) / 2.0;
        }
        box_average(pixels, w, x0, y0, cw, ch, out, ow, oh);
        const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
        char name[4096];
        snprintf(name, sizeof name, "%s/%.*s.png", outdir,
                 (int)(strrchr(base, '.') ? strrchr(base, '.') - base : (long)strlen(base)), base);
        status = write_png(name, out, ow, oh, level);
    }
    free(pixels);
    return status;
}

int main(int argc, char **argv) {
    const char *mode = "fill", *outdir = ".";
    int level = 6, side = 40, i = 1;
    for (; i + 1 < argc && argv[i][0] == '-'; i += 2) {
        if (strcmp(argv[i], "-m") == 0) mode = argv[i + 1];
        else if (strcmp(argv[i], "-z") == 0) level = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-s") == 0) side = atoi(argv[i + 1]);
        else if (strcmp(argv[i], "-o") == 0) outdir = argv[i + 1];
        else break;
    }
    if (side < 1 || side > 64 || (strcmp(mode, "fit") && strcmp(mode, "fill") && strcmp(mode, "decode"))) {
        fprintf(stderr, "usage: cpipeline -m fit|fill|decode [-z LEVEL] [-s SIDE<=64] -o OUTDIR FILE...\n");
        return 2;
    }
    int failed = 0;
    for (; i < argc; i++) {
        if (thumbnail(argv[i], mode, side, level, outdir) != 0) {
            fprintf(stderr, "cpipeline: %s failed\n", argv[i]);
            failed++;
        }
    }
    return failed ? 1 : 0;
}
