#pragma once
#include "pm_image.h"

/// An open HEIF/AVIF file: boxes parsed and the primary image found, no pixel memory yet. Two
/// steps so the caller can check the declared size against its limits before decoding.
typedef struct pm_heif pm_heif;

typedef struct pm_heif_header {
    int width;            ///< the primary image as displayed: after clap and irot
    int height;
    int stored_width;     ///< its ispe, the size decoded before the transforms
    int stored_height;
    int canvas_width;     ///< a grid's or overlay's declared output size (0 when not derived)
    int canvas_height;
    int has_alpha;
    int bit_depth;        ///< luma bits as coded (8, 10, 12), or -1 when unknown
    int has_transform;    ///< nonzero when the primary item has an irot or imir property (libheif
                          ///< applies it), or when its properties could not be read to tell
    const uint8_t *exif;  ///< the primary item's EXIF TIFF structure ("II*\0"/"MM\0*"), or NULL;
    size_t exif_length;   ///< valid until pm_heif_close
    const uint8_t *xmp;   ///< the primary item's XMP packet (mime item, application/rdf+xml), or NULL;
    size_t xmp_length;    ///< valid until pm_heif_close
} pm_heif_header;

/// Reads the file's boxes from memory (not copied: `data` must outlive the handle). Every
/// image's ispe side over `max_pixels` (capped at libheif's own 32768) fails here. `codec` names
/// the format's decoder for messages about a missing plugin: "HEVC" or "AV1". Returns NULL and
/// fills `message` on failure.
pm_heif *pm_heif_open(const uint8_t *data, size_t length, int64_t max_pixels, const char *codec,
                      pm_heif_header *header, char *message);

/// Decodes the primary image with its transforms (clap, irot, imir) to 8-bit RGB, or RGBA when it
/// has an alpha image (straight alpha), and copies its ICC profile or nclx code points. Fails
/// without decoding when the stored, displayed or canvas size is over `max_pixels`.
/// Returns 0, or -1 with `message` filled.
int pm_heif_decode(pm_heif *heif, int64_t max_pixels, pm_image *out, char *message);

/// The message for a libheif error (its code, subcode and text): a missing codec plugin says which
/// package to install (`av1` nonzero: libdav1d6, else libde265-0); other text is passed on.
void pm_heif_describe_error(int code, int subcode, const char *text, int av1, char *message);

void pm_heif_close(pm_heif *heif);
