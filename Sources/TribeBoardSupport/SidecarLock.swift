import Foundation

/// An exclusive flock on a sidecar file beside a store (`STORE.resync-lock`,
/// `STORE.provision-lock`, `STORE.open-lock`), held for as long as this value lives and released
/// by the kernel if the process dies, so a kill -9 never leaves a stale lock. The holder writes
/// its pid into the file, so whoever finds it held can say who holds it.
package final class SidecarLock {
    private let descriptor: Int32

    /// What trying the lock found.
    package enum Attempt {
        case acquired(SidecarLock)
        /// Held by another process: the pid it wrote, if the file holds one.
        case held(byPID: Int32?)
    }

    private init(descriptor: Int32, writingPID: Bool) {
        self.descriptor = descriptor
        guard writingPID else { return }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.utf8.count, 0)
    }

    deinit {
        close(descriptor)
    }

    /// Takes the lock without waiting.
    package static func attempt(_ path: String) throws(FileSystemError) -> Attempt {
        let descriptor = try SidecarFile.open(path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let pid = writtenPID(descriptor)
            close(descriptor)
            return .held(byPID: pid)
        }
        return .acquired(SidecarLock(descriptor: descriptor, writingPID: true))
    }

    /// Takes the lock, waiting for its holder until `deadline`; nil when the deadline passed.
    /// The pid is not written: a waiting lock (the store's open lock) guards a short step, not a
    /// run.
    package static func waiting(_ path: String, until deadline: Date) throws(FileSystemError)
        -> SidecarLock?
    {
        let descriptor = try SidecarFile.open(path)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                let failure = FileSystemError("lock", path: path)
                close(descriptor)
                throw failure
            }
            guard Date() < deadline else {
                close(descriptor)
                return nil
            }
            usleep(5_000)
        }
        return SidecarLock(descriptor: descriptor, writingPID: false)
    }

    /// Whether a run holds the lock at `path` now, and the pid it wrote; nil when nobody holds it
    /// or there is no such plain file. Opens read-only, never creating or following a link.
    package static func holder(_ path: String) -> Int32?? {
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        // A run holds the lock exclusively for as long as it runs: a shared lock we cannot take
        // means one is running (and one we can take is released at once).
        guard flock(descriptor, LOCK_SH | LOCK_NB) != 0, errno == EWOULDBLOCK else { return nil }
        return .some(writtenPID(descriptor))
    }

    private static func writtenPID(_ descriptor: Int32) -> Int32? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = pread(descriptor, &buffer, buffer.count, 0)
        return Int32(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).trimmed)
    }
}
