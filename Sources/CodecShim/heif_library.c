#include "heif_library.h"
#include "pm_image.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static pm_heif_library library;
static char failure[PM_MESSAGE_CAPACITY];
static int loaded;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    // RTLD_LOCAL: its symbols serve this table only; the soname is the ABI libheif-dev built us for.
    void *handle = dlopen("libheif.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        snprintf(failure, sizeof failure, "libheif is not installed (libheif1): %s", dlerror());
        return;
    }
#define PM_HEIF_LOAD(name)                                                                  \
    library.name = (__typeof__(library.name))dlsym(handle, "heif_" #name);                  \
    if (!library.name) {                                                                    \
        snprintf(failure, sizeof failure, "this libheif has no heif_%s (too old)", #name); \
        return;                                                                             \
    }
    PM_HEIF_FUNCTIONS(PM_HEIF_LOAD)
#undef PM_HEIF_LOAD
    loaded = 1;
}

const pm_heif_library *pm_heif_library_load(char *message) {
    pthread_once(&once, load);
    if (loaded) return &library;
    snprintf(message, PM_MESSAGE_CAPACITY, "%s", failure);
    return NULL;
}

const pm_heif_library *pm_heif_library_get(void) { return &library; }
