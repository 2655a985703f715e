// The sync's floor for target 15 (issue 26): the least work a sync of images into the cache can
// do per image, with the libraries photomirror uses, in C. Per image: a libcurl multi download
// from the same nginx (at most -p connections to the host, photomirror's default --per-host),
// SHA-256 (OpenSSL) while the body arrives, libjpeg-turbo decode at the smallest DCT scale that
// covers the thumbnail, centre crop + area average, PNG encode (Paeth rows, libdeflate level 1), the original
// and the thumbnail each written to a temp file and renamed into the content-addressed layout,
// and one row each in SQLite (WAL, synchronous=FULL) in transactions of 64 images. Downloads run
// on the main thread, decoding on -t threads, the index on one more. No feed, no manifest, no
// gallery: what photomirror does beyond this is what target 15 measures. Minimal per image: the
// easy handles are kept and reused (at most -j of them), the decoder fills its rows in as few
// calls as libjpeg allows, and the PNG is the tile's rows filtered once and compressed in one
// libdeflate call, as photomirror's own encoder does.
// Scripts/bench.d/floor.py compiles it at run time (gcc -O2 against Debian's libraries).
//
//   csync [-j JOBS] [-p PER_HOST] [-t THREADS] [-s SIDE] -o CACHE URL_LIST
#include <curl/curl.h>
#include <errno.h>
#include <jpeglib.h>
#include <libdeflate.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <setjmp.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

typedef struct job {
    struct job *next;
    char *url;
    unsigned char *body;
    size_t length, capacity;
    EVP_MD_CTX *digest;
    char hex[65];
    size_t png_length;
    int ok;
} job;

// A queue of jobs between threads.
typedef struct {
    job *head, *tail;
    int closed;
    pthread_mutex_t lock;
    pthread_cond_t ready;
} queue;

