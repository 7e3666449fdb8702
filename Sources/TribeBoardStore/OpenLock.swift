import Foundation
import TribeBoardSupport

/// Opening a store for writing, one process at a time: the switch of a new file to WAL and the
/// migrations happen under an flock on `STORE.open-lock` (released by the kernel if the process
/// dies). GRDB's migrator does not guard against another process migrating the same file, and
/// SQLite does not route the WAL switch through the busy timeout.
enum OpenLock {
    static func holding<T>(storePath: String, _ body: () throws -> T) throws -> T {
        let path = storePath + ".open-lock"
        let descriptor: Int32
        do {
            descriptor = try SidecarFile.open(path)
        } catch {
            throw StoreError.cannotOpen(path: storePath, reason: "cannot use \(path): \(error.reason)")
        }
        defer { close(descriptor) }
        // As long as a write waits for another writer, no longer: past it the store is busy.
        let deadline = Date().addingTimeInterval(max(StoreHolders.busyTimeout, 1))
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw StoreError.cannotOpen(path: storePath, reason: "cannot lock \(path): \(String(cString: strerror(errno)))")
            }
            guard Date() < deadline else { throw StoreError.busy(path: storePath, holders: StoreHolders.describe(storePath)) }
            usleep(5_000)
        }
        return try body()
    }
}
