#pragma once
// libheif, loaded on first use: linked in, it brings libx265, libaom, libdav1d and libde265 into
// every process (some 30 MB of libraries to map and relocate at start-up), while only a HEIF or
// AVIF image needs them. The table keeps heif.h's signatures, so every call stays type-checked.
#include <libheif/heif.h>

#define PM_HEIF_FUNCTIONS(X)                                                   \
    X(context_alloc) X(context_free) X(context_read_from_memory_without_copy) \
    X(context_set_maximum_image_size_limit) X(context_get_primary_image_handle) \
    X(image_handle_release) X(image_handle_get_width) X(image_handle_get_height) \
    X(image_handle_get_ispe_width) X(image_handle_get_ispe_height)             \
    X(image_handle_has_alpha_channel) X(image_handle_is_premultiplied_alpha)   \
    X(image_handle_get_luma_bits_per_pixel) X(image_handle_get_color_profile_type) \
    X(image_handle_get_raw_color_profile_size) X(image_handle_get_raw_color_profile) \
    X(image_handle_get_nclx_color_profile) X(nclx_color_profile_free)          \
    X(image_handle_get_list_of_metadata_block_IDs) X(image_handle_get_number_of_metadata_blocks) \
    X(image_handle_get_metadata_size) X(image_handle_get_metadata_content_type) \
    X(image_handle_get_metadata) X(decoding_options_alloc) X(decoding_options_free) \
    X(decode_image) X(image_release) X(image_get_width) X(image_get_height)    \
    X(image_get_bits_per_pixel) X(image_get_plane_readonly) X(image_get_bits_per_pixel_range) \
    X(image_get_chroma_format) X(image_get_nclx_color_profile) X(image_has_channel) \
    X(context_get_encoder_for_format) X(encoder_release) X(encoder_set_lossy_quality) \
    X(encoder_set_parameter_integer) X(image_create) X(image_add_plane) X(image_get_plane) \
    X(context_encode_image) X(context_write)

typedef struct pm_heif_library {
#define PM_HEIF_POINTER(name) __typeof__(heif_##name) *name;
    PM_HEIF_FUNCTIONS(PM_HEIF_POINTER)
#undef PM_HEIF_POINTER
} pm_heif_library;

/// The loaded library, or NULL with `message` saying why (libheif1 not installed, or too old to
/// have one of the functions). Loaded once per process; safe from any thread.
const pm_heif_library *pm_heif_library_load(char *message);

/// The table pm_heif_library_load filled: only for a thread that has seen that call succeed.
const pm_heif_library *pm_heif_library_get(void);
