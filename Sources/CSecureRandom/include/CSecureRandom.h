#ifndef TRIBEBOARD_CSECURERANDOM_H
#define TRIBEBOARD_CSECURERANDOM_H
#include <stddef.h>

/// Fills `buffer` from the kernel CSPRNG (getrandom(2), which Glibc's Swift module does not
/// export). Returns 0, or the errno of the failure.
int tb_secure_random(void *buffer, size_t length);

#endif
