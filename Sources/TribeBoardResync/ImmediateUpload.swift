import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// An upload right after a command created records (`provision --sync`): what `tribeboard resync`
/// does, under the same lock, summed up as the creating command reports it. It lives here, not in
/// Provisioning: feature modules do not use each other, and this is resync's work.
package struct ImmediateUpload: Sendable {
    /// Records uploaded, and those that failed.
    package var uploaded = 0
    package var failed = 0
    /// Why the upload stopped, in words; what stopped it, as resync's `stopKind` and category.
    package var stoppedBy: String?
    package var stopKind: String?
    package var stopCategory: CloudKitError.Category?
    /// How it ended, as `resync` would say it.
    package var outcome: UploadOutcome
    /// Records waiting to retry (throttled), and those set aside for a person.
    package var waiting = 0
    package var setAside = 0
    /// What the operator runs next, when records were left behind: a command that runs as
    /// printed (`outcome.nextReason` says why).
    package var next: String?
    /// What still waits in the store afterwards.
    package var pending: TribeBoardStore.PendingSyncCounts?
    /// Set when another resync held the store's lock: nothing was uploaded, the records wait for
    /// that run or the next (never 0).
    package var lockHeld: SyncLock.Failure?

    /// Uploads every record waiting for sync. A lock another run holds is an outcome
    /// (`tryLater`); a lock file that cannot be used is an I/O fault and throws, as resync says.
    package static func run(storePath: String, client: CloudKitClient, logger: Logger) async throws
        -> ImmediateUpload
    {
        let store = try TribeBoardStore.open(at: storePath)
        let lock: SyncLock
        do {
            lock = try SyncLock(storePath: storePath)
        } catch {
            guard case .held = error else { throw error }
            var upload = ImmediateUpload(outcome: .tryLater)
            upload.stoppedBy = "\(error.localizedDescription); the records wait for it"
            upload.lockHeld = error
            upload.next = nextStep(
                after: .tryLater, store: storePath, remote: client.configuration.adviceFlags)
            return upload
        }
        let report = try await Resyncer(store: store, client: client, logger: logger).run()
        withExtendedLifetime(lock) {}
        var upload = ImmediateUpload(outcome: report.exitKind)
        upload.uploaded = report.synced
        upload.failed = report.failed
        upload.stoppedBy = report.stoppedBy
        upload.stopKind = report.stopKind
        upload.stopCategory = report.stopCategory
        upload.setAside = report.quarantined + report.conflicts + report.blocked
        upload.waiting = max(0, report.pending.total - upload.setAside)
        upload.next = nextStep(
            after: report.exitKind, store: storePath, remote: client.configuration.adviceFlags)
        upload.pending = report.pending
        return upload
    }

    /// What the operator runs after an upload that left records behind.
    static func nextStep(after outcome: UploadOutcome, store: String, remote: [String]) -> String? {
        switch outcome {
        case .success: return nil
        case .tryLater: return Advice.resync(store: store, remote: remote).command
        case .setAside: return Advice.resyncList(store: store).command
        case .configuration: return Advice.doctor(store: store, remote: remote).command
        }
    }
}
