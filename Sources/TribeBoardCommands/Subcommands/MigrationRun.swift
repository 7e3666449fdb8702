import ArgumentParser
import Foundation
import TribeBoardCloudKit
import TribeBoardMigrate
import TribeBoardSupport

/// What both migrations do once their sides are known: run, print, exit with the truth.
struct MigrationRun {
    let context: CommandContext
    let options: MigrateOptions

    static func destinationClient(_ remote: RemoteOptions, context: CommandContext) throws
        -> CloudKitClient
    {
        let client = try remote.client(
            policy: RetryPolicy(), context: context, exits: MigrateCommand.exits)
        guard let client else {
            throw context.fail(CommandError.remoteNeeded(by: .migrate), MigrateCommand.exits)
        }
        return client
    }

    func execute(_ request: MigrationRequest, _ endpoints: MigrationEndpoints) async throws {
        let global = context.options
        let progress = ProgressDisplay(
            quiet: global.quiet || global.json && !Terminal.isTerminal(.standardError),
            logger: context.logger)
        let interrupt = MigrationInterrupt()
        interrupt.install(applying: request.apply) { [context] interruption in
            progress.finish()
            _ = context.fail(interruption, MigrateCommand.exits)
        }
        defer { interrupt.remove() }
        var report: MigrationReport
        do throws(MigrationError) {
            report = try await Migrator(
                request: request, endpoints: endpoints, logger: context.logger,
                onProgress: {
                    interrupt.record($0)
                    progress.update($0.work)
                }
            ).run()
        } catch {
            progress.finish()
            throw context.fail(error, MigrateCommand.exits)
        }
        progress.finish()
        if !report.keepToFinish.isEmpty { report.next = Self.rerun(keeping: report.keepToFinish) }
        // The summary's "Stopped:" line says it on a terminal.
        if let reason = report.stoppedBy, !context.summaryOnTerminal || options.csv {
            context.logger.warning("migration stopped early", metadata: ["reason": "\(reason)"])
        }
        if options.csv {
            if !global.quiet {
                let csv = MigrationCSV.render(report)
                Terminal.writeOutput(
                    Terminal.isTerminal(.standardOutput) ? TerminalText.sanitized(csv) : csv)
            }
        } else {
            try context.emit(report, text: MigrateReportText.render)
        }
        let status = report.exitKind.status
        if status != .success {
            context.stopped(because: StopReasons.of(report))
            throw status.exitCode
        }
    }

    /// This very command line again, keeping `names` (`--keep-source`): it runs as printed in
    /// the shell that ran this one (the same working folder and TRIBEBOARD_* variables).
    static func rerun(keeping names: [String], arguments: [String] = CommandLine.arguments)
        -> String
    {
        var words = Array(arguments.dropFirst())
        // `tribeboard migrate …` and the `tribeboard-migrate …` link alike.
        if words.first == "migrate" { words.removeFirst() }
        let already = Set(zip(words, words.dropFirst()).filter { $0.0 == "--keep-source" }.map(\.1))
        for name in names where !already.contains(name) { words += ["--keep-source", name] }
        return ShellWords.command(["tribeboard", "migrate"] + words)
    }
}
