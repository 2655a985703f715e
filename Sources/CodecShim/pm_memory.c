#include "pm_memory.h"

#include <stdlib.h>  // defines __GLIBC__ (through features.h) on glibc systems
#if defined(__GLIBC__)
#include <malloc.h>
#endif

void pm_release_freed_memory(void) {
#if defined(__GLIBC__)
    malloc_trim(0);
#endif
}

void pm_map_allocations_above(size_t bytes) {
#if defined(__GLIBC__)
    mallopt(M_MMAP_THRESHOLD, (int)bytes);
    // Fixing the mapping threshold leaves the trim threshold where glibc's own adjustment put
    // it: twice the largest mapped chunk freed so far (18 MB after one 2048 px progressive
    // JPEG), which every arena then keeps free at its top. Its rule, on the fixed threshold.
    mallopt(M_TRIM_THRESHOLD, (int)(2 * bytes));
#else
    (void)bytes;
#endif
}

void pm_limit_arenas(int count) {
#if defined(__GLIBC__)
    mallopt(M_ARENA_MAX, count);
#else
    (void)count;
#endif
}
