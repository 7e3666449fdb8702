import Foundation
import TribeBoardSupport

/// Tells a provision run whether another one is writing to the same store. Runs do not need to
/// exclude each other (every batch re-checks import keys and codes inside its own IMMEDIATE
/// transaction), but an operator should be told why rows show up as `existing`.
final class StoreActivityMarker {
    /// Held for the run, so that a concurrent run can say this one is writing.
    private let lock: SidecarLock?
    let otherRunPID: Int32?

    init(storePath: String) throws(FileSystemError) {
        switch try SidecarLock.attempt(storePath + ".provision-lock") {
        case .acquired(let lock):
            self.lock = lock
            otherRunPID = nil
        case .held(let pid):
            lock = nil
            otherRunPID = pid ?? -1
        }
    }
}
