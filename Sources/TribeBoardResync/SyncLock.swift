import Foundation
import TribeBoardSupport

/// One resync per store at a time: an exclusive flock on `STORE.resync-lock`, held for the run
/// and released by the kernel if the process dies, so a kill -9 never leaves a stale lock.
package final class SyncLock {
    private let descriptor: Int32

    package enum Failure: Error, Equatable, LocalizedError {
        case held(byPID: Int32?)
        case cannotOpen(path: String, reason: String)

        package var errorDescription: String? {
            switch self {
            case .held(let pid):
                return "another resync is running on this store" + (pid.map { " (pid \($0))" } ?? "") + "; this one stops without doing anything"
            case .cannotOpen(let path, let reason):
                return "cannot open the lock file \(path): \(reason)"
            }
        }
    }

    package init(storePath: String) throws(Failure) {
        let path = storePath + ".resync-lock"
        let descriptor: Int32
        do {
            descriptor = try SidecarFile.open(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            throw .held(byPID: Int32(String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self).trimmed))
        }
        let pid = "\(getpid())\n"
        _ = ftruncate(descriptor, 0)
        _ = pwrite(descriptor, pid, pid.utf8.count, 0)
        self.descriptor = descriptor
    }

    deinit {
        close(descriptor)
    }
}
