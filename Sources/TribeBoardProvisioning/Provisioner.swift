import Foundation
import Logging
import TribeBoardCSV
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardQR
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// Bulk-creates families from a CSV file: validate, give each a unique code, store it with its
/// admin in one transaction, then write its QR PNG. Offline-first: everything new waits with
/// `needs_sync = 1` for `resync`. Re-running the same file is safe at any point, even after kill
/// -9.
package struct Provisioner: Sendable {
    package typealias ProgressHandler = @Sendable (WorkProgress) -> Void

    let request: ProvisionRequest
    let logger: Logger
    let randomSource: any SecureRandomSource
    let onProgress: ProgressHandler
    /// Checks new codes against CloudKit too; nil works offline (local checks only).
    let remote: RemoteCodeCheck?

    static let loggedFailureLimit = 20
    /// `TRIBEBOARD_BENCH_NO_DUPLICATE_CHECK=1` leaves the possible-duplicate check out, so that a
    /// benchmark measures what it costs against the same binary (BENCHMARKS.md); nothing else reads
    /// it.
    static let benchWithoutDuplicateCheck =
        ProcessInfo.processInfo.environment["TRIBEBOARD_BENCH_NO_DUPLICATE_CHECK"] == "1"

    package init(request: ProvisionRequest, logger: Logger,
                randomSource: any SecureRandomSource = SystemSecureRandomSource(),
                remote: RemoteCodeCheck? = nil,
                onProgress: @escaping ProgressHandler = { _ in }) {
        self.request = request
        self.logger = logger
        self.randomSource = randomSource
        self.remote = remote
        self.onProgress = onProgress
    }

    /// Awaits CloudKit (code checks, claims) between its SQLite steps: run it with a
    /// `PipelineThread` as its task executor, as the commands do, so that the blocking work
    /// (CSV, SQLite, PNG files) stays off the cooperative pool.
    package func run() async throws(ProvisionError) -> ProvisionReport {
        do {
            return try await runUntyped()
        } catch let error as ProvisionError {
            throw error
        } catch let error as CSVImportError {
            throw .input(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch let error as FileSystemError {
            throw .output(error)
        } catch let error as ProvisionConfigurationError {
            throw .configuration(error.localizedDescription)
        } catch let error as QRCodeError {
            throw .configuration(error.localizedDescription)
        } catch {
            throw .store(.writing(error, store: request.storePath))
        }
    }

    private func runUntyped() async throws -> ProvisionReport {
        let started = ContinuousClock.now
        let generator = try FamilyCodeGenerator(length: request.codeLength, source: randomSource)
        let renderer = try QRCodePNGRenderer(scale: request.qrScale)
        let file = try ImportFile(path: request.csvPath, mapping: request.headerMapping)
        let preScan = file.preScan
        let total = preScan.dataRecords
        let reader = try file.reader()
        // One warning, however many: a file with 100,000 stray columns must not print 100,000
        // lines.
        if !reader.unknownColumns.isEmpty {
            let shown = reader.unknownColumns.prefix(5).joined(separator: ", ")
            logger.warning("ignoring unknown columns", metadata: [
                "count": "\(reader.unknownColumns.count)",
                "columns": "\(shown)\(reader.unknownColumns.count > 5 ? ", …" : "")",
            ])
        }
        let tracker = try RowTracker()
        if reader.columns.contains(.code) { try reservePreassignedCodes(in: tracker, file: file) }

        var report = ProvisionReport(
            dryRun: request.dryRun, csv: request.csvPath, store: request.storePath)
        report.noteUnknownColumns(reader.unknownColumns)
        report.columns = reader.columnSources
        for source in reader.columnSources where source.matched != .exact {
            logger.info("column \(source.field.rawValue) read from the header \"\(source.header)\" (\(source.matched.rawValue))")
        }
        let dialect = request.manifestFormat.dialect(
            input: preScan.format, byteOrderMark: preScan.byteOrderMark)
        logger.info(
            "provisioning",
            metadata: [
                "rows": "\(total)", "csv": "\(request.csvPath)",
                "store": "\(request.storePath)", "dry-run": "\(request.dryRun)"
            ])
        var sink = RunSink(
            report: report, logger: logger, total: total, started: started, onProgress: onProgress,
            loggedFailures: request.loggedFailures)
        sink.rows = preScan.rows
        // Only rows with an admin are compared: without that column there is nothing to check.
        let duplicates =
            reader.columns.contains(.adminDisplayName) && !Self.benchWithoutDuplicateCheck
            ? try PossibleDuplicateCheck(
                skip: request.skipPossibleDuplicates, storePath: request.storePath) : nil
        if request.dryRun {
            try planDryRun(reader: reader, tracker: tracker, duplicates: duplicates, sink: &sink)
        } else {
            try await provision(
                reader: reader, tracker: tracker, duplicates: duplicates, generator: generator,
                renderer: renderer,
                dialect: dialect, sink: &sink)
        }
        report = sink.report
        let seconds = (ContinuousClock.now - started).seconds
        report.durationSeconds = seconds
        report.familiesPerSecond =
            seconds > 0 ? Double(report.created + report.existing) / seconds : 0
        return report
    }

    private func provision(
        reader: sending FamilyCSVReader, tracker: RowTracker, duplicates: PossibleDuplicateCheck?,
        generator: FamilyCodeGenerator, renderer: QRCodePNGRenderer, dialect: ManifestDialect,
        sink: inout RunSink
    ) async throws {
        // The reader goes to the prefetch thread below: what is needed of it is read first.
        let reservations = reader.columns.contains(.code) ? tracker : nil
        let store = try openStore(duplicates: duplicates, sink: &sink)
        let marker = try markActivity(sink: &sink)
        // The marker tells other runs this one is writing: optimized builds may release a value
        // after its last use, so its lifetime is pinned to the end of the run, however it ends.
        defer { withExtendedLifetime(marker) {} }
        let folder = try prepareOutput(sink: &sink)
        let manifest = try ManifestWriter(path: folder.manifestPath, dialect: dialect)
        sink.report.manifestFormat = dialect
        let writer = ProvisioningWriter(generator: generator,
                                        reservations: reservations,
                                        qrFileExists: folder.qrFileExists(for:),
                                        ids: RecordIDGenerator(source: SystemSecureRandomSource()))
        let stage = QRCodeStage(renderer: renderer, outputDirectory: folder.path)
        let planner = CodePlanner(generator: generator, reservations: reservations, remote: remote)
        let claims = remote.map { ClaimStage(remote: $0, store: store, generator: generator,
                                             reservations: reservations, logger: logger) }
        var tally = ClaimStage.Tally()
        logger.debug("store and output folder ready", metadata: ["elapsed": "\(sink.elapsed)"])
        let rows = sink.rows
        let batches = BatchPrefetcher(reader: reader) { reader in
            try nextBatch(from: reader, tracker: tracker, duplicates: duplicates, rows: rows)
        }
        do {
            while var batch = try await batches.next() {
                // Without a remote, planning would only repeat the lookups the transaction makes.
                let planned = remote == nil ? [:] : try await planner.plan(&batch, store: store)
                var results = try writer.write(batch, planned: planned, to: store, at: .now)
                // Claimed before anything printable is written: a QR code never shows a code
                // another family holds.
                if let claims {
                    results = try await claims.claim(results, tally: &tally)
                } else {
                    tally.unclaimed += try ClaimStage.markLocal(&results, store: store)
                }
                for ticket in stage.submit(results) { try sink.finish(ticket, manifest: manifest) }
            }
            logger.debug("every row is in the store", metadata: ["elapsed": "\(sink.elapsed)"])
            for ticket in stage.drain() { try sink.finish(ticket, manifest: manifest) }
            try manifest.commit()
            logger.debug("QR codes and manifest written", metadata: ["elapsed": "\(sink.elapsed)"])
        } catch {
            batches.cancel()
            _ = stage.drain()
            manifest.abandon()
            throw error
        }
        store.checkpoint()
        try finishReport(tally, claimedInCloudKit: claims != nil, store: store, sink: &sink)
        logger.debug("store checkpointed", metadata: ["elapsed": "\(sink.elapsed)"])
    }

    /// The store, created when there is none, with the families the duplicate check compares.
    private func openStore(duplicates: PossibleDuplicateCheck?, sink: inout RunSink) throws
        -> TribeBoardStore
    {
        let (store, created) = try TribeBoardStore.openOrCreate(at: request.storePath)
        sink.report.storeCreated = created
        if created {
            logger.notice("created the store", metadata: ["store": "\(request.storePath)"])
        }
        try duplicates?.load(from: store)
        return store
    }

    /// Tells other runs this one is writing to the store, and says so when another one is.
    private func markActivity(sink: inout RunSink) throws -> StoreActivityMarker {
        let marker = try StoreActivityMarker(storePath: request.storePath)
        if let pid = marker.otherRunPID {
            sink.report.otherRunDetected = true
            logger.notice("""
                another provision run is writing to this store; both go on, coordinated by the \
                store's transactions, and rows the other run created first are reported as \
                existing
                """, metadata: ["pid": "\(pid)"])
        }
        return marker
    }

    /// The output folder made (or checked) and named in the report.
    private func prepareOutput(sink: inout RunSink) throws -> OutputFolder {
        let folder = OutputFolder(path: request.outputDirectory)
        let preparation = try folder.prepare()
        logPreparation(preparation, folder: folder)
        sink.report.outputDirectory = folder.path
        sink.report.qrDirectory = folder.qrDirectory
        sink.report.manifest = folder.manifestPath
        return folder
    }

    /// The claims' tally, what is left unclaimed and why, and what waits for sync.
    private func finishReport(
        _ tally: ClaimStage.Tally, claimedInCloudKit: Bool, store: TribeBoardStore,
        sink: inout RunSink
    ) throws {
        sink.report.codesClaimed = tally.claimed
        sink.report.codesRecoded = tally.recoded
        sink.report.codesUnclaimed = tally.unclaimed
        if sink.report.codesUnclaimed > 0, !claimedInCloudKit {
            logger.notice("""
                codes not claimed in CloudKit yet (manifest: claim = unclaimed): resync claims \
                them before their families go up; a code found taken then sets its family aside, \
                and a card printed with it would not work
                """,
                metadata: [
                    "families": "\(sink.report.codesUnclaimed)", "why": "no remote configured"
                ])
        } else if sink.report.codesUnclaimed > 0 {
            logger.warning("""
                codes CloudKit did not let this run claim: no QR code nor manifest code was \
                written for them; run provision again once CloudKit answers (resync also claims \
                them)
                """, metadata: ["families": "\(sink.report.codesUnclaimed)"])
        }
        sink.report.pendingSync = try store.pendingSyncCounts()
        if let remote {
            sink.report.remote = ProvisionReport.RemoteSummary(failure: remote.failure)
        }
    }

    /// Validates everything and reads the store if there is one; writes nothing at all.
    private func planDryRun(
        reader: FamilyCSVReader, tracker: RowTracker, duplicates: PossibleDuplicateCheck?,
        sink: inout RunSink
    ) throws {
        let store =
            FileManager.default.fileExists(atPath: request.storePath)
            ? try TribeBoardStore.openReadOnly(at: request.storePath) : nil
        if let store { try duplicates?.load(from: store) }
        let planner = DryRunPlanner(
            store: store, reservations: reader.columns.contains(.code) ? tracker : nil)
        // Where a real run would write: the summary says it.
        sink.report.outputDirectory = OutputFolder(path: request.outputDirectory).path
        while let batch = try nextBatch(
            from: reader, tracker: tracker, duplicates: duplicates, rows: sink.rows)
        {
            for entry in batch { sink.record(try planner.plan(entry)) }
        }
        sink.report.pendingSync = try store?.pendingSyncCounts()
    }

    /// The next rows of the file, parsed; nil at the end. A row whose import key an earlier row
    /// already used fails, naming that row; the first is provisioned. Possible duplicates (name and
    /// admin) are marked, or skipped.
    private func nextBatch(
        from reader: FamilyCSVReader, tracker: RowTracker, duplicates: PossibleDuplicateCheck?,
        rows: SpreadsheetRows
    ) throws -> [BatchEntry]? {
        var batch: [BatchEntry] = []
        batch.reserveCapacity(request.batchSize)
        while batch.count < request.batchSize, let record = try reader.next() {
            batch.append(RowParser().parse(record))
        }
        guard !batch.isEmpty else { return nil }
        let keyed: [(index: Int, row: ValidatedRow)] = batch.enumerated().compactMap {
            index, entry in
            if case .valid(let row) = entry { return (index, row) }
            return nil
        }
        let earlier = try tracker.firstLines(of: keyed.map { ($0.row.importKey, $0.row.line) })
        for ((index, row), earlierLine) in zip(keyed, earlier) {
            guard let earlierLine else { continue }
            let earlier = rows.describe(line: earlierLine)
            let error =
                row.externalId.map {
                    RowError(
                        column: FamilyCSVColumn.externalId.rawValue,
                        "\"\($0)\" is already used on \(earlier)")
                }
                ?? RowError(
                    column: nil,
                    "repeats \(earlier) in every column read (\(HeaderMapping.repeatAdvice(unread: reader.unknownColumns)))"
                )
            batch[index] = .invalid(
                line: row.line, externalId: row.externalId, familyName: row.familyName,
                importKey: row.importKey, error: error)
        }
        try duplicates?.check(&batch)
        return batch
    }

    /// Preassigned codes are claimed before any code is generated, so that a random code can never
    /// take a code that a later row of the same file keeps.
    private func reservePreassignedCodes(in tracker: RowTracker, file: ImportFile) throws {
        let reader = try file.reader()
        while let record = try reader.next() {
            // Every well-formed code claims its place, even on a row that fails for another
            // reason: two lines giving one code are a conflict in the file, and the earlier line
            // keeps it, so that fixing that line (not the later one) resolves it.
            guard let raw = record.fields[.code], let code = try? FamilyCode(validating: raw) else {
                continue
            }
            _ = try tracker.reserve(code: code.value, line: record.line)
        }
    }

    private func logPreparation(_ preparation: OutputFolder.Preparation, folder: OutputFolder) {
        if preparation.tightenedQRDirectory {
            logger.warning(
                "restricted the QR folder to its owner (mode 0700): family codes are secrets",
                metadata: ["folder": "\(folder.qrDirectory)"])
        }
        if preparation.outputIsWorldWritable {
            logger.warning("""
                other users can create and rename files in the output folder; keep QR codes in a \
                folder only you can write to
                """, metadata: ["folder": "\(folder.path)"])
        }
        if preparation.outputIsWorldReadable {
            logger.warning("""
                the output folder can be listed by other users; the QR folder and manifest inside \
                it are owner-only
                """, metadata: ["folder": "\(folder.path)"])
        }
        if preparation.removedTemporaryFiles > 0 {
            logger.info(
                "removed temporary files left by an interrupted run",
                metadata: ["count": "\(preparation.removedTemporaryFiles)"])
        }
    }
}
