import ArgumentParser
import Foundation

extension TribeBoardCommand {
    /// Runs the command the program was started as. Installed packages ship one `tribeboard`
    /// binary and make `tribeboard-provision`, `tribeboard-audit`… links to it (each static binary
    /// carries the whole Swift runtime, about 65 MB), so a link's name picks its subcommand, which
    /// then behaves exactly as its own executable does (usage, help, completion script).
    package static func mainForProgramName(_ path: String = CommandLine.arguments.first ?? "tribeboard") {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let prefix = configuration.commandName.map { $0 + "-" } ?? "tribeboard-"
        guard name.hasPrefix(prefix),
              let command = configuration.subcommands.first(where: { $0.configuration.commandName == String(name.dropFirst(prefix.count)) })
        else { return main() }
        command.main()
    }
}
