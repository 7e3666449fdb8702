#include "CSecureRandom.h"

#include <errno.h>
#include <sys/random.h>

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
