#include "pm_image.h"
#include <stdlib.h>

void pm_image_free(pm_image *image) {
    free(image->data);
    free(image->icc);
    free(image->exif);
    image->data = image->icc = image->exif = NULL;
    image->icc_length = image->exif_length = 0;
}

void pm_buffer_free(pm_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}
