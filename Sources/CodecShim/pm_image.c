#include "pm_image.h"
#include <stdlib.h>

void pm_image_free(pm_image *image) {
    free(image->data);
    image->data = NULL;
}

void pm_buffer_free(pm_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}
