import Foundation
import TribeBoardStore

/// What stops a resync run: the store's errors (not TribeBoard's store, unreadable, failing
/// writes) or its lock's (another run holds it, normal under cron). One type, so the command's
/// failure path is checked by the compiler to document each.
package enum ResyncRunError: Error, Equatable, LocalizedError {
    case store(StoreError)
    case lock(SyncLock.Failure)

    package var errorDescription: String? {
        switch self {
        case .store(let error): error.errorDescription
        case .lock(let error): error.errorDescription
        }
    }
}