static void queue_push(queue *q, job *j) {
    pthread_mutex_lock(&q->lock);
    j->next = NULL;
    if (q->tail) q->tail->next = j; else q->head = j;
    q->tail = j;
    pthread_cond_signal(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static job *queue_pop(queue *q) {
    pthread_mutex_lock(&q->lock);
    while (!q->head && !q->closed) pthread_cond_wait(&q->ready, &q->lock);
    job *j = q->head;
    if (j) { q->head = j->next; if (!q->head) q->tail = NULL; }
    pthread_mutex_unlock(&q->lock);
    return j;
}

static void queue_close(queue *q) {
    pthread_mutex_lock(&q->lock);
    q->closed = 1;
    pthread_cond_broadcast(&q->ready);
    pthread_mutex_unlock(&q->lock);
}

static queue decode_queue = {NULL, NULL, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
static queue index_queue = {NULL, NULL, 0, PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
static const char *cache_dir;
static int side = 40;
static int failures;
static pthread_mutex_t failures_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(job *j, const char *why) {
    pthread_mutex_lock(&failures_lock);
    failures++;
    fprintf(stderr, "csync: %s: %s\n", j->url, why);
    pthread_mutex_unlock(&failures_lock);
}

static size_t on_body(char *data, size_t size, size_t count, void *context) {
    job *j = context;
    size_t n = size * count;
    if (j->length + n > j->capacity) {
        size_t capacity = j->capacity ? j->capacity * 2 : 256 * 1024;
        while (capacity < j->length + n) capacity *= 2;
        unsigned char *grown = realloc(j->body, capacity);
        if (!grown) return 0;
        j->body = grown, j->capacity = capacity;
    }
    memcpy(j->body + j->length, data, n);
    j->length += n;
    EVP_DigestUpdate(j->digest, data, n);
    return n;
}

static void make_dirs(const char *path) {
    char buffer[4096];
    snprintf(buffer, sizeof buffer, "%s", path);
    for (char *p = buffer + 1; *p; p++) {
        if (*p != '/') continue;
        *p = 0;
        if (mkdir(buffer, 0755) != 0 && errno != EEXIST) return;
        *p = '/';
    }
    mkdir(buffer, 0755);
}

// Temp file in the target's folder, written whole, then renamed over the target.
static int write_atomically(const char *folder, const char *name, const void *bytes, size_t length) {
    char target[4096], temp[4096];
    snprintf(target, sizeof target, "%s/%s", folder, name);
    snprintf(temp, sizeof temp, "%s/.tmp-%s", folder, name);
    FILE *f = fopen(temp, "wb");
    if (!f && errno == ENOENT) { make_dirs(folder); f = fopen(temp, "wb"); }
    if (!f) return -1;
    int ok = fwrite(bytes, 1, length, f) == length;
    ok = fclose(f) == 0 && ok;
    if (!ok || rename(temp, target) != 0) { unlink(temp); return -1; }
    return 0;
}

typedef struct { struct jpeg_error_mgr mgr; jmp_buf escape; } jpeg_error;
static void on_jpeg_error(j_common_ptr cinfo) { longjmp(((jpeg_error *)cinfo->err)->escape, 1); }

// Exact area average of the centred square crop of src (RGB) into out (side x side).
static void fill(const unsigned char *src, int w, int h, unsigned char *out) {
    double crop = w < h ? w : h, x0 = (w - crop) / 2, y0 = (h - crop) / 2, step = crop / side;
    for (int oy = 0; oy < side; oy++) {
        double top = y0 + oy * step, bottom = top + step;
        for (int ox = 0; ox < side; ox++) {
            double left = x0 + ox * step, right = left + step, sum[3] = {0, 0, 0}, area = 0;
            for (int y = (int)top; y < bottom; y++) {
                double wy = (y + 1 < bottom ? y + 1 : bottom) - (y > top ? y : top);
                const unsigned char *row = src + (size_t)y * w * 3;
                for (int x = (int)left; x < right; x++) {
                    double weight = wy * ((x + 1 < right ? x + 1 : right) - (x > left ? x : left));
                    sum[0] += weight * row[3 * x], sum[1] += weight * row[3 * x + 1], sum[2] += weight * row[3 * x + 2];
                    area += weight;
                }
            }
            for (int c = 0; c < 3; c++) out[(oy * side + ox) * 3 + c] = (unsigned char)(sum[c] / area + 0.5);
        }
    }
}

typedef struct { unsigned char *bytes; size_t length, capacity; } png_buffer;

static void put32(unsigned char *at, unsigned value) {
    at[0] = value >> 24, at[1] = value >> 16, at[2] = value >> 8, at[3] = value;
}

// Length, type and CRC around `length` data bytes already at at + 8; returns the chunk's end.
static unsigned char *chunk(unsigned char *at, const char *type, unsigned length) {
    put32(at, length);
    memcpy(at + 4, type, 4);
    put32(at + 8 + length, (unsigned)crc32(crc32(0L, Z_NULL, 0), at + 4, length + 4));
    return at + 12 + length;
}

static unsigned char paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

// An RGB tile as a PNG: every row Paeth-filtered, one IDAT of one libdeflate (level 1) stream.
static int encode_png(const unsigned char *tile, png_buffer *out) {
    static __thread struct libdeflate_compressor *compressor;
    if (compressor == NULL && (compressor = libdeflate_alloc_compressor(1)) == NULL) return -1;
    const size_t stride = (size_t)side * 3, raw = (stride + 1) * side;
    unsigned char *filtered = malloc(raw);
    for (int y = 0; y < side; y++) {
        const unsigned char *row = tile + stride * y, *up = y ? row - stride : NULL;
        unsigned char *to = filtered + (stride + 1) * y;
        to[0] = 4;
        for (size_t i = 0; i < stride; i++) {
            int a = i >= 3 ? row[i - 3] : 0, b = up ? up[i] : 0, c = up && i >= 3 ? up[i - 3] : 0;
            to[1 + i] = (unsigned char)(row[i] - paeth(a, b, c));
        }
    }
    const size_t head = 8 + 25 + 8, room = libdeflate_zlib_compress_bound(compressor, raw);
    if (out->capacity < head + room + 12 + 4) {
        out->capacity = head + room + 12 + 4;
        out->bytes = realloc(out->bytes, out->capacity);
    }
    size_t compressed = libdeflate_zlib_compress(compressor, filtered, raw, out->bytes + head, room);
    free(filtered);
    if (compressed == 0) return -1;
    unsigned char *png = out->bytes;
    memcpy(png, "\x89PNG\r\n\x1a\n", 8);
    unsigned char *ihdr = png + 16;
    put32(ihdr, side), put32(ihdr + 4, side);
    ihdr[8] = 8, ihdr[9] = 2, ihdr[10] = ihdr[11] = ihdr[12] = 0;  // 8-bit RGB
    unsigned char *at = chunk(png + 8, "IHDR", 13);
    at = chunk(at, "IDAT", (unsigned)compressed);
    at = chunk(at, "IEND", 0);
    out->length = (size_t)(at - png);
    return 0;
}

static int thumbnail(job *j, png_buffer *out) {
    struct jpeg_decompress_struct cinfo;
    jpeg_error error;
    unsigned char *volatile pixels = NULL;
    cinfo.err = jpeg_std_error(&error.mgr);
    error.mgr.error_exit = on_jpeg_error;
    if (setjmp(error.escape)) { jpeg_destroy_decompress(&cinfo); free(pixels); return -1; }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, j->body, j->length);
    jpeg_read_header(&cinfo, TRUE);
    int short_side = cinfo.image_width < cinfo.image_height ? cinfo.image_width : cinfo.image_height;
    cinfo.scale_num = 1, cinfo.scale_denom = 8;
    while (cinfo.scale_denom > 1 && (short_side * cinfo.scale_num) / cinfo.scale_denom < (unsigned)side) cinfo.scale_denom /= 2;
    cinfo.out_color_space = JCS_RGB;
    jpeg_start_decompress(&cinfo);
    int w = cinfo.output_width, h = cinfo.output_height;
    pixels = malloc((size_t)w * h * 3);
    JSAMPROW *rows = malloc(sizeof(JSAMPROW) * h);
    for (int y = 0; y < h; y++) rows[y] = pixels + (size_t)y * w * 3;
    // libjpeg returns at most rec_outbuf_height rows per call, whatever it is offered.
    while (cinfo.output_scanline < cinfo.output_height)
        jpeg_read_scanlines(&cinfo, rows + cinfo.output_scanline, cinfo.output_height - cinfo.output_scanline);
    free(rows);
    jpeg_finish_decompress(&cinfo);
    jpeg_destroy_decompress(&cinfo);
    unsigned char *tile = malloc((size_t)side * side * 3);
    fill(pixels, w, h, tile);
    free(pixels);

    int encoded = encode_png(tile, out);
    free(tile);
    return encoded;
}

static void *decode_worker(void *unused) {
    (void)unused;
    png_buffer png = {NULL, 0, 0};
    char folder[4096], name[128];
    job *j;
    while ((j = queue_pop(&decode_queue))) {
        if (thumbnail(j, &png) != 0) { fail(j, "cannot decode"); j->ok = 0; queue_push(&index_queue, j); continue; }
        snprintf(folder, sizeof folder, "%s/originals/%.2s", cache_dir, j->hex);
        snprintf(name, sizeof name, "%s.jpg", j->hex);
        int ok = write_atomically(folder, name, j->body, j->length) == 0;
        snprintf(folder, sizeof folder, "%s/thumbs/%dx%d/%.2s", cache_dir, side, side, j->hex);
        snprintf(name, sizeof name, "%s.png", j->hex);
        ok = ok && write_atomically(folder, name, png.bytes, png.length) == 0;
        if (!ok) fail(j, "cannot write");
        j->ok = ok;
        j->png_length = png.length;
        free(j->body);
        j->body = NULL;
        queue_push(&index_queue, j);
    }
    free(png.bytes);
    return NULL;
}

static void check(int status, sqlite3 *db, const char *what) {
    if (status != SQLITE_OK && status != SQLITE_DONE && status != SQLITE_ROW) {
        fprintf(stderr, "csync: sqlite %s: %s\n", what, sqlite3_errmsg(db));
        exit(2);
    }
}

static void *index_worker(void *unused) {
    (void)unused;
    char path[4096];
    snprintf(path, sizeof path, "%s/index.sqlite", cache_dir);
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    check(sqlite3_exec(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL;"
                           "CREATE TABLE IF NOT EXISTS originals(sha256 TEXT PRIMARY KEY, path TEXT, bytes INTEGER,"
                           " format TEXT, stored_at REAL, last_access REAL);"
                           "CREATE TABLE IF NOT EXISTS thumbnails(original_sha256 TEXT, size TEXT, bytes INTEGER,"
                           " stored_at REAL, last_access REAL, PRIMARY KEY(original_sha256, size)) WITHOUT ROWID;",
                       NULL, NULL, NULL), db, "schema");
    sqlite3_stmt *original, *thumb;
    check(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO originals VALUES(?1, 'originals/' || substr(?1, 1, 2) || '/' || ?1 || '.jpg',"
                                 " ?2, 'jpeg', ?3, ?3)", -1, &original, NULL), db, "prepare");
    check(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO thumbnails VALUES(?1, ?2, ?3, ?4, ?4)", -1, &thumb, NULL), db, "prepare");
    char size[32];
    snprintf(size, sizeof size, "%dx%d", side, side);
    int pending = 0;
    job *j;
    while ((j = queue_pop(&index_queue))) {
        if (j->ok) {
            double now = (double)time(NULL);
            if (pending == 0) check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), db, "begin");
            sqlite3_bind_text(original, 1, j->hex, 64, SQLITE_STATIC);
            sqlite3_bind_int64(original, 2, (sqlite3_int64)j->length);
            sqlite3_bind_double(original, 3, now);
            check(sqlite3_step(original), db, "insert");
            sqlite3_reset(original);
            sqlite3_bind_text(thumb, 1, j->hex, 64, SQLITE_STATIC);
            sqlite3_bind_text(thumb, 2, size, -1, SQLITE_STATIC);
            sqlite3_bind_int64(thumb, 3, (sqlite3_int64)j->png_length);
            sqlite3_bind_double(thumb, 4, now);
            check(sqlite3_step(thumb), db, "insert");
            sqlite3_reset(thumb);
            if (++pending == 64) { check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit"); pending = 0; }
        }
        free(j->body);
        free(j->url);
        free(j);
    }
    if (pending) check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), db, "commit");
    sqlite3_finalize(original);
    sqlite3_finalize(thumb);
    sqlite3_close(db);
    return NULL;
}

int main(int argc, char **argv) {
    int jobs = 16, per_host = 6, threads = (int)sysconf(_SC_NPROCESSORS_ONLN), opt;
    while ((opt = getopt(argc, argv, "j:p:t:s:o:")) != -1) {
        switch (opt) {
        case 'j': jobs = atoi(optarg); break;
        case 'p': per_host = atoi(optarg); break;
        case 't': threads = atoi(optarg); break;
        case 's': side = atoi(optarg); break;
        case 'o': cache_dir = optarg; break;
        default: return 2;
        }
    }
    if (!cache_dir || optind != argc - 1) {
        fprintf(stderr, "usage: csync [-j JOBS] [-p PER_HOST] [-t THREADS] [-s SIDE] -o CACHE URL_LIST\n");
        return 2;
    }
    FILE *list = fopen(argv[optind], "r");
    if (!list) { perror(argv[optind]); return 2; }
    make_dirs(cache_dir);

    pthread_t workers[64], indexer;
    if (threads < 1) threads = 1;
    if (threads > 64) threads = 64;
    for (int i = 0; i < threads; i++) pthread_create(&workers[i], NULL, decode_worker, NULL);
    pthread_create(&indexer, NULL, index_worker, NULL);

    curl_global_init(CURL_GLOBAL_DEFAULT);
    CURLM *multi = curl_multi_init();
    curl_multi_setopt(multi, CURLMOPT_MAX_HOST_CONNECTIONS, (long)per_host);
    curl_multi_setopt(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, (long)jobs);
    char line[4096];
    int running = 0, queued = 0, more = 1;
    // Finished transfers' easy handles, kept for the next URLs: at most `jobs` are ever made.
    CURL **spare = malloc(sizeof(CURL *) * (size_t)(jobs > 0 ? jobs : 1));
    int spares = 0;
    do {
        // Keep `jobs` transfers in flight; libcurl queues those over the host's connections.
        while (more && queued < jobs) {
            if (!fgets(line, sizeof line, list)) { more = 0; break; }
            line[strcspn(line, "\r\n")] = 0;
            if (!*line) continue;
            job *j = calloc(1, sizeof *j);
            j->url = strdup(line);
            j->digest = EVP_MD_CTX_new();
            EVP_DigestInit_ex(j->digest, EVP_sha256(), NULL);
            CURL *easy = spares ? spare[--spares] : curl_easy_init();
            curl_easy_setopt(easy, CURLOPT_URL, j->url);
            curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, on_body);
            curl_easy_setopt(easy, CURLOPT_WRITEDATA, j);
            curl_easy_setopt(easy, CURLOPT_PRIVATE, j);
            curl_multi_add_handle(multi, easy);
            queued++;
        }
        curl_multi_perform(multi, &running);
        CURLMsg *message;
        int left;
        while ((message = curl_multi_info_read(multi, &left))) {
            if (message->msg != CURLMSG_DONE) continue;
            CURL *easy = message->easy_handle;
            job *j;
            long status = 0;
            curl_easy_getinfo(easy, CURLINFO_PRIVATE, (char **)&j);
            curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
            unsigned char digest[32];
            EVP_DigestFinal_ex(j->digest, digest, NULL);
            EVP_MD_CTX_free(j->digest);
            for (int i = 0; i < 32; i++) sprintf(j->hex + 2 * i, "%02x", digest[i]);
            curl_multi_remove_handle(multi, easy);
            spare[spares++] = easy;
            queued--;
            if (message->data.result != CURLE_OK || status != 200) {
                fail(j, message->data.result != CURLE_OK ? curl_easy_strerror(message->data.result) : "HTTP status");
                j->ok = 0;
                queue_push(&index_queue, j);
            } else {
                queue_push(&decode_queue, j);
            }
        }
        if (running) curl_multi_poll(multi, NULL, 0, 100, NULL);
    } while (running || queued || more);
    while (spares) curl_easy_cleanup(spare[--spares]);
    free(spare);
    curl_multi_cleanup(multi);
    fclose(list);

    queue_close(&decode_queue);
    for (int i = 0; i < threads; i++) pthread_join(workers[i], NULL);
    queue_close(&index_queue);
    pthread_join(indexer, NULL);
    curl_global_cleanup();
    return failures ? 1 : 0;
}
