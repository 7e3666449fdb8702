import ArgumentParser
import Foundation
import TribeBoardCore

/// `tribeboard provision FILE.csv --out DIR`: bulk-creates families with codes and QR PNGs.
public struct ProvisionCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Create families from a CSV file, each with a unique code and a QR code PNG.",
        discussion: """
            Columns (header row, any order, any case): family_name (required), external_id, \
            admin_display_name, admin_apple_user_id_hash, code. Re-running the same file is safe: \
            rows already provisioned are reported as existing. New records wait for `tribeboard resync`.
            Exit status: 0 all rows created or existing; 1 some rows failed; 64 bad usage; \
            65 the file is not readable CSV or lacks family_name; 66 the file cannot be opened; \
            74 the store or output folder cannot be opened or written.
            """)

    @OptionGroup(title: "Global options") public var global: GlobalOptions

    @Argument(help: ArgumentHelp("The CSV file to provision.", valueName: "file.csv"))
    public var csv: String

    @Option(name: .long, help: ArgumentHelp("Folder for qr/*.png and manifest.csv (created owner-only).", valueName: "dir"))
    public var out: String = "./tribeboard-out"

    @Option(name: .long, help: "Length of generated codes, 6 to 8.")
    public var codeLength: Int = 6

    @Option(name: .long, help: "Pixels per QR module, 1 to 64 (8 gives about 230 px for a 6-character code).")
    public var qrScale: Int = 8

    @Flag(name: .long, help: "Validate every row and check it against the store; write nothing.")
    public var dryRun = false

    public init() {}

    public func validate() throws {
        guard (6...8).contains(codeLength) else { throw ValidationError("--code-length must be 6, 7 or 8.") }
        guard (1...64).contains(qrScale) else { throw ValidationError("--qr-scale must be between 1 and 64.") }
        if out.isEmpty { throw ValidationError("--out needs a folder path.") }
    }

    public func run() throws {
        let context = CommandContext(options: global, label: "tribeboard.provision")
        var request = ProvisionRequest(csvPath: csv, storePath: global.store, outputDirectory: out)
        request.codeLength = codeLength
        request.qrScale = qrScale
        request.dryRun = dryRun
        let progress = ProgressDisplay(quiet: global.quiet || global.json && !Terminal.isTerminal(.standardError),
                                       logger: context.logger)
        let provisioner = Provisioner(request: request, logger: context.logger,
                                      onProgress: { progress.update($0) })
        let report: ProvisionReport
        do {
            report = try provisioner.run()
        } catch {
            progress.finish()
            throw context.fail(error.localizedDescription, status: Self.status(for: error))
        }
        progress.finish()
        try context.emit(report, text: ProvisionReportText.render)
        if report.qrWriteFailures > 0 { throw ExitStatus.ioError.exitCode }
        if report.failed > 0 { throw ExitStatus.partialFailure.exitCode }
    }

    static func status(for error: ProvisionError) -> ExitStatus {
        switch error {
        case .input(.cannotOpen): return .noInput
        case .input: return .dataError
        case .store, .output: return .ioError
        case .configuration: return .usage
        }
    }
}
