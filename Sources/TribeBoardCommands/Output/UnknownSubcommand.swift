import ArgumentParser
import Foundation

/// `tribeboard frobnicate --json`: ArgumentParser reads the root command's options first and
/// blames `--json` (which only the subcommands have), or calls the name an unexpected argument.
/// The cause is the subcommand that does not exist, so that is what stderr and the error
/// document say (`usage.unknownSubcommand`).
struct UnknownSubcommand: Error, LocalizedError, DocumentedError {
    let name: String
    let known: [String]

    var message: String {
        "unknown subcommand '\(name)'; the subcommands are \(known.joined(separator: ", "))"
    }

    var errorDescription: String? { message }

    var errorDetail: ErrorDetail { ErrorDetail(kind: "usage.unknownSubcommand") }

    /// The unknown subcommand a refused command line starts with, if that is what is wrong: the
    /// first argument that is not an option names no subcommand (nor `help`).
    static func find<Command: ParsableCommand>(in arguments: [String], of command: Command.Type) -> UnknownSubcommand? {
        let known = command.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !known.isEmpty,
              let first = arguments.prefix(while: { $0 != "--" }).first(where: { !$0.hasPrefix("-") }),
              first != "help", !known.contains(first)
        else { return nil }
        return UnknownSubcommand(name: first, known: known)
    }
}
