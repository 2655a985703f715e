#pragma once
#include <stddef.h>

/// Returns memory the process freed to the system (glibc malloc_trim): decoders free large
/// buffers in per-thread arenas, which otherwise stay resident. Not declared by Swift's Glibc.
void pm_release_freed_memory(void);

/// Makes every allocation of at least `bytes` its own mapping, unmapped when freed (glibc
/// M_MMAP_THRESHOLD, which also stops glibc raising that threshold by itself), and trims an
/// arena's free top beyond twice that (M_TRIM_THRESHOLD, glibc's own ratio).
void pm_map_allocations_above(size_t bytes);

/// Lets glibc malloc make at most `count` arenas (M_ARENA_MAX); threads then share them.
void pm_limit_arenas(int count);
