// System calls that Glibc's Swift module does not export (they need _GNU_SOURCE).
#define _GNU_SOURCE
#include "CSystemCalls.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/random.h>
#include <unistd.h>

int tb_secure_random(void *buffer, size_t length) {
    size_t filled = 0;
    while (filled < length) {
        ssize_t result = getrandom((char *)buffer + filled, length - filled, 0);
        if (result < 0) {
            if (errno == EINTR) continue;
            return errno;
        }
        filled += (size_t)result;
    }
    return 0;
}

int tb_open_unnamed_file(const char *directory, mode_t mode) {
    return open(directory, O_TMPFILE | O_WRONLY | O_CLOEXEC, mode);
}

int tb_link_unnamed_file(int descriptor, const char *path) {
    // linkat with AT_EMPTY_PATH needs CAP_DAC_READ_SEARCH; the /proc path works for everyone.
    char source[64];
    snprintf(source, sizeof source, "/proc/self/fd/%d", descriptor);
    return linkat(AT_FDCWD, source, AT_FDCWD, path, AT_SYMLINK_FOLLOW);
}
