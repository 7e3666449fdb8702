import ArgumentParser
import Foundation
import TribeBoardCloudKit
import TribeBoardResync
import TribeBoardStore
import TribeBoardDomain
import TribeBoardSupport

/// `tribeboard resync`: upload what waits for sync; built to run from cron.
package struct ResyncCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "resync",
        abstract: "Upload the records waiting for sync to CloudKit (safe to run from cron).",
        discussion: """
            Families first, then user profiles, then memberships, 200 per request. Silent on success \
            unless -v. One run per store at a time; an overlapping run exits at once.
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions
    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Stop starting new requests after this many seconds (1 to 86400).", valueName: "seconds"))
    package var maxDuration: Int?

    /// A day: a cron job that may run longer than that is not bounded in any useful sense.
    static let maxDurationRange = 1...86_400

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Pages of 200 records sent side by side (1 to 8; default 4). More helps a far "
                                + "container; 1 sends one request at a time.",
                               valueName: "pages"))
    package var concurrency: Int = CloudKitClient.maxConcurrentRequests

    static let concurrencyRange = 1...8

    @Flag(help: "List what is waiting, quarantined or in conflict, and why; upload nothing.")
    package var list = false

    @Option(help: ArgumentHelp("Give a quarantined or conflicting record back to resync, once its cause is dealt with (repeatable); upload nothing.",
                               valueName: "record-id"))
    package var release: [String] = []

    @Option(help: ArgumentHelp("Upload this family again with its memberships, though the store says it is "
                                + "uploaded (CloudKit lost it: deleted in the Console), at the next run "
                                + "(repeatable); upload nothing.",
                               valueName: "family-id"))
    package var reupload: [String] = []

    @Option(help: ArgumentHelp("Write Prometheus metrics here (node_exporter's textfile collector).", valueName: "file"))
    var metricsFile: String?

    package init() {}

    package func validate() throws {
        if let maxDuration { try NumericOption.check(maxDuration, "--max-duration", in: Self.maxDurationRange, unit: "seconds") }
        try NumericOption.check(concurrency, "--concurrency", in: Self.concurrencyRange, unit: "pages")
    }


    /// The resync pipeline (SQLite) blocks: it runs on a thread of its own (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.resync")
        if list { return try showList(context) }
        if !release.isEmpty { return try releaseRecords(context) }
        if !reupload.isEmpty { return try reuploadFamilies(context) }
        let client = try remoteOptions.client(policy: ResyncRun.retryPolicy(maxDuration: maxDuration),
                                              context: context, exits: Self.exits)
        guard let client else {
            throw context.fail(CommandError.remoteNeeded(by: .resync), Self.exits)
        }
        var report = try await upload(client, context)
        let outcome = writeMetrics(&report, context)
        try finish(report, outcome, client: client, context)
    }

    /// The run itself (ResyncRun): its errors end the command (another run holding the lock is
    /// 73, normal under cron; a lock file that cannot be used is 74).
    private func upload(_ client: CloudKitClient, _ context: CommandContext) async throws -> ResyncReport {
        // Its warnings (the code check stopped, conflicts, quarantines) are all in the summary
        // or the error block, which a run that does not end 0 always prints (cron mails it):
        // logged as they happen only with -v.
        let logger = global.verbose ? context.logger : context.loggerWithoutWarnings()
        var run = ResyncRun(storePath: global.store, client: client, logger: logger)
        run.maxDuration = maxDuration.map { .seconds($0) }
        run.concurrency = concurrency
        // A bar on a terminal (a long run is not silent for minutes), a line every few seconds
        // in a log, nothing for cron's quiet runs or with -q.
        let quiet = global.quiet || !Terminal.isTerminal(.standardError) && !global.verbose
        let progress = ProgressDisplay(quiet: quiet, logger: context.logger)
        run.onProgress = { progress.update($0) }
        defer { progress.finish() }
        do throws(ResyncRunError) {
            return try await run.run()
        } catch {
            throw context.fail(error, Self.exits)
        }
    }

    /// `--metrics-file`, and the outcome it leaves: monitoring reading a stale file would see the
    /// last good run, so a run that could not write it ends neither 0 nor 1.
    private func writeMetrics(_ report: inout ResyncReport, _ context: CommandContext) -> ResyncOutcome {
        let outcome = ResyncOutcome.uploads(report.exitKind)
        guard let metricsFile else { return outcome }
        do {
            try report.writeMetrics(to: metricsFile, exitStatus: outcome.status.rawValue)
            return outcome
        } catch {
            if !context.summaryOnTerminal {
                context.logger.error("cannot write the metrics file", metadata: ["error": "\(error.localizedDescription)"])
            }
            report.metricsFileError = error.localizedDescription
            return [.success, .partialFailure].contains(outcome.status) ? .metricsNotWritten : outcome
        }
    }

    /// What cron hears: nothing from a run that did its job (unless asked, or on a terminal);
    /// otherwise the error block of what stopped it, the summary, and what was set aside.
    private func finish(_ report: ResyncReport, _ outcome: ResyncOutcome, client: CloudKitClient,
                        _ context: CommandContext) throws {
        // What stopped the run is one error block (what cron mails), not a warning plus the
        // summary's line: the summary leaves it out.
        let block = stopBlock(report, client: client)
        if let block { context.report(block) }
        let status = outcome.status
        if global.json || global.verbose || status != .success || Terminal.isTerminal(.standardOutput) && !global.quiet {
            try context.emit(report) {
                ResyncReportText.render($0, store: global.store, remote: client.configuration.adviceFlags,
                                        stopShownApart: block != nil)
            }
        }
        guard status != .success else { return }
        let setAside = report.quarantined + report.conflicts + report.blocked
        context.stopped(because: (setAside > 0 ? ["\(setAside) records set aside for a person: \(listCommand)"] : [])
            + (report.unfinishedCreations > 0
                ? ["\(report.unfinishedCreations) creations that did not complete are kept out of CloudKit: "
                    + Advice.doctorFamily(store: global.store, family: "ID", remote: client.configuration.adviceFlags).command] : []))
        throw status.exitCode
    }

    private var listCommand: String { Advice.resyncList(store: global.store).command }

    /// The error block of a run CloudKit or --max-duration stopped: what was tried, why, and
    /// the command that shows more (doctor for the key and the network, --list for what waits).
    func stopBlock(_ report: ResyncReport, client: CloudKitClient) -> ErrorBlock? {
        guard let stop = report.stop, let reason = report.stoppedBy else { return nil }
        let attempt = RemoteAttempt(store: global.store, configuration: client.configuration, options: remoteOptions)
        var block = ErrorBlock(cause: "resync stopped: \(reason)", tried: attempt.lines, next: attempt.doctorCommand(remoteOptions))
        switch stop {
        case .remote(let error) where error.category == .configuration:
            if error.refusesKey {
                let key = client.configuration.keyID.map { "key id \($0)" } ?? "the key"
                let file = attempt.configFile.map { " (from \($0))" } ?? ""
                block.cause = "resync stopped: CloudKit refused \(key)\(file) for \(client.configuration.container) "
                    + "(\(client.configuration.environment.rawValue)): \(reason); check it is a server-to-server key "
                    + "of this container and environment in the CloudKit Console"
            }
        case .remote(let error) where error.askedWait != nil:
            // CloudKit asked for a wait longer than the run had left: its throttling stopped the
            // run, and the next run (cron's, or this command) goes on once that wait is over.
            let wait = Int((error.askedWait ?? 0).rounded(.up))
            let limit = maxDuration.map { " (longer than what was left of --max-duration \($0) s)" } ?? ""
            block.cause = "resync stopped: CloudKit throttled it (\(error.serviceCode.map { "\($0)" } ?? "a wait asked") "
                + "with retry-after \(wait) s\(limit)): \(reason); what is left waits for the next run: cron's, or the command "
                + "below once \(wait) s have passed"
            block.next = Advice.resync(store: global.store, remote: client.configuration.adviceFlags).command
        case .remote: break
        case .deadline, .unmatchedAnswer:
            block.cause = "resync stopped: \(reason); what is left waits for the next run"
            block.next = listCommand
        }
        return block
    }

    /// --release: the next run tries those records again; an id that is not set aside is a mistake.
    private func releaseRecords(_ context: CommandContext) throws {
        let released: [String]
        do throws(StoreError) {
            try TribeBoardStore.identify(at: global.store)
            released = try TribeBoardStore.open(at: global.store).releaseSetAside(ids: release)
        } catch {
            throw context.fail(error, Self.exits)
        }
        let result = ResyncRelease(released: released, notSetAside: release.filter { !released.contains($0) })
        // Nothing released: the error below is the whole answer, not a "Released 0 records" beside it.
        try context.emit(result) { $0.released.isEmpty ? "" : "Released \($0.released.count) records: the next resync tries them again.\n" }
        if !result.notSetAside.isEmpty {
            throw context.fail(CommandError.notSetAside(result.notSetAside, store: global.store), Self.exits)
        }
    }

    private func showList(_ context: CommandContext) throws {
        let listing: ResyncListing
        do throws(StoreError) {
            let store = try TribeBoardStore.openReadOnly(at: global.store)
            listing = ResyncListing(pending: try store.pendingSyncCounts(), entries: try store.syncEntries())
        } catch {
            throw context.fail(error, Self.exits)
        }
        try context.emit(listing, text: ResyncReportText.render)
    }
}

struct ResyncListing: Encodable {
    package let pending: TribeBoardStore.PendingSyncCounts
    package let entries: [ResyncListEntry]
}

struct ResyncRelease: Encodable {
    package let command = "resync --release"
    package let released: [String]
    let notSetAside: [String]

    enum CodingKeys: String, CodingKey { case command, released, notSetAside }
}
