// Colour conversion to sRGB through LittleCMS. See color_convert.h.
#include "color_convert.h"

#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <lcms2.h>

const char *const pm_color_builtin_cmyk_path = "/usr/share/color/icc/ghostscript/default_cmyk.icc";

// Profiles larger than this are refused rather than parsed (real CMYK profiles are under 2 MB).
#define MAX_PROFILE_BYTES (8u << 20)

// Pillow's ImageCms.profileToProfile default: perceptual, no black point compensation. LittleCMS
// falls back to colorimetric for the matrix/TRC profiles most RGB images carry.
#define INTENT INTENT_PERCEPTUAL

// LittleCMS reports parse and build errors through a handler; the default one prints nothing
// today, but a silent one is set explicitly so that no build of the library can reach stderr.
// The text lands in the calling thread's message buffer, when it has one.
static _Thread_local char *current_message;

static void silent_handler(cmsContext context, cmsUInt32Number code, const char *text) {
    (void)context;
    (void)code;
    if (current_message != NULL && current_message[0] == 0)
        snprintf(current_message, PM_MESSAGE_CAPACITY, "ICC profile: %s", text);
}

static pthread_once_t handler_once = PTHREAD_ONCE_INIT;
static void install_handler(void) { cmsSetLogErrorHandler(silent_handler); }

// A context of its own for every transform, so the handler is per context and no global
// LittleCMS state is shared between threads.
static cmsContext new_context(void) {
    pthread_once(&handler_once, install_handler);
    cmsContext context = cmsCreateContext(NULL, NULL);
    if (context != NULL) cmsSetLogErrorHandlerTHR(context, silent_handler);
    return context;
}

// --- sRGB detection from the header and tag table alone. ---

static uint32_t be32(const uint8_t *p) { return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]; }
static uint16_t be16(const uint8_t *p) { return (uint16_t)(p[0] << 8 | p[1]); }

// The tag's data, bounds-checked, or NULL.
static const uint8_t *find_tag(const uint8_t *icc, size_t length, const char sig[4], uint32_t *size) {
    if (length < 132) return NULL;
    const uint32_t count = be32(icc + 128);
    if (count > (length - 132) / 12) return NULL;
    for (uint32_t i = 0; i < count; i++) {
        const uint8_t *entry = icc + 132 + 12 * (size_t)i;
        if (memcmp(entry, sig, 4) != 0) continue;
        const uint32_t offset = be32(entry + 4), bytes = be32(entry + 8);
        if (offset > length || bytes > length - offset) return NULL;
        *size = bytes;
        return icc + offset;
    }
    return NULL;
}

static int contains(const uint8_t *data, size_t length, const char *needle, size_t needle_length) {
    for (size_t i = 0; i + needle_length <= length; i++)
        if (memcmp(data + i, needle, needle_length) == 0) return 1;
    return 0;
}

// sRGB's colorants adapted to D50, as s15Fixed16 (IEC 61966-2-1 profile, also LittleCMS's own).
static const double srgb_colorants[3][3] = {
    {0.4360747, 0.2225045, 0.0139322}, {0.3850649, 0.7168786, 0.0971045}, {0.1430804, 0.0606169, 0.7141733}};

static int colorant_matches(const uint8_t *icc, size_t length, const char sig[4], const double *expected) {
    uint32_t size = 0;
    const uint8_t *tag = find_tag(icc, length, sig, &size);
    if (tag == NULL || size < 20 || memcmp(tag, "XYZ ", 4) != 0) return 0;
    for (int i = 0; i < 3; i++) {
        const double value = (int32_t)be32(tag + 8 + 4 * i) / 65536.0;
        if (fabs(value - expected[i]) > 0.002) return 0;
    }
    return 1;
}

// sRGB's curve passes 0.214 at 0.5; a pure gamma 2.2 passes 0.218, linear 0.5.
static int trc_is_srgb(const uint8_t *icc, size_t length) {
    uint32_t size = 0;
    const uint8_t *tag = find_tag(icc, length, "rTRC", &size);
    if (tag == NULL || size < 12) return 0;
    if (memcmp(tag, "curv", 4) == 0) {
        const uint32_t entries = be32(tag + 8);
        if (entries < 2 || entries > (size - 12) / 2) return 0;
        const uint32_t middle = (entries - 1) / 2;
        const double x = (double)middle / (entries - 1), y = be16(tag + 12 + 2 * middle) / 65535.0;
        const double srgb = x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4);
        return fabs(y - srgb) < 0.003;
    }
    if (memcmp(tag, "para", 4) == 0 && size >= 16) {
        const int type = be16(tag + 8);
        const double gamma = (int32_t)be32(tag + 12) / 65536.0;
        return (type == 3 || type == 4) && fabs(gamma - 2.4) < 0.01;
    }
    return 0;
}

