import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore

extension Resyncer {
    /// What a per-record error means for that record.
    func outcome(for error: CloudKitRecordError, table: SyncTable? = nil) -> SyncBookkeeping.Outcome
    {
        let message = "\(error.serverErrorCode): \(error.reason ?? "no reason given")"
        switch error.code {
        case .throttled, .tryAgainLater:
            // CloudKit's load, not the record's fault: it waits what CloudKit asked of it (or the
            // backoff, up to 6 hours), and is never quarantined for it.
            return .retry(
                error: message, backoff: backoff, retryAfter: error.retryAfter, limited: false)
        case .internalError, .validatingReferenceError:
            // A missing reference target may still arrive (its family is pending or retrying);
            // past the limit, a person looks at it.
            return .retry(error: message, backoff: backoff, retryAfter: error.retryAfter)
        case .accessDenied:
            return .quarantine(
                error: message
                    + accessDeniedAdvice(recordID: error.recordName ?? "ID", table: table))
        default:
            return .quarantine(error: message)
        }
    }

    func accessDeniedAdvice(recordID: String, table: SyncTable?) -> String {
        let creatorOnly = " (the security roles let only a record's creator change it, and this CloudKit record was not created by this key:"
            + " an app user's, or another container's developer; nothing was overwritten."
        // A family: releasing it would be refused again; adopt takes CloudKit's version.
        guard table != .families else {
            let adopt = Advice.adopt(store: store.path, familyID: FamilyID(rawValue: recordID),
                                     remote: client.configuration.adviceFlags, apply: false).command
            return creatorOnly + " `\(adopt)`"
                + " shows both versions and takes CloudKit's with --apply)"
        }
        let release = Advice.resyncRelease(store: store.path, recordID: recordID).command
        return creatorOnly + " Decide which version is right, then `\(release)` to try again)"
    }

    /// Why a record under our name is not ours to overwrite, naming who wrote it when CloudKit
    /// says.
    static func nameTaken(_ theirs: CloudKitRecordResult) -> String {
        guard case .record(let record) = theirs, let creator = record.created?.userRecordName else {
            return "a different record with this name is already in CloudKit"
        }
        return "a different record with this name is already in CloudKit, created by \(creator)"
    }

    /// A per-record ACCESS_DENIED for changing one existing record is that record's problem (the
    /// public database's default roles: only its creator writes it); the run goes on without it.
    /// A refused CREATE is the record type's security roles, every record's problem: configuration.
    static func refusedForThisRecord(_ error: CloudKitRecordError) -> Bool {
        error.code == .accessDenied
            && error.reason?.localizedCaseInsensitiveContains("CREATE operation") != true
    }

    /// Records a per-record failure; a refused write is also said on stderr, as it needs a person.
    func settle(
        _ error: CloudKitRecordError, row: PendingRow, bookkeeping: SyncBookkeeping, at now: Timestamp
    ) throws {
        let outcome = outcome(for: error, table: row.table)
        if case .quarantine(let message) = outcome, error.code == .accessDenied {
            logger.warning(
                "record quarantined: CloudKit refused the write",
                metadata: [
                    "table": "\(row.table.rawValue)", "id": "\(row.id)", "error": "\(message)"
                ])
        }
        try bookkeeping.record(outcome, row: row, at: now)
    }
}
