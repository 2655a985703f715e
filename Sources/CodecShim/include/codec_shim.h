#pragma once
// Umbrella for the codec shims. Each job lives in its own header/source pair so the
// setjmp-sensitive code stays small enough to audit. Public headers expose no libjpeg or
// libpng types: Swift only sees plain structs and opaque handles.
#include "pm_image.h"
#include "jpeg_decode.h"
#include "png_decode.h"
#include "webp_decode.h"
#include "heif_decode.h"
#include "heif_planar.h"
#include "gif_decode.h"
#include "png_encode.h"
#include "webp_encode.h"
#include "jpeg_encode.h"
#include "heif_encode.h"
#include "color_convert.h"
#include "resample.h"
#include "pm_memory.h"
