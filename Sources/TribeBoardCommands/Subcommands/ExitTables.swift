import TribeBoardMigrate

// Each command's exit statuses (see `CommandExits`): its help's "Exit status:" line is made from
// these, and `ExitStatusSourceTests` compares them with the table of its page in docs/.

extension ProvisionCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.csv), .area(.store), .area(.file), .area(.config),
                 .kind(.remoteNotConfigured), .kind(.provisionConfiguration),
                 .kind(.lockCannotOpen),
                 // --sheets: the PDF of the manifest, as `sheets` makes it.
                 .area(.sheets), .area(.template), .area(.manifest), .area(.qr)],
        overrides: [.remoteNotConfigured: .usage],
        outcomes: ProvisionOutcome.self,
        meanings: [
            .success: "all rows created or existing",
            .partialFailure: "some rows failed, or were skipped as possible duplicates",
            .usage: "bad usage (also --sync with no remote, or a --map the file contradicts)",
            .dataError: "the file is not readable CSV or lacks family_name",
            .noInput: "the file cannot be opened",
            .cannotCreate:
                "--sheets: the PDF cannot be created there (the families are provisioned)",
            .ioError: "the store or output folder cannot be opened or written",
            .remoteUnavailable:
                "CloudKit was unavailable or throttled (local work done; codes left unclaimed "
                + "are not printed, records wait for resync)",
            .remoteConfiguration: "CloudKit refused the configuration",
        ])
}

extension ResyncCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.lock), .area(.config), .kind(.remoteNotConfigured),
                 .area(.resync)],
        outcomes: ResyncOutcome.self,
        meanings: [
            .success: "nothing left pending",
            .partialFailure:
                "some records are quarantined or in conflict (see --list; --release ID once dealt "
                + "with), or a creation that did not complete is kept out of CloudKit",
            .usage: "bad usage (also --release or --reupload naming what is not set aside or not in the store)",
            .lockHeld: "another resync holds the store's lock", .ioError: "the store (or --metrics-file) cannot be opened or written",
            .remoteUnavailable: "CloudKit was unavailable or throttled, or --max-duration passed, and records remain pending (try later)",
            .remoteConfiguration: "no usable remote configuration",
        ])
}

extension AuditCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.snapshot), .area(.cloudkit), .area(.config),
                 .kind(.remoteNotConfigured), .area(.audit)],
        outcomes: FindingsOutcome.self,
        meanings: [
            .success: "nothing reaches --fail-on", .partialFailure: "something does",
            .usage: "bad usage",
            .dataError:
                "the snapshot is past its bounds (docs/guarantees.md: \"Bounds on what is read\")",
            .noInput: "the snapshot cannot be opened",
            .ioError: "the store cannot be opened, or a repair cannot be written (nothing changed, unless it "
                + "says the store was changed: then run it again to finish)",
            .remoteUnavailable: "CloudKit was unavailable",
            .remoteConfiguration: "CloudKit refused the configuration"
        ])
}

extension DoctorCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [], outcomes: FindingsOutcome.self,
        meanings: [
            .success: "no check failed",
            .partialFailure:
                "some check failed (with --fail-on warning, also a warning: CloudKit unreachable, "
                + "a stale clock, families waiting for sync)",
            .usage: "bad usage",
        ])
}

extension DoctorFamilyCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [], outcomes: FindingsOutcome.self,
        meanings: [
            .success: "nothing failed",
            .partialFailure: "the family is missing, stuck or differs from CloudKit",
            .usage: "bad usage"
        ])
}

extension MigrateCommand: DeclaresExits {
    /// Both migrations (`legacy-types`, `container`).
    static let exits = CommandExits(
        errors: [.area(.store), .area(.file), .area(.code), .area(.qr), .area(.cloudkit),
                 .area(.config), .kind(.remoteNotConfigured), .area(.migrate)],
        // A QR code the migration cannot write is an output fault: the checkpoint keeps the rest.
        overrides: [
            .qrEncodingFailed: .ioError, .qrPngEncodingFailed: .ioError, .qrInvalidScale: .ioError
        ],
        outcomes: MigrationReport.ExitKind.self,
        meanings: [
            .success: "everything is in place",
            .partialFailure:
                "conflicts, code conflicts, invalid, skipped or failed records, or a failed verification",
            .usage: "bad usage (also the source is the destination)",
            .ioError: "the store or --out cannot be written",
            .remoteUnavailable: "CloudKit was unavailable (run again: the checkpoint resumes)",
            .remoteConfiguration: "CloudKit refused the configuration, or none is configured",
            .interrupted: "interrupted by Ctrl-C (the message says in which phase and whether anything was written; run it again)",
        ])
}

