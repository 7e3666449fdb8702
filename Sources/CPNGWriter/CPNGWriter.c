// libpng reports errors by longjmp. Swift frames cannot be unwound that way, so every libpng
// call that can fail runs here, below a setjmp, and failures come back as return codes.
#include "CPNGWriter.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    jmp_buf jump;
    tb_png_buffer *out;
    char *message;
    size_t message_size;
} writer_context;

static void copy_message(writer_context *context, const char *text) {
    if (context->message == NULL || context->message_size == 0) return;
    strncpy(context->message, text ? text : "unknown libpng error", context->message_size - 1);
    context->message[context->message_size - 1] = '\0';
}

static void on_error(png_structp png, png_const_charp text) {
    writer_context *context = (writer_context *)png_get_error_ptr(png);
    copy_message(context, text);
    longjmp(context->jump, 1);
}

static void on_warning(png_structp png, png_const_charp text) {
    (void)png;
    (void)text;
}

static void on_write(png_structp png, png_bytep data, png_size_t length) {
    writer_context *context = (writer_context *)png_get_io_ptr(png);
    tb_png_buffer *out = context->out;
    if (out->size + length > out->capacity) {
        size_t capacity = out->capacity ? out->capacity : 4096;
        while (capacity < out->size + length) capacity *= 2;
        unsigned char *grown = realloc(out->data, capacity);
        if (grown == NULL) png_error(png, "out of memory while encoding PNG");
        out->data = grown;
        out->capacity = capacity;
    }
    memcpy(out->data + out->size, data, length);
    out->size += length;
}

// A NULL flush callback would make libpng treat the io pointer as a FILE*.
static void on_flush(png_structp png) { (void)png; }

int tb_png_encode_gray1(const unsigned char *const *rows, uint32_t width, uint32_t height,
                        int compression_level, tb_png_buffer *out,
                        char *message, size_t message_size) {
    if (out == NULL || rows == NULL || width == 0 || height == 0) {
        if (message && message_size) {
            strncpy(message, "invalid PNG arguments", message_size - 1);
            message[message_size - 1] = '\0';
        }
        return 1;
    }
    out->size = 0;

    writer_context context;
    context.out = out;
    context.message = message;
    context.message_size = message_size;

    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &context, on_error, on_warning);
    if (png == NULL) {
        copy_message(&context, "cannot create libpng writer");
        return 1;
    }
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        copy_message(&context, "cannot create libpng info");
        return 1;
    }
    if (setjmp(context.jump)) {
        png_destroy_write_struct(&png, &info);
        return 1;
    }
    png_set_write_fn(png, &context, on_write, on_flush);
    png_set_compression_level(png, compression_level);
    // zlib sizes its hash and pending buffers (about 128 KB each time) by memLevel; a QR image is a
    // few KB of raw rows, so a small level compresses it as well without the allocation churn.
    png_set_compression_mem_level(png, 2);
    // Module rows repeat 30-odd bytes apart: a 1 KB window finds every match and keeps zlib's
    // per-image allocation small.
    png_set_compression_window_bits(png, 10);
    png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_NONE);
    png_set_IHDR(png, info, width, height, 1, PNG_COLOR_TYPE_GRAY, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    png_write_image(png, (png_bytepp)rows);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    return 0;
}

void tb_png_buffer_free(tb_png_buffer *buffer) {
    if (buffer == NULL) return;
    free(buffer->data);
    buffer->data = NULL;
    buffer->size = 0;
    buffer->capacity = 0;
}
