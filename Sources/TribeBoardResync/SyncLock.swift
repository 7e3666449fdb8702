import Foundation
import TribeBoardSupport

/// One resync per store at a time: an exclusive flock on `STORE.resync-lock`, held for the run
/// and released by the kernel if the process dies, so a kill -9 never leaves a stale lock.
package final class SyncLock {
    private let lock: SidecarLock

    package enum Failure: Error, Equatable, LocalizedError {
        case held(byPID: Int32?)
        case cannotOpen(path: String, reason: String)

        package var errorDescription: String? {
            switch self {
            case .held(let pid):
                return "another resync is running on this store"
                    + (pid.map { " (pid \($0))" } ?? "") + "; this one stops without doing anything"
            case .cannotOpen(let path, let reason):
                return "cannot open the lock file \(path): \(reason)"
            }
        }
    }

    package init(storePath: String) throws(Failure) {
        let path = storePath + ".resync-lock"
        let attempt: SidecarLock.Attempt
        do {
            attempt = try SidecarLock.attempt(path)
        } catch {
            throw .cannotOpen(path: path, reason: error.reason)
        }
        switch attempt {
        case .acquired(let lock): self.lock = lock
        case .held(let pid): throw .held(byPID: pid)
        }
    }
}