int pm_color_profile_is_srgb(const uint8_t *icc, size_t length) {
    if (length < 132 || memcmp(icc + 16, "RGB ", 4) != 0) return 0;
    uint32_t size = 0;
    const uint8_t *desc = find_tag(icc, length, "desc", &size);
    if (desc == NULL || !(contains(desc, size, "sRGB", 4) || contains(desc, size, "\0s\0R\0G\0B", 8))) return 0;
    return colorant_matches(icc, length, "rXYZ", srgb_colorants[0]) &&
           colorant_matches(icc, length, "gXYZ", srgb_colorants[1]) &&
           colorant_matches(icc, length, "bXYZ", srgb_colorants[2]) && trc_is_srgb(icc, length);
}

// --- Transforms, cached per profile. ---

struct pm_color_transform {
    uint8_t *key;             // the profile's bytes (or a description of a built profile)
    size_t key_length;
    uint32_t input_format;
    cmsContext context;
    cmsHTRANSFORM transform;  // NULL: the profile was found unusable; `message` says why
    char message[PM_MESSAGE_CAPACITY];
    int cached;
};

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static pm_color_transform *cache[PM_COLOR_CACHED_TRANSFORMS];
static int cache_count;

typedef cmsHPROFILE (*profile_builder)(cmsContext context, const void *argument);

static void destroy(pm_color_transform *entry) {
    if (entry == NULL) return;
    if (entry->transform != NULL) cmsDeleteTransform(entry->transform);
    if (entry->context != NULL) cmsDeleteContext(entry->context);
    free(entry->key);
    free(entry);
}

static pm_color_transform *build(const void *key, size_t key_length, uint32_t input_format,
                                 uint32_t output_format, profile_builder make_profile, const void *argument) {
    pm_color_transform *entry = calloc(1, sizeof *entry);
    if (entry == NULL) return NULL;
    entry->key = malloc(key_length);
    if (entry->key == NULL) {
        free(entry);
        return NULL;
    }
    memcpy(entry->key, key, key_length);
    entry->key_length = key_length;
    entry->input_format = input_format;
    entry->context = new_context();
    if (entry->context == NULL) {
        snprintf(entry->message, PM_MESSAGE_CAPACITY, "out of memory");
        return entry;
    }
    current_message = entry->message;
    cmsHPROFILE input = make_profile(entry->context, argument);
    cmsHPROFILE srgb = cmsCreate_sRGBProfileTHR(entry->context);
    if (input != NULL && srgb != NULL)
        // NOCACHE: the one-pixel cache would be written by every thread that shares the transform.
        entry->transform = cmsCreateTransformTHR(entry->context, input, input_format, srgb, output_format,
                                                 INTENT, cmsFLAGS_NOCACHE);
    if (input != NULL) cmsCloseProfile(input);
    if (srgb != NULL) cmsCloseProfile(srgb);
    current_message = NULL;
    if (entry->transform == NULL && entry->message[0] == 0)
        snprintf(entry->message, PM_MESSAGE_CAPACITY, "ICC profile: %s",
                 input == NULL ? "unreadable" : "cannot be converted to sRGB");
    if (entry->transform == NULL) {  // the context is not needed to remember the failure
        cmsDeleteContext(entry->context);
        entry->context = NULL;
    }
    return entry;
}

// The cached transform for `key` (a profile's bytes), built on first use. Keyed by the bytes
// themselves: a length check and a memcmp are much cheaper than hashing a large profile on every
// image, and nothing can collide. Building happens under the lock, so 200 images with one profile build it once. When
// the cache is full the transform is built for this call only (see pm_color_transform_release).
static pm_color_transform *transform_for(const void *key, size_t key_length, uint32_t input_format,
                                         uint32_t output_format, profile_builder make_profile, const void *argument) {
    pthread_mutex_lock(&cache_lock);
    for (int i = 0; i < cache_count; i++) {
        pm_color_transform *entry = cache[i];
        if (entry->key_length == key_length && entry->input_format == input_format &&
            memcmp(entry->key, key, key_length) == 0) {
            pthread_mutex_unlock(&cache_lock);
            return entry;
        }
    }
    pm_color_transform *entry = build(key, key_length, input_format, output_format, make_profile, argument);
    if (entry != NULL && cache_count < PM_COLOR_CACHED_TRANSFORMS) {
        entry->cached = 1;
        cache[cache_count++] = entry;
    }
    pthread_mutex_unlock(&cache_lock);
    return entry;
}

