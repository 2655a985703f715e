#include "codec_shim.h"
