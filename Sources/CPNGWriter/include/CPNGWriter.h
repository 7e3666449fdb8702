#ifndef TRIBEBOARD_CPNGWRITER_H
#define TRIBEBOARD_CPNGWRITER_H

#include <stddef.h>
#include <stdint.h>

/// A growable byte buffer owned by the caller; release it with tb_png_buffer_free.
typedef struct {
    unsigned char *data;
    size_t size;
    size_t capacity;
} tb_png_buffer;

/// Encodes a 1-bit grayscale PNG (bit set = white) into `out`.
/// `rows` holds `height` pointers to packed rows of (width + 7) / 8 bytes; the same pointer may
/// repeat, which is how a scaled QR code avoids copying identical rows.
/// Returns 0 on success; otherwise non-zero with a NUL-terminated reason in `message`.
/// `out` is reset first and must be freed by the caller in both cases.
int tb_png_encode_gray1(const unsigned char *const *rows, uint32_t width, uint32_t height,
                        int compression_level, tb_png_buffer *out,
                        char *message, size_t message_size);

void tb_png_buffer_free(tb_png_buffer *buffer);

#endif