void pm_color_transform_release(pm_color_transform *transform) {
    if (transform != NULL && !transform->cached) destroy(transform);
}

// --- Profiles. ---

typedef struct memory_profile {
    const uint8_t *data;
    size_t length;
} memory_profile;

static cmsHPROFILE open_memory(cmsContext context, const void *argument) {
    const memory_profile *profile = argument;
    return cmsOpenProfileFromMemTHR(context, profile->data, (cmsUInt32Number)profile->length);
}

static cmsHPROFILE open_builtin_cmyk(cmsContext context, const void *argument) {
    (void)argument;
    FILE *file = fopen(pm_color_builtin_cmyk_path, "rb");
    if (file == NULL) return NULL;
    uint8_t *data = NULL;
    long size = -1;
    if (fseek(file, 0, SEEK_END) == 0) size = ftell(file);
    if (size > 0 && size <= (long)MAX_PROFILE_BYTES && fseek(file, 0, SEEK_SET) == 0) {
        data = malloc((size_t)size);
        if (data != NULL && fread(data, 1, (size_t)size, file) != (size_t)size) {
            free(data);
            data = NULL;
        }
    }
    fclose(file);
    if (data == NULL) return NULL;
    cmsHPROFILE profile = cmsOpenProfileFromMemTHR(context, data, (cmsUInt32Number)size);
    free(data);
    return profile;
}

// ITU-T H.273 colour primaries as CIE xy: red, green, blue, white.
static int cicp_primaries(int code, cmsCIExyYTRIPLE *primaries, cmsCIExyY *white) {
    static const struct { int code; double xy[8]; } table[] = {
        {1, {0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290}},   // BT.709, sRGB
        {2, {0.640, 0.330, 0.300, 0.600, 0.150, 0.060, 0.3127, 0.3290}},   // unspecified: as sRGB
        {5, {0.640, 0.330, 0.290, 0.600, 0.150, 0.060, 0.3127, 0.3290}},   // BT.470 B/G, BT.601 625
        {6, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},   // BT.601 525, SMPTE 170M
        {7, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},   // SMPTE 240M
        {9, {0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290}},   // BT.2020, BT.2100
        {11, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351}},    // DCI-P3 (SMPTE RP 431-2)
        {12, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290}},  // Display P3 (SMPTE EG 432-1)
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
        if (table[i].code != code) continue;
        const double *xy = table[i].xy;
        *primaries = (cmsCIExyYTRIPLE){{xy[0], xy[1], 1}, {xy[2], xy[3], 1}, {xy[4], xy[5], 1}};
        *white = (cmsCIExyY){xy[6], xy[7], 1};
        return 1;
    }
    return 0;
}

// The tone curve LittleCMS builds for an H.273 transfer, as parametric type and parameters, or 0.
// BT.709-family transfers are displayed with sRGB's curve, so that BT.709-tagged images, the
// fast path, and wide-gamut ones with the same transfer are treated alike. PQ and HLG need tone
// mapping this stage does not do.
static int cicp_curve(int transfer, double params[5]) {
    switch (transfer) {
    case 0: case 1: case 2: case 6: case 13: case 14: case 15:
        params[0] = 2.4, params[1] = 1 / 1.055, params[2] = 0.055 / 1.055, params[3] = 1 / 12.92, params[4] = 0.04045;
        return 4;
    case 4: params[0] = 2.2; return 1;
    case 5: params[0] = 2.8; return 1;
    case 8: params[0] = 1.0; return 1;
    default: return 0;
    }
}

typedef struct cicp_description {
    int primaries, transfer;
} cicp_description;

