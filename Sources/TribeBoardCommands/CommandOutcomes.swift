import TribeBoardMigrate
import TribeBoardProvisioning
import TribeBoardRemote

// Each command's report outcomes and their statuses (see `CommandOutcome`). Errors are not here:
// their statuses come from their kinds.

/// A command whose report never ends a run non-zero (its failures are errors).
enum NoOutcome: CommandOutcome {
    var status: ExitStatus {
        switch self {}
    }
}

/// Checks or findings that reach the command's threshold (doctor's, audit's `--fail-on`).
enum FindingsOutcome: CommandOutcome {
    case failing

    var status: ExitStatus { .partialFailure }
}

/// The most serious condition wins: files not written, then the remote, then failed rows.
enum ProvisionOutcome: CommandOutcome {
    case qrFilesNotWritten
    case remoteConfiguration
    /// The code check or the upload stopped: that part of the job was not done.
    case remoteStopped
    /// Records CloudKit throttled one by one wait for a later resync, as resync says it.
    case uploadsWaiting
    /// Records set aside for a person, as failed rows.
    case uploadsSetAside
    /// Codes CloudKit did not let this run claim were not printed.
    case codesUnclaimed
    /// Rows that failed or were left out as possible duplicates were not provisioned.
    case rowsNotProvisioned

    var status: ExitStatus {
        switch self {
        case .qrFilesNotWritten: return .ioError
        case .remoteConfiguration: return .remoteConfiguration
        case .remoteStopped, .uploadsWaiting, .codesUnclaimed: return .remoteUnavailable
        case .uploadsSetAside, .rowsNotProvisioned: return .partialFailure
        }
    }

    /// nil when the whole job was done.
    init?(_ report: ProvisionReport) {
        if report.qrWriteFailures > 0 {
            self = .qrFilesNotWritten
            return
        }
        // Whatever the kind of failure (a server's unusable answer included); never 0.
        switch report.remote?.errorKind {
        case .configuration?: self = .remoteConfiguration; return
        case .some: self = .remoteStopped; return
        case nil: break
        }
        switch report.remote?.uploadOutcome {
        case .configuration?: self = .remoteConfiguration; return
        case .tryLater?: self = .uploadsWaiting; return
        case .setAside?: self = .uploadsSetAside; return
        case .success?, nil: break
        }
        if report.remote != nil, report.codesUnclaimed > 0 {
            self = .codesUnclaimed
        } else if report.failed > 0 || report.skipped > 0 {
            self = .rowsNotProvisioned
        } else {
            return nil
        }
    }
}

/// How a resync ended: its uploads' outcome, or a metrics file it could not write (monitoring
/// reading a stale file would see the last good run: never 0, nor 1, whose report reads complete).
enum ResyncOutcome: CommandOutcome {
    case uploads(UploadOutcome)
    case metricsNotWritten

    static var allCases: [ResyncOutcome] {
        UploadOutcome.allCases.map(Self.uploads) + [.metricsNotWritten]
    }

    var status: ExitStatus {
        switch self {
        case .uploads(let outcome): return outcome.status
        case .metricsNotWritten: return .ioError
        }
    }
}

extension UploadOutcome {
    var status: ExitStatus {
        switch self {
        case .success: return .success
        case .setAside: return .partialFailure
        case .tryLater: return .remoteUnavailable
        case .configuration: return .remoteConfiguration
        }
    }
}

extension MigrationReport.ExitKind: CommandOutcome {
    var status: ExitStatus {
        switch self {
        case .success: return .success
        case .problems: return .partialFailure
        case .tryLater: return .remoteUnavailable
        case .configuration: return .remoteConfiguration
        }
    }
}

extension ClaimBackfillReport.ExitKind: CommandOutcome {
    var status: ExitStatus {
        switch self {
        case .success: return .success
        case .problems: return .partialFailure
        case .tryLater: return .remoteUnavailable
        }
    }
}

/// What a removal left: work CloudKit refused (run it again), families refused or not found.
enum RemoveOutcome: CommandOutcome {
    /// `notOurs`: a family record another creator wrote; no later try deletes it (adopt does).
    /// `heldByMembers`: memberships app users created; only their leaving ends it.
    case unfinished, refused, notOurs, heldByMembers

    var status: ExitStatus {
        switch self {
        case .unfinished: return .remoteUnavailable
        case .refused, .notOurs, .heldByMembers: return .partialFailure
        }
    }
}

/// A merge whose removal CloudKit left unfinished (run it again).
enum MergeOutcome: CommandOutcome {
    case unfinished

    var status: ExitStatus { .remoteUnavailable }
}
