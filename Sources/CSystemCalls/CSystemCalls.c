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

static int standard_output_was_closed = 0;

__attribute__((constructor)) static void tb_occupy_standard_descriptors(void) {
    for (int descriptor = 0; descriptor <= 2; descriptor++) {
        if (fcntl(descriptor, F_GETFD) >= 0 || errno != EBADF) continue;
        int opened = open("/dev/null", descriptor == 0 ? O_RDONLY : O_WRONLY);
        if (opened >= 0 && opened != descriptor) {
            dup2(opened, descriptor);
            close(opened);
        }
        if (descriptor == 1) standard_output_was_closed = 1;
    }
}

int tb_standard_output_was_closed(void) {
    return standard_output_was_closed;
}