static cmsHPROFILE open_cicp(cmsContext context, const void *argument) {
    const cicp_description *cicp = argument;
    cmsCIExyYTRIPLE primaries;
    cmsCIExyY white;
    double params[5] = {0};
    const int type = cicp_curve(cicp->transfer, params);
    if (!cicp_primaries(cicp->primaries, &primaries, &white) || type == 0) return NULL;
    cmsToneCurve *curve = cmsBuildParametricToneCurve(context, type, params);
    if (curve == NULL) return NULL;
    cmsToneCurve *curves[3] = {curve, curve, curve};
    cmsHPROFILE profile = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
    cmsFreeToneCurve(curve);
    return profile;
}

// --- Conversion of decoded RGB(A). ---

// Grey profiles describe grey images that the decoders expanded to RGB: read the first of the
// three equal samples, write all three.
#define TYPE_GRAY_IN_RGB_8 (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | EXTRA_SH(2) | BYTES_SH(1))
#define TYPE_GRAY_IN_RGBA_8 (COLORSPACE_SH(PT_GRAY) | CHANNELS_SH(1) | EXTRA_SH(3) | BYTES_SH(1))

static int is_grey(const pm_image *image) {
    const size_t count = (size_t)image->width * (size_t)image->height, step = (size_t)image->channels;
    for (const uint8_t *p = image->data, *end = image->data + count * step; p < end; p += step)
        if (p[0] != p[1] || p[1] != p[2]) return 0;
    return 1;
}

// Rows one at a time: a row's pixel count always fits LittleCMS's 32-bit count. The input and
// output formats have the same size, and LittleCMS reads each pixel before writing it, so the
// conversion runs in place; the output's extra (alpha) byte is skipped, not written.
static void run_in_place(cmsHTRANSFORM transform, pm_image *image) {
    const size_t stride = (size_t)image->width * (size_t)image->channels;
    for (int y = 0; y < image->height; y++) {
        uint8_t *row = image->data + stride * (size_t)y;
        cmsDoTransform(transform, row, row, (cmsUInt32Number)image->width);
    }
}

// The transform for `image`'s colour description. `grey` says whether its pixels are all grey,
// which only a grey profile asks; -1 has it checked in image->data.
static int srgb_transform(const pm_image *image, int grey, pm_color_transform **transform, char *message) {
    *transform = NULL;
    if (image->width <= 0 || image->height <= 0 || (image->channels != 3 && image->channels != 4))
        return 0;
    const int alpha = image->channels == 4;
    const uint32_t output_format = alpha ? TYPE_RGBA_8 : TYPE_RGB_8;
    pm_color_transform *entry;
    if (image->icc != NULL && image->icc_length > 0) {
        const uint8_t *icc = image->icc;
        const size_t length = image->icc_length;
        if (length < 132 || length > MAX_PROFILE_BYTES) {
            snprintf(message, PM_MESSAGE_CAPACITY, "ICC profile: %zu bytes is not a profile", length);
            return -1;
        }
        uint32_t input_format;
        if (memcmp(icc + 16, "RGB ", 4) == 0) {
            if (pm_color_profile_is_srgb(icc, length)) return 0;
            input_format = output_format;
        } else if (memcmp(icc + 16, "GRAY", 4) == 0) {
            if (grey < 0) grey = is_grey(image);
            if (!grey) return 0;  // a grey profile on a colour image describes nothing here
            input_format = alpha ? TYPE_GRAY_IN_RGBA_8 : TYPE_GRAY_IN_RGB_8;
        } else {
            return 0;  // CMYK is converted by the JPEG decoder; Lab or others have no pixels here
        }
        const memory_profile profile = {icc, length};
        entry = transform_for(icc, length, input_format, output_format, open_memory, &profile);
    } else if (image->cicp_primaries != 0) {
        const int primaries = image->cicp_primaries, transfer = image->cicp_transfer;
        double params[5];
        cmsCIExyYTRIPLE unused_primaries;
        cmsCIExyY unused_white;
        if (!cicp_primaries(primaries, &unused_primaries, &unused_white) || cicp_curve(transfer, params) == 0)
            return 0;
        const int srgb_curve = cicp_curve(transfer, params) == 4;
        if ((primaries == 1 || primaries == 2) && srgb_curve) return 0;
        const cicp_description cicp = {primaries, transfer};
        // Shorter than any profile (132 bytes at least), so never equal to one.
        char key[32];
        const int key_length = snprintf(key, sizeof key, "cicp %d %d", primaries, transfer);
        entry = transform_for(key, (size_t)key_length, output_format, output_format, open_cicp, &cicp);
    } else {
        return 0;
    }
    if (entry == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "out of memory");
        return -1;
    }
    if (entry->transform == NULL) {
        snprintf(message, PM_MESSAGE_CAPACITY, "%s", entry->message);
        pm_color_transform_release(entry);
        return -1;
    }
    *transform = entry;
    return 1;
}

