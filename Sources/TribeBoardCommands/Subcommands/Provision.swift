import ArgumentParser
import Foundation
import TribeBoardCSV
import TribeBoardDomain
import TribeBoardCloudKit
import TribeBoardProvisioning
import TribeBoardResync
import TribeBoardSheets
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// `tribeboard provision FILE.csv --out DIR`: bulk-creates families with codes and QR PNGs.
package struct ProvisionCommand: PipelineCommand {
    package static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Create families from a CSV file, each with a unique code and a QR code PNG.",
        discussion: """
            Columns (header row, any order, any case): family_name (required), external_id, \
            admin_display_name, admin_apple_user_id_hash, code. Re-running the same file is safe: \
            rows already provisioned are reported as existing. New records wait for `tribeboard \
            resync`.
            With a remote configured (--key-id and --key-file, or their variables), new codes are also \
            checked in CloudKit; when it is unreachable the run goes on with local checks and says so. \
            A new family with the name and admin of another (in the store or earlier in the file) is \
            created with a warning, or left out with --skip-possible-duplicates. \
            Form exports: headers such as "Family name" match family_name; --map "HEADER=column" names others. \
            The manifest is written in the input's dialect (delimiter, byte order mark) unless --manifest-format says otherwise. \
            \(exits.help)
            """,
        version: toolkitVersion)

    @OptionGroup(title: "Global options") package var global: GlobalOptions

    @Argument(help: ArgumentHelp("The CSV file to provision.", valueName: "file.csv"))
    package var csv: String

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Folder for qr/*.png and manifest.csv (created owner-only).", valueName: "dir"))
    package var out: String = "./tribeboard-out"

    @Option(
        name: .long,
        help: "Length of generated codes, 6 to 8 (8 by default: shorter codes can be guessed).")
    package var codeLength: Int = FamilyCodeGenerator.defaultLength

    @Option(
        name: .long,
        help: "Pixels per QR module, 1 to 64 (8 gives about 230 px for a 6-character code).")
    package var qrScale: Int = 8

    @Flag(name: .long, help: "Validate every row and check it against the store; write nothing.")
    package var dryRun = false

    @Option(
        name: .customLong("map"),
        help: ArgumentHelp(
            "A header of the file and the column it feeds, e.g. \"Nom de famille=family_name\" "
                + "(repeatable); headers such as \"Family name\" match without it.",
            valueName: "header=column"))
    package var map: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How manifest.csv is written: input (the input's delimiter and byte order mark), "
                + "comma, semicolon, tab, excel (commas, BOM), excel-eu (semicolons, BOM).",
            valueName: "format"))
    package var manifestFormat: ManifestFormat = .input

    @Flag(
        name: .long,
        help: ArgumentHelp(
            "Leave out new families with the name and admin of another (in the store "
                + "or earlier in the file); default: create them with a warning."))
    package var skipPossibleDuplicates = false

    @Flag(name: .long, help: "Upload the records waiting for sync right after creating them (default: leave them for `resync`).")
    package var sync = false

    @Option(name: .long,
            help: ArgumentHelp("Also print the invitations: cards on A4, from the manifest (see `tribeboard sheets`).",
                               valueName: "file.pdf"))
    package var sheets: String?

    @OptionGroup(title: "CloudKit") package var remoteOptions: RemoteOptions

    /// Checks during a bulk run must not stall it: a short, bounded policy.
    static let remotePolicy = RetryPolicy(
        maxAttempts: 6, baseDelay: 0.5, maxDelay: 5, maxTotalSeconds: 30)

    package init() {}

    package func validate() throws {
        guard FamilyCode.allowedLengths.contains(codeLength) else {
            throw ValidationError("--code-length must be \(FamilyCode.allowedLengthsList).")
        }
        guard (1...64).contains(qrScale) else {
            throw ValidationError("--qr-scale must be between 1 and 64.")
        }
        if out.isEmpty { throw ValidationError("--out needs a folder path.") }
        if sheets != nil && dryRun {
            throw ValidationError("--dry-run writes nothing: drop --sheets or --dry-run.")
        }
        if sheets?.isEmpty == true { throw ValidationError("--sheets needs a file path.") }
        do { _ = try HeaderMapping(arguments: map) } catch {
            throw ValidationError(error.localizedDescription)
        }
    }


    /// The provisioning pipeline (CSV, SQLite, PNG files) blocks: it runs on a thread of its own
    /// (`PipelineThread`).
    package func runPipeline() async throws {
        let context = CommandContext(options: global, label: "tribeboard.provision")
        let request = try provisionRequest(context: context)
        let progress = ProgressDisplay(
            quiet: global.quiet || global.json && !Terminal.isTerminal(.standardError),
            logger: context.logger)
        let client = try remoteClient(context: context)
        // Its one warning (CloudKit stopped) is the summary's "CloudKit could not be used" line.
        let remote = client.map {
            RemoteCodeCheck(client: $0, logger: context.loggerRepeatedBySummary())
        }
        let provisioner = Provisioner(
            request: request, logger: context.logger, remote: dryRun ? nil : remote,
            onProgress: { progress.update($0) })
        var report: ProvisionReport
        do throws(ProvisionError) {
            report = try await provisioner.run()
        } catch {
            progress.finish()
            throw context.fail(error, Self.exits)
        }
        if sync, !dryRun, let client, remote?.isAvailable == true {
            do {
                try await upload(with: client, into: &report, logger: context)
            } catch {
                progress.finish()
                throw context.fail(untyped: error, Self.exits)
            }
        }
        progress.finish()
        if report.remote?.unavailable != nil, report.remote?.next == nil, let client {
            // CloudKit could not be used: the records wait, and resync claims their codes and
            // uploads them (provision run again then prints what was left unclaimed).
            report.remote?.next =
                Advice.resync(store: global.store, remote: client.configuration.adviceFlags).command
        }
        // A PDF that cannot be made does not hide what was provisioned: the report says both, and
        // the run ends with the sheets' status (never 0).
        let sheetsStatus = sheets.flatMap { makeSheets($0, into: &report, context: context) }
        let adviceFlags = client?.configuration.adviceFlags ?? []
        try context.emit(report) { ProvisionReportText.render($0, remote: adviceFlags) }
        if let status = sheetsStatus {
            throw status.exitCode
        }
        if let outcome = ProvisionOutcome(report) {
            context.stopped(because: StopReasons.of(report))
            throw outcome.exitCode
        }
    }

    /// The run as the options ask for it.
    private func provisionRequest(context: CommandContext) throws -> ProvisionRequest {
        var request = ProvisionRequest(csvPath: csv, storePath: global.store, outputDirectory: out)
        request.codeLength = codeLength
        request.qrScale = qrScale
        request.dryRun = dryRun
        if context.summaryOnTerminal { request.loggedFailures = 0 }
        request.skipPossibleDuplicates = skipPossibleDuplicates
        request.manifestFormat = manifestFormat
        do throws(HeaderMappingProblem) {
            request.headerMapping = try HeaderMapping(arguments: map)
        } catch {
            throw context.fail(CSVImportError.headerMapping(error), Self.exits)
        }
        return request
    }

    /// The CloudKit client the options configure, nil for none (which --sync cannot do without).
    private func remoteClient(context: CommandContext) throws -> CloudKitClient? {
        let client = try remoteOptions.client(policy: Self.remotePolicy, context: context, exits: Self.exits)
        if sync && client == nil {
            throw context.fail(CommandError.remoteNeeded(by: .sync), Self.exits)
        }
        if client == nil && !dryRun {
            context.logger.info("no remote configured: codes are checked in the local store only, records wait for resync")
        }
        return client
    }

    /// --sheets: the manifest's cards; the status of a failure, which is also in the report.
    private func makeSheets(
        _ path: String, into report: inout ProvisionReport, context: CommandContext
    ) -> ExitStatus? {
        let request = SheetsRequest(out: path, layout: .cards, paper: .a4, template: nil)
        // Families whose code no run could claim have no code in the manifest: no card until one
        // does.
        let waiting =
            report.remote == nil || report.codesUnclaimed == 0 ? nil : report.codesUnclaimed
        do {
            let printed = try SheetsCommand.pipeline(
                request, storePath: global.store, context: context
            ).print(manifest: "\(out)/manifest.csv")
            context.logger.notice(
                "sheets: \(printed.invitations) cards on \(printed.pages) pages in \(path) (mode 600: it holds the codes)"
            )
            report.sheets = .init(
                path: path, invitations: printed.invitations, pages: printed.pages,
                waitingForClaims: waiting)
            return nil
        } catch .nothingSelected where waiting != nil {
            // Not the data's fault: the run's own status (codes unclaimed, 75) says to run it
            // again.
            report.sheets = .init(path: path, invitations: 0, pages: 0, waitingForClaims: waiting)
            return nil
        } catch {
            if !context.summaryOnTerminal {
                context.logger.error(
                    "the sheets were not made; the families are provisioned",
                    metadata: ["error": "\(error.localizedDescription)"])
            }
            report.sheets = .init(
                path: path, error: error.localizedDescription,
                errorKind: ErrorDetail.of(error).kind.rawValue)
            return Self.exits.status(of: error)
        }
    }

    /// --sync: the core's upload (`ImmediateUpload`), said in the report's words.
    private func upload(
        with client: CloudKitClient, into report: inout ProvisionReport,
        logger context: CommandContext
    ) async throws {
        let upload = try await ImmediateUpload.run(
            storePath: global.store, client: client, logger: context.loggerRepeatedBySummary())
        report.remote?.uploadError = upload.stoppedBy
        report.remote?.uploadOutcome = upload.outcome
        report.remote?.next = upload.next
        if let held = upload.lockHeld {
            report.remote?.uploadStopKind = ErrorDetail.of(held).kind.rawValue
            return
        }
        report.remote?.uploaded = upload.uploaded
        report.remote?.uploadFailed = upload.failed
        report.remote?.uploadStopKind = upload.stopKind
        report.remote?.uploadWaiting = upload.waiting
        report.remote?.uploadSetAside = upload.setAside
        if let category = upload.stopCategory, report.remote?.errorKind == nil {
            report.remote?.errorKind = category
        }
        report.pendingSync = upload.pending
    }
}

extension ManifestFormat: ExpressibleByArgument {}