extension MigrateClaimsCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.cloudkit), .area(.config), .kind(.remoteNotConfigured),
                 .kind(.migrateInterrupted)],
        outcomes: ClaimBackfillReport.ExitKind.self,
        meanings: [
            .success: "every code claimed by its oldest family",
            .partialFailure: "duplicates, claims held by others or families without a code",
            .usage: "bad usage",
            .remoteUnavailable: "CloudKit was unavailable or refused some claims (run again)",
            .remoteConfiguration: "CloudKit refused the configuration, or none is configured",
            .interrupted:
                "interrupted by Ctrl-C (the claims made so far stay; run it again to finish)"
        ])
}

extension SheetsCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.template), .area(.sheets), .area(.manifest), .area(.csv), .area(.store),
                 .area(.qr), .area(.file)],
        outcomes: NoOutcome.self,
        meanings: [
            .success: "written", .usage: "bad usage",
            .dataError: "a template, logo or manifest that cannot be used (an unknown placeholder, not UTF-8, "
                + "a code not in the app's format, codes older than the default store's), text that does not "
                + "fit, or no family matches",
            .noInput: "the manifest, template, logo or import file cannot be opened",
            .cannotCreate:
                "the PDF cannot be created there (a symbolic link, someone else's or a read-only file, no such folder)",
            .ioError: "the store cannot be read or the PDF or preview cannot be written (disk full)"
        ])
}

extension RecodeCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.file), .area(.code), .area(.qr), .area(.cloudkit),
                 .area(.config), .area(.recode)],
        // The new code's QR file is output: a QR code that cannot be written is the output's fault.
        overrides: [
            .qrEncodingFailed: .ioError, .qrPngEncodingFailed: .ioError, .qrInvalidScale: .ioError
        ],
        outcomes: NoOutcome.self,
        meanings: [
            .success: "done (or shown, without --apply)", .usage: "bad usage, or no such family",
            .ioError:
                "the store or a file cannot be written (nothing changed, unless it says the store changed)",
            .remoteUnavailable:
                "CloudKit was unavailable or did not confirm the new code's claim, or the family "
                + "changed meanwhile (nothing changed: run it again)",
            .remoteConfiguration: "CloudKit refused the configuration",
        ])
}

extension RemoveCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.lock), .area(.cloudkit), .area(.config),
                 .kind(.remoteNotConfigured), .kind(.caseNoSuchFamily), .kind(.caseHasMembers),
                 .kind(.caseClaimUnavailable), .kind(.caseListUnreadable),
                 .kind(.caseListTooLarge)],
        outcomes: RemoveOutcome.self,
        meanings: [
            .success: "removed, already removed, or (without --apply) planned",
            .partialFailure: "--from-file: some families were refused (members besides the admin, no --force) or not found; "
                + "or CloudKit refused to delete a family record another creator wrote (adopt takes it instead)",
            .usage: "bad usage, no such family, or members besides the admin without --force",
            .dataError: "the --from-file list is too large",
            .noInput: "the --from-file list cannot be opened",
            .lockHeld: "a resync is running on this store (try again when it ends)",
            .ioError: "the store cannot be opened or written",
            .remoteUnavailable: "CloudKit was unavailable or refused part of a removal (what was started is recorded: run it again to finish)",
            .remoteConfiguration: "CloudKit refused the configuration, or a family in CloudKit and no remote configured",
        ])
}

extension MergeCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.lock), .area(.cloudkit), .area(.config),
                 .kind(.remoteNotConfigured), .kind(.caseNoSuchFamily), .kind(.caseSameFamily),
                 .kind(.caseKeptFamilyLeaving), .kind(.caseClaimUnavailable)],
        outcomes: MergeOutcome.self,
        meanings: [
            .success: "merged, already merged, or (without --apply) planned",
            .usage: "bad usage, no such family, or a family merged into itself or into one that is leaving",
            .lockHeld: "a resync is running on this store (try again when it ends)",
            .ioError: "the store cannot be opened or written",
            .remoteUnavailable: "CloudKit was unavailable or refused part of the merge (what was started is recorded: run it again to finish)",
            .remoteConfiguration: "CloudKit refused the configuration, or no remote is configured for a family in CloudKit",
        ])
}

extension AdoptCommand: DeclaresExits {
    static let exits = CommandExits(
        errors: [.area(.store), .area(.lock), .area(.cloudkit), .area(.config),
                 .kind(.remoteNotConfigured), .kind(.caseNoSuchFamily), .kind(.caseNotInCloudKit)],
        outcomes: NoOutcome.self,
        meanings: [
            .success: "adopted, or (without --apply) both versions shown",
            .usage: "bad usage, no such family, or CloudKit holds no record of it",
            .lockHeld: "a resync is running on this store (try again when it ends)",
            .ioError: "the store cannot be opened or written (also: CloudKit's code is another family's in the store)",
            .remoteUnavailable: "CloudKit was unavailable (nothing changed: run it again)",
            .remoteConfiguration: "CloudKit refused the configuration, or none is configured",
        ])
}
