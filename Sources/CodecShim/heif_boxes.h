#pragma once
// What a HEIF/AVIF file's boxes say that libheif 1.15's API does not: read straight from the
// bytes, bounds-checked, before libheif sees them. Internal to the HEIF shim (heif_decode.c).
#include <stddef.h>
#include <stdint.h>

// Colour boxes whose matrix is rewritten at most (see pm_heif_boxes.ycgco_matrix_at).
#define PM_HEIF_MAX_PATCHED_COLR 16

typedef struct pm_heif_boxes {
    int canvas_width;      ///< a grid's or overlay's declared output size, 0 when not derived
    int canvas_height;
    int has_transform;     ///< the primary item has irot or imir, or its properties could not be read
    /// The primary image is coded 4:0:0 (its own av1C/hvcC, or its first tile's when derived).
    int monochrome;
    /// The primary image's nclx matrix when it is YCgCo-Re (16) or YCgCo-Ro (17), else 0, and
    /// its full-range flag.
    int ycgco_matrix;
    int ycgco_full_range;
    /// Offsets in the file of the matrix field of every nclx colour box that names 16 or 17.
    size_t ycgco_matrix_at[PM_HEIF_MAX_PATCHED_COLR];
    int ycgco_matrix_count;
    /// An image sequence whose ftyp lists no brand libheif 1.15 accepts (heic, heix, mif1, avif;
    /// AVIF sequences may name only avis): the offset of the compatible brand to read as mif1,
    /// or 0 when the file needs none or has none to spare.
    size_t sequence_brand_at;
    int sequence;          ///< the ftyp names an image sequence brand (avis, msf1, hevs)
    int has_meta;          ///< there is a top-level meta box (items, not only tracks)
} pm_heif_boxes;

void pm_heif_read_boxes(const uint8_t *data, size_t length, pm_heif_boxes *boxes);
