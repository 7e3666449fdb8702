import Foundation

/// The small files the toolkit keeps beside a store (`STORE.resync-lock`, `STORE.provision-lock`).
/// They are opened without following a symbolic link and used only if they are plain files with
/// one name: a link planted there (to /etc/passwd, say) would otherwise be truncated by a run,
/// as root by a root cron job.
package enum SidecarFile {
    package static func open(_ path: String) throws(FileSystemError) -> Int32 {
        let descriptor = Glibc.open(
            path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            if errno == ELOOP {
                throw FileSystemError(
                    "open", path: path,
                    reason: "it is a symbolic link, which the toolkit "
                        + "does not follow; remove it (the toolkit makes this file itself)")
            }
            throw FileSystemError("open", path: path)
        }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
            status.st_nlink == 1
        else {
            close(descriptor)
            throw FileSystemError(
                "use", path: path,
                reason: "it is not a plain file with a single name "
                    + "(a device, a folder or a hard link to another file); "
                    + "remove it (the toolkit makes this file itself)"
            )
        }
        return descriptor
    }
}
