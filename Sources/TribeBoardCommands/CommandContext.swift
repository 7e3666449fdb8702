import ArgumentParser
import Foundation
import Logging

/// The state of one run, built once from the global options and handed to the command.
struct CommandContext {
    let options: GlobalOptions
    let logger: Logger
    /// Shared by the copies of this context: one document a run, whoever prints it.
    let document = StandardOutputDocument()

    init(options: GlobalOptions, label: String) {
        self.options = options
        let level = options.logLevel
        // The handler is given to this logger, not bootstrapped process-wide: swift-log allows one
        // bootstrap per process, and tests run several commands in one.
        self.logger = Logger(label: label) { _ in StderrLogHandler(level: level) }
    }

    /// The text summary will be printed on the terminal the diagnostics go to: a failure it lists
    /// (a failed row, why CloudKit stopped) is not logged as well, so a person reads it once.
    /// With -v, -q, --json or a redirected stream, the log keeps everything (-q: errors only).
    var summaryOnTerminal: Bool {
        !options.json && !options.quiet && !options.verbose
            && Terminal.isTerminal(.standardOutput) && Terminal.isTerminal(.standardError)
    }

    /// The logger for a part whose warnings are all in the summary (a code check that stopped,
    /// resync's conflicts and quarantines): without them when the summary is on the terminal.
    func loggerRepeatedBySummary() -> Logger {
        summaryOnTerminal ? loggerWithoutWarnings() : logger
    }

    /// The logger for a part whose every warning the run's summary or error block repeats
    /// wherever it is printed.
    func loggerWithoutWarnings() -> Logger {
        let level = options.logLevel
        return Logger(label: logger.label) { _ in
            var handler = StderrLogHandler(level: level)
            handler.dropsWarnings = true
            return handler
        }
    }

    /// Prints a report on stdout: one JSON document with --json, the readable text otherwise.
    func emit<Report: Encodable>(_ report: Report, text: (Report) -> String) throws {
        if options.json {
            // Encoded before the document is claimed: a report that cannot be encoded leaves the
            // place to the error document.
            let text = try Self.json(report)
            guard document.claim() else { return }
            Terminal.writeOutput(text)
        } else if !options.quiet {
            Terminal.writeOutput(TerminalText.sanitized(text(report)))
        }
    }

    /// The one JSON document of a run, as --json prints it.
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
    }

    /// Reports a run-stopping error on stderr and ends with its status (the command's `exits` say
    /// which); with --json, also as the run's one document on stdout (`{"error": …}`), unless a
    /// report already is that document. The compiler checks that the error documents itself (its
    /// `kind`): catch a typed throw (`do throws(StoreError)`) to call this.
    func fail(_ error: some DocumentedError, _ exits: CommandExits) -> ExitCode {
        fail(error, status: exits.status(of: error))
    }

    /// The same, for a part that throws untyped errors (provision's immediate upload): there
    /// `DocumentedErrorTypesTests` checks that every error type Sources declares documents itself,
    /// or is wrapped into one that does, since the compiler cannot.
    func fail(untyped error: any Error, _ exits: CommandExits) -> ExitCode {
        fail(error, status: exits.status(of: error))
    }

    private func fail(_ error: any Error, status: ExitStatus) -> ExitCode {
        logger.error("\(error.localizedDescription)")
        if options.json {
            // Encoding strings and integers cannot fail; if it ever did, stderr still has the
            // message.
            try? emit(ErrorDocument(error, status: status)) { _ in "" }
        }
        return status.exitCode
    }
}
