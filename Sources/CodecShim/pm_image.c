#include "pm_image.h"
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

void pm_image_free(pm_image *image) {
    free(image->data);
    free(image->icc);
    free(image->exif);
    free(image->warning);
    image->data = image->icc = image->exif = NULL;
    image->warning = NULL;
    image->icc_length = image->exif_length = 0;
}

void pm_image_warn(pm_image *image, const char *format, ...) {
    if (image->warning != NULL) return;
    char *text = malloc(PM_MESSAGE_CAPACITY);
    if (text == NULL) return;
    va_list arguments;
    va_start(arguments, format);
    vsnprintf(text, PM_MESSAGE_CAPACITY, format, arguments);
    va_end(arguments);
    image->warning = text;
}

void pm_buffer_free(pm_buffer *buffer) {
    free(buffer->data);
    buffer->data = NULL;
    buffer->length = buffer->capacity = 0;
}