int pm_color_convert_to_srgb(pm_image *image, char *message) {
    if (image->data == NULL) return 0;
    pm_color_transform *transform;
    const int status = srgb_transform(image, -1, &transform, message);
    if (status != 1) return status;
    run_in_place(transform->transform, image);
    pm_color_transform_release(transform);
    return 1;
}

int pm_color_srgb_row_transform(const pm_image *description, int grey, pm_color_transform **transform,
                                char *message) {
    return srgb_transform(description, grey ? 1 : 0, transform, message);
}

void pm_color_convert_row(pm_color_transform *transform, uint8_t *row, int width) {
    cmsDoTransform(transform->transform, row, row, (cmsUInt32Number)width);
}

// --- PNG gAMA/cHRM. ---

int pm_color_profile_from_gamma(double file_gamma, const double *chromaticities, uint8_t **icc, size_t *length) {
    *icc = NULL;
    *length = 0;
    if (!(file_gamma >= 0.01 && file_gamma <= 10)) return -1;
    cmsCIExyY white = {0.3127, 0.3290, 1};
    cmsCIExyYTRIPLE primaries = {{0.640, 0.330, 1}, {0.300, 0.600, 1}, {0.150, 0.060, 1}};
    if (chromaticities != NULL) {
        for (int i = 0; i < 8; i++)
            if (!(chromaticities[i] >= 0 && chromaticities[i] <= 1)) return -1;
        for (int i = 1; i < 8; i += 2)
            if (chromaticities[i] < 0.001) return -1;
        white = (cmsCIExyY){chromaticities[0], chromaticities[1], 1};
        primaries = (cmsCIExyYTRIPLE){{chromaticities[2], chromaticities[3], 1},
                                      {chromaticities[4], chromaticities[5], 1},
                                      {chromaticities[6], chromaticities[7], 1}};
    }
    cmsContext context = new_context();
    if (context == NULL) return -1;
    int status = -1;
    cmsToneCurve *curve = cmsBuildGamma(context, 1.0 / file_gamma);
    cmsHPROFILE profile = NULL;
    if (curve != NULL) {
        cmsToneCurve *curves[3] = {curve, curve, curve};
        profile = cmsCreateRGBProfileTHR(context, &white, &primaries, curves);
        cmsFreeToneCurve(curve);
    }
    cmsUInt32Number size = 0;
    if (profile != NULL && cmsSaveProfileToMem(profile, NULL, &size) && size > 0) {
        uint8_t *bytes = malloc(size);
        if (bytes != NULL && cmsSaveProfileToMem(profile, bytes, &size)) {
            *icc = bytes;
            *length = size;
            status = 0;
        } else {
            free(bytes);
        }
    }
    if (profile != NULL) cmsCloseProfile(profile);
    cmsDeleteContext(context);
    return status;
}

// --- CMYK JPEGs. ---

pm_color_transform *pm_color_cmyk_transform(const uint8_t *icc, size_t length, int inverted) {
    const uint32_t input_format = inverted ? TYPE_CMYK_8_REV : TYPE_CMYK_8;
    if (icc != NULL && length >= 132 && length <= MAX_PROFILE_BYTES && memcmp(icc + 16, "CMYK", 4) == 0) {
        const memory_profile profile = {icc, length};
        pm_color_transform *entry = transform_for(icc, length, input_format, TYPE_RGB_8, open_memory, &profile);
        if (entry != NULL && entry->transform != NULL) return entry;
        pm_color_transform_release(entry);
    }
    static const char builtin_key[] = "built-in CMYK";  // shorter than any profile
    pm_color_transform *entry = transform_for(builtin_key, sizeof builtin_key, input_format, TYPE_RGB_8,
                                              open_builtin_cmyk, NULL);
    if (entry != NULL && entry->transform != NULL) return entry;
    pm_color_transform_release(entry);
    return NULL;
}

void pm_color_transform_cmyk_row(pm_color_transform *transform, const uint8_t *cmyk, uint8_t *rgb, int count) {
    cmsDoTransform(transform->transform, cmyk, rgb, (cmsUInt32Number)count);
}
