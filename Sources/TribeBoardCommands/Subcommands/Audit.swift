import ArgumentParser
import Foundation
import TribeBoardAudit
import TribeBoardCloudKit
import TribeBoardSupport

/// `tribeboard audit`: duplicate and invalid codes across the local store and the remote.
package struct AuditCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "audit",
        abstract: "Find duplicate or invalid family codes and incomplete families, locally and in CloudKit.",
        discussion: """
            The remote side is a snapshot file (--remote-snapshot, JSON Lines of CloudKit \
            records), or CloudKit itself when a remote is configured (--key-id and --key-file or \
            their variables), or nothing (the store alone). --export-remote FILE saves what a live \
            read saw as a snapshot.
            \(exits.help)
            """,
        version: toolkitVersion)

    enum Threshold: String, ExpressibleByArgument, CaseIterable {
        case error, warning, none

        var severity: AuditFinding.Severity? {
            switch self {
            case .error: return .error
            case .warning: return .warning
            case .none: return nil
            }
        }
    }

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Option(
        help: ArgumentHelp(
            "Audit against this snapshot instead of reading CloudKit.", valueName: "file.jsonl"))
    package var remoteSnapshot: String?

    @Option(
        help: ArgumentHelp(
            "Read CloudKit and also save what was read as a snapshot (mode 600).",
            valueName: "file.jsonl"))
    var exportRemote: String?

    @Flag(help: "Audit the local store alone, even when a remote is configured.")
    package var localOnly = false

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Report families pending sync for longer than this (e.g. 90m, 24h, 7d; default 24h).",
            valueName: "duration"),
        transform: StaleAfter.parse)
    var staleAfter = StaleAfter(seconds: 24 * 3600)

    @Option(
        help: ArgumentHelp(
            "Exit 1 when a finding reaches this severity: error, warning or none.",
            valueName: "severity"))
    var failOn: Threshold = .error

    @Flag(
        help: "List every remote-only family, stale pending family and legacy record, not a sample."
    )
    package var all = false

    @Flag(help: "Print codes in full (masked as AB**** by default).")
    package var showCodes = false

    @Flag(help: "Print the findings as CSV, one row per family.")
    package var csv = false

    @Flag(help: "Propose the fix for duplicate codes: the oldest family keeps its code, newer local ones get new codes.")
    package var repair = false

    @Flag(help: "With --repair: apply it (new codes in the store, QR codes and repairs.csv in --out, marked for resync).")
    package var apply = false

    @Option(
        help: ArgumentHelp(
            "With --repair --apply: folder for qr/*.png and repairs.csv (created owner-only).",
            valueName: "dir"))
    package var out: String?

    package init() {}

    package func validate() throws {
        if csv && global.json {
            throw ValidationError("--csv and --json contradict each other; pick one.")
        }
        if apply && !repair { throw ValidationError("--apply needs --repair.") }
        if apply && (out ?? "").isEmpty {
            throw ValidationError(
                "--repair --apply needs --out DIR for the new QR codes and repairs.csv.")
        }
        if remoteSnapshot != nil && exportRemote != nil {
            throw ValidationError(
                "--remote-snapshot and --export-remote contradict each other; pick one.")
        }
        if localOnly && (remoteSnapshot != nil || exportRemote != nil) {
            throw ValidationError("--local-only reads no remote; drop it or the snapshot option.")
        }
    }

    /// The audit reads SQLite and snapshot files, which blocks: it runs on a thread of its own
    /// (`PipelineThread`), awaiting CloudKit's pages there.
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.audit")
        var request = AuditRequest(storePath: global.store, remote: try remoteSource(context))
        request.staleAfter = staleAfter.seconds
        request.listAll = all
        request.showCodes = showCodes
        if repair { request.repair = apply ? .apply(outputDirectory: out ?? "") : .propose }
        let report: AuditReport
        let remoteFailure: AuditError?
        do throws(AuditError) {
            (report, remoteFailure) = try await Auditor(request: request, logger: context.logger)
                .runKeepingStoreFindings()
        } catch {
            throw context.fail(error, Self.exits)
        }
        if csv {
            if !global.quiet {
                // Exact cells for a file or a pipe; on a terminal, no control character gets
                // through.
                let csv = AuditCSV.render(report)
                Terminal.writeOutput(
                    Terminal.isTerminal(.standardOutput) ? TerminalText.sanitized(csv) : csv)
            }
        } else if remoteFailure == nil || !global.json {
            // With --json a failure is the one error document on stdout (docs/errors.md); the
            // text report still shows the store's findings above the error.
            try context.emit(report, text: AuditReportText.render)
        }
        // The store's findings are printed; the remote's failure still decides the status.
        if let remoteFailure {
            if !global.json, case .remote(let error) = remoteFailure,
                case .live(let client, _)? = request.remote
            {
                // What cron mails: what was tried and the command that says why, as resync's.
                let attempt = RemoteAttempt(
                    store: global.store, configuration: client.configuration, options: remoteOptions
                )
                context.report(
                    ErrorBlock(
                        cause:
                            "audit: CloudKit was not read, the store's findings above are the store's alone "
                            + "(--local-only audits only the store): \(error.localizedDescription)",
                        tried: attempt.lines, next: attempt.doctorCommand(remoteOptions)))
                throw Self.exits.status(of: remoteFailure).exitCode
            }
            throw context.fail(remoteFailure, Self.exits)
        }
        if report.reaches(failOn.severity) {
            context.stopped(because: StopReasons.of(report, threshold: failOn.severity))
            throw FindingsOutcome.failing.exitCode
        }
    }

    private func remoteSource(_ context: CommandContext) throws -> RemoteSource? {
        if let remoteSnapshot { return .snapshot(path: remoteSnapshot) }
        if localOnly { return nil }
        let client = try remoteOptions.client(
            policy: RetryPolicy(), context: context, exits: Self.exits)
        guard let client else {
            if exportRemote != nil {
                throw context.fail(CommandError.remoteNeeded(by: .exportRemote), Self.exits)
            }
            context.logger.notice(
                "no remote configured and no --remote-snapshot: auditing the local store alone")
            return nil
        }
        return .live(client, exportTo: exportRemote)
    }
}
