import ArgumentParser
import Foundation
import Logging

extension TribeBoardCommand {
    /// Runs the command the program was started as. Installed packages ship one `tribeboard`
    /// binary and make `tribeboard-provision`, `tribeboard-audit`… links to it (each static binary
    /// carries the whole Swift runtime, about 65 MB), so a link's name picks its subcommand, which
    /// then behaves exactly as its own executable does (usage, help, completion script).
    package static func mainForProgramName(
        _ path: String = CommandLine.arguments.first ?? "tribeboard"
    ) async {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let prefix = configuration.commandName.map { $0 + "-" } ?? "tribeboard-"
        guard name.hasPrefix(prefix),
            let command = configuration.subcommands.first(where: {
                $0.configuration.commandName == String(name.dropFirst(prefix.count))
            }),
            let asyncCommand = command as? AsyncParsableCommand.Type
        else { await start() }
        await asyncCommand.start()
    }
}

extension AsyncParsableCommand {
    /// The entry point of every executable. From top-level code `main()` resolves to
    /// ParsableCommand's synchronous one, which would not run an async `run()`.
    package static func start(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async
        -> Never
    {
        // A reader that hung up (`| head`) makes writes fail with EPIPE, which the run reports,
        // instead of killing it with SIGPIPE halfway through its work (a log line on a closed
        // stderr pipe would otherwise stop a provision between two rows).
        signal(SIGPIPE, SIG_IGN)
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // A clean exit (--help, --version, --generate-completion-script bash) is no unknown
            // subcommand, whatever word follows its option.
            if exitCode(for: error) != .success,
                let unknown = UnknownSubcommand.find(in: arguments, of: Self.self)
            {
                if arguments.prefix(while: { $0 != "--" }).contains("--json"),
                   let json = try? CommandContext.json(ErrorDocument(unknown, status: .usage)) {
                    Terminal.writeOutput(json)
                }
                finish(ValidationError(unknown.message))
            }
            // Encoding strings cannot fail; if it ever did, stderr still has the message.
            if let document = usageDocument(for: error, arguments: arguments),
                let json = try? CommandContext.json(document)
            {
                Terminal.writeOutput(json)
            }
            finish(error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            finish(error)
        }
        finish(status: .success)
    }

    /// Ends the run with `error`'s status (and message, with the toolkit's one prefix), unless
    /// stdout failed: then 74, or the run's own status when it already says the work stopped.
    private static func finish(_ error: any Error) -> Never {
        let status = exitCode(for: error)
        if status == .success {
            // --help, --version, a completion script (also `tribeboard` alone, whose run() asks
            // for help): stdout, through the checked writes rather than ArgumentParser's print.
            let message = fullMessage(for: error)
            if !message.isEmpty { Terminal.writeOutput(message + "\n") }
            finish(status: .success)
        }
        // A run that already reported its failure ends with ExitCode, which has no message.
        if !(error is ExitCode) {
            let message = errorMessage(for: error)
            if !message.isEmpty { Terminal.writeError(message + "\n") }
        }
        guard let failure = Terminal.finishOutput() else { Foundation.exit(status.rawValue) }
        exit(reporting: failure, status: status)
    }

    /// ArgumentParser's message (a usage error's reason, its usage line, where to find help) with
    /// the prefix of every other diagnostic in place of its own `Error: `.
    static func errorMessage(for error: any Error) -> String {
        let message = fullMessage(for: error)
        guard !message.isEmpty else { return "" }
        let reason =
            message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
        return StderrLogHandler.prefix(.error) + reason
    }

    private static func finish(status: ExitCode) -> Never {
        guard let failure = Terminal.finishOutput() else {
            exit(withError: status == .success ? nil : status)
        }
        exit(reporting: failure, status: status)
    }

    private static func exit(reporting failure: StandardOutputError, status: ExitCode) -> Never {
        Terminal.writeError(StderrLogHandler.prefix(.error) + "\(failure.localizedDescription)\n")
        let keeps =
            status.rawValue != ExitStatus.success.rawValue
            && status.rawValue != ExitStatus.partialFailure.rawValue
        Foundation.exit(keeps ? status.rawValue : ExitStatus.ioError.rawValue)
    }
}
