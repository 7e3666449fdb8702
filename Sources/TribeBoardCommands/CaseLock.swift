import TribeBoardResync
import TribeBoardStore

/// `remove`, `merge` and `adopt` with --apply hold the store's resync lock: no resync uploads a
/// family while it leaves or changes (the store's path is checked first, as resync does).
enum CaseLock {
    /// The lock, or the run's end with the store's or the lock's error (its status from `exits`).
    static func acquire(store: String, apply: Bool, context: CommandContext,
                        exits: CommandExits) throws -> SyncLock? {
        guard apply else { return nil }
        do throws(StoreError) {
            try TribeBoardStore.identify(at: store)
        } catch {
            throw context.fail(error, exits)
        }
        do throws(SyncLock.Failure) {
            return try SyncLock(storePath: store)
        } catch {
            throw context.fail(error, exits)
        }
    }
}
