import TribeBoardResync
import TribeBoardStore

/// `remove`, `merge` and `adopt` with --apply hold the store's resync lock: no resync uploads a
/// family while it leaves or changes (the store's path is checked first, as resync does).
enum CaseLock {
    static func acquire(store: String, apply: Bool) throws -> SyncLock? {
        guard apply else { return nil }
        try TribeBoardStore.identify(at: store)
        return try SyncLock(storePath: store)
    }
}
