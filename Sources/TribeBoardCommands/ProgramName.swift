import ArgumentParser
import Foundation

extension TribeBoardCommand {
    /// Runs the command the program was started as. Installed packages ship one `tribeboard`
    /// binary and make `tribeboard-provision`, `tribeboard-audit`… links to it (each static binary
    /// carries the whole Swift runtime, about 65 MB), so a link's name picks its subcommand, which
    /// then behaves exactly as its own executable does (usage, help, completion script).
    package static func mainForProgramName(_ path: String = CommandLine.arguments.first ?? "tribeboard") async {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let prefix = configuration.commandName.map { $0 + "-" } ?? "tribeboard-"
        guard name.hasPrefix(prefix),
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == String(name.dropFirst(prefix.count)) }),
              let asyncCommand = command as? AsyncParsableCommand.Type
        else { return await start() }
        await asyncCommand.start()
    }
}

extension AsyncParsableCommand {
    /// The entry point of every executable. From top-level code `main()` resolves to
    /// ParsableCommand's synchronous one, which would not run an async `run()`.
    package static func start(arguments: [String] = Array(CommandLine.arguments.dropFirst())) async {
        var command: any ParsableCommand
        do {
            command = try parseAsRoot(arguments)
        } catch {
            // Encoding strings cannot fail; if it ever did, stderr still has the message.
            if let document = usageDocument(for: error, arguments: arguments), let json = try? CommandContext.json(document) {
                Terminal.writeOutput(json)
            }
            exit(withError: error)
        }
        do {
            if var asyncCommand = command as? AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}
