import Foundation
import TribeBoardSupport

/// Opening a store for writing, one process at a time: the switch of a new file to WAL and the
/// migrations happen under an flock on `STORE.open-lock` (released by the kernel if the process
/// dies). GRDB's migrator does not guard against another process migrating the same file, and
/// SQLite does not route the WAL switch through the busy timeout.
enum OpenLock {
    static func holding<T>(storePath: String, _ body: () throws -> T) throws -> T {
        let path = storePath + ".open-lock"
        // As long as a write waits for another writer, no longer: past it the store is busy.
        let deadline = Date().addingTimeInterval(max(StoreHolders.busyTimeout, 1))
        let lock: SidecarLock?
        do {
            lock = try SidecarLock.waiting(path, until: deadline)
        } catch {
            throw StoreError.cannotOpen(path: storePath, reason: "cannot use \(path): \(error.reason)")
        }
        guard let lock else { throw StoreError.busy(path: storePath, holders: StoreHolders.describe(storePath)) }
        return try withExtendedLifetime(lock) { try body() }
    }
}
