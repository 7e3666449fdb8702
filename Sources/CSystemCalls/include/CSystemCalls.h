#ifndef TRIBEBOARD_CSYSTEMCALLS_H
#define TRIBEBOARD_CSYSTEMCALLS_H
#include <stddef.h>
#include <sys/types.h>

/// Fills `buffer` from the kernel CSPRNG (getrandom(2)). Returns 0, or the errno of the failure.
int tb_secure_random(void *buffer, size_t length);

/// Opens an unnamed regular file in `directory` (O_TMPFILE). Returns a descriptor, or -1 with
/// errno set (EOPNOTSUPP or EISDIR where the file system cannot do it).
int tb_open_unnamed_file(const char *directory, mode_t mode);

/// Gives the unnamed file behind `descriptor` the name `path`, atomically; fails with EEXIST
/// if the name is taken. Returns 0, or -1 with errno set.
int tb_link_unnamed_file(int descriptor, const char *path);

/// Whether descriptor 1 was closed when the process started (`>&-`). A constructor puts
/// /dev/null on a closed 0, 1 or 2 before the Swift runtime opens anything, so that no file the
/// run opens becomes "stdout"; the commands then treat output written there as failed.
int tb_standard_output_was_closed(void);

#endif
