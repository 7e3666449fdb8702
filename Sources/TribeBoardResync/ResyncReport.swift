import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardRemote

/// The outcome of one resync run. JSON keys are a stable interface.
package struct ResyncReport: Encodable, Sendable {
    package enum Stop: Sendable {
        case remote(CloudKitError)
        case deadline
        /// CloudKit's per-record results did not match the records sent (reordered answers are
        /// fine; missing, extra or repeated ones are not): those records stay pending.
        case unmatchedAnswer(String)
    }

    /// What the run's exit status should say.
    /// How the run ended; provision --sync reports the same (`UploadOutcome`, in the client's
    /// module, so provisioning needs no resync module to name it).
    package typealias ExitKind = UploadOutcome

    package var command = "resync"
    package var synced = 0
    /// Records that failed this run (now waiting, quarantined or in conflict).
    package var failed = 0
    package var requests = 0
    /// Codes claimed in CloudKit this run, and claims released (codes re-coded families gave up).
    package var codesClaimed = 0
    package var claimsReleased = 0
    package var pendingBefore = TribeBoardStore.PendingSyncCounts(
        families: 0, userProfiles: 0, memberships: 0)
    package var pending = TribeBoardStore.PendingSyncCounts(
        families: 0, userProfiles: 0, memberships: 0)
    package var waiting = 0
    package var quarantined = 0
    package var conflicts = 0
    /// Of `conflicts`, families whose own record name CloudKit holds with other content (another
    /// creator's record, or a version this store does not know): `adopt` closes them, a new code
    /// does not.
    package var nameConflicts = 0
    /// Memberships waiting for a family that is set aside.
    package var blocked = 0
    /// Creations that did not complete (logged, never `completed`, no parent admin): never
    /// uploaded, their log left as it was; the first 100 ids are listed. Support finishes or
    /// removes each (`tribeboard remove ID`).
    package var unfinishedCreations = 0
    package var unfinishedCreationIds: [FamilyID] = []
    /// Pending families and memberships kept out of CloudKit: those creations' and those of
    /// families `remove` or `merge` is removing.
    package var heldBack = 0
    /// Families whose only admin was invited without a hash: the family is uploaded, that
    /// admin's profile and membership stay in the store until the person joins through the join
    /// kit (`AwaitingPerson`). Expected, so it never changes the exit status.
    package var awaitingInvitedAdmin = 0
    /// The records set aside (quarantined or in conflict), with why: the first 100.
    package var setAside: [ResyncListEntry] = []
    static let listedSetAsideLimit = 100
    var lastSuccess: Timestamp?
    package var durationSeconds = 0.0
    package var stop: Stop?
    /// Why `--metrics-file` could not be written (the run then ends 74 unless it already ended
    /// worse).
    package var metricsFileError: String?

    /// Adds what a page (or a table's pages) did to this run's counts.
    mutating func add(_ other: ResyncReport) {
        synced += other.synced
        failed += other.failed
        requests += other.requests
        codesClaimed += other.codesClaimed
        claimsReleased += other.claimsReleased
    }

    package var stoppedBy: String? {
        switch stop {
        case .remote(let error): return error.localizedDescription
        case .deadline: return "--max-duration reached"
        case .unmatchedAnswer(let problem):
            return "CloudKit's answer did not match the request: \(problem)"
        case nil: return nil
        }
    }

    /// What stopped the run, for scripts: the kind the error document gives the same error
    /// (`cloudkit.service`, `cloudkit.schema.notQueryable`, `cloudkit.outOfTime` for
    /// --max-duration). The wait CloudKit asked for when its throttling stopped the run (seconds):
    /// the next run goes on after it.
    package var stopRetryAfter: Double? {
        if case .remote(let error) = stop { return error.askedWait }
        return nil
    }

    package var stopKind: String? {
        switch stop {
        case .remote(let error): return error.kind
        case .deadline: return CloudKitError.outOfTime.kind
        case .unmatchedAnswer: return "resync.unmatchedAnswer"
        case nil: return nil
        }
    }

    /// What kind of remote trouble stopped the run: a mismatched answer is the server's passing
    /// trouble, like THROTTLED (the records stay pending for the next run).
    package var stopCategory: CloudKitError.Category? {
        switch stop {
        case .remote(let error): return error.category
        case .unmatchedAnswer: return .transient
        case .deadline, nil: return nil
        }
    }

    package var exitKind: ExitKind {
        if case .remote(let error) = stop, error.category == .configuration {
            return .configuration
        }
        let setAside = quarantined + conflicts + blocked + heldBack
        if pending.total > setAside || stop != nil { return .tryLater }
        return setAside + unfinishedCreations > 0 ? .setAside : .success
    }

    enum CodingKeys: String, CodingKey {
        case command, synced, failed, requests, codesClaimed, claimsReleased, pendingBefore, pending, waiting, quarantined,
             conflicts, nameConflicts, blocked, unfinishedCreations, unfinishedCreationIds, heldBack, awaitingInvitedAdmin,
             setAside, lastSuccess, durationSeconds, stoppedBy, stopKind, stopRetryAfter, exitKind, metricsFileError
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(command, forKey: .command)
        try container.encode(synced, forKey: .synced)
        try container.encode(failed, forKey: .failed)
        try container.encode(requests, forKey: .requests)
        try container.encode(codesClaimed, forKey: .codesClaimed)
        try container.encode(claimsReleased, forKey: .claimsReleased)
        try container.encode(pendingBefore, forKey: .pendingBefore)
        try container.encode(pending, forKey: .pending)
        try container.encode(waiting, forKey: .waiting)
        try container.encode(quarantined, forKey: .quarantined)
        try container.encode(conflicts, forKey: .conflicts)
        try container.encode(nameConflicts, forKey: .nameConflicts)
        try container.encode(blocked, forKey: .blocked)
        try container.encode(unfinishedCreations, forKey: .unfinishedCreations)
        try container.encode(unfinishedCreationIds, forKey: .unfinishedCreationIds)
        try container.encode(heldBack, forKey: .heldBack)
        try container.encode(awaitingInvitedAdmin, forKey: .awaitingInvitedAdmin)
        try container.encode(setAside, forKey: .setAside)
        try container.encodeIfPresent(lastSuccess, forKey: .lastSuccess)
        try container.encode(durationSeconds, forKey: .durationSeconds)
        try container.encodeIfPresent(stoppedBy, forKey: .stoppedBy)
        try container.encodeIfPresent(stopKind, forKey: .stopKind)
        try container.encodeIfPresent(stopRetryAfter, forKey: .stopRetryAfter)
        try container.encode(exitKind, forKey: .exitKind)
        try container.encodeIfPresent(metricsFileError, forKey: .metricsFileError)
    }

    /// Prometheus text format for node_exporter's textfile collector.
    package func metrics(exitStatus: Int32, now: Date = Date()) -> String {
        var lines: [String] = []
        func gauge(_ name: String, _ help: String, _ samples: [(String, Double)]) {
            lines.append("# HELP tribeboard_resync_\(name) \(help)")
            lines.append("# TYPE tribeboard_resync_\(name) gauge")
            for (labels, value) in samples {
                lines.append("tribeboard_resync_\(name)\(labels) \(value == value.rounded() ? String(Int64(value)) : String(value))")
            }
        }
        gauge(
            "pending_records", "Records waiting for sync after the last run, by table.",
            [
                ("{table=\"families\"}", Double(pending.families)),
                ("{table=\"user_profiles\"}", Double(pending.userProfiles)),
                ("{table=\"memberships\"}", Double(pending.memberships))
            ])
        gauge("synced_records", "Records uploaded by the last run.", [("", Double(synced))])
        gauge("failed_records", "Records that failed in the last run.", [("", Double(failed))])
        gauge(
            "quarantined_records", "Records set aside after a permanent error.",
            [("", Double(quarantined))])
        gauge(
            "conflict_records", "Families not uploaded because their code is taken in CloudKit.",
            [("", Double(conflicts))])
        gauge(
            "last_run_timestamp_seconds", "When the last run ended.",
            [("", now.timeIntervalSince1970.rounded())])
        gauge("last_run_exit_status", "Exit status of the last run.", [("", Double(exitStatus))])
        if let lastSuccess {
            gauge("last_success_timestamp_seconds", "When a run last left nothing pending.",
                  [("", lastSuccess.date.timeIntervalSince1970.rounded())])
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension ResyncReport.Stop {
    /// A remote failure stops the run; the client running out of the run's time is
    /// `--max-duration`.
    init(_ error: CloudKitError) {
        if case .outOfTime = error { self = .deadline } else { self = .remote(error) }
    }
}

extension ResyncListEntry {
    /// A conflict with the record's own name: CloudKit holds another version of this very record
    /// (`Resyncer.nameTaken`), as opposed to a code another family holds.
    package var nameTaken: Bool { status == SyncStatus.conflict.rawValue && conflictWith == id }
}

extension CloudKitError {
    /// The wait CloudKit asked for (THROTTLED and kin, `retryAfter`), after retries too.
    package var askedWait: Double? {
        switch self {
        case .service(_, _, _, let retryAfter): return retryAfter
        case .gaveUp(_, let last): return last.askedWait
        default: return nil
        }
    }

    /// The server error code of a service answer, after retries too.
    package var serviceCode: CloudKitServerErrorCode? {
        switch self {
        case .service(let code, _, _, _): return code
        case .gaveUp(_, let last): return last.serviceCode
        default: return nil
        }
    }
}
