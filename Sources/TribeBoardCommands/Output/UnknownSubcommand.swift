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
        let guess = suggestion.map { " (did you mean '\($0)'?)" } ?? ""
        return "unknown subcommand '\(name)'\(guess); the subcommands are \(known.joined(separator: ", "))"
    }

    /// The subcommand `name` most likely mistypes (`provison`, `Audit`, `resyn`): the nearest by
    /// edit distance, within two edits (or a third of the name), and only when one is nearest.
    var suggestion: String? {
        let typed = name.lowercased()
        let scored = known.map { ($0, Self.distance(typed, $0)) }
        guard let best = scored.map(\.1).min(), best <= max(2, typed.count / 3) else { return nil }
        let nearest = scored.filter { $0.1 == best }
        return nearest.count == 1 ? nearest.first?.0 : nil
    }

    /// Levenshtein distance, with a swap of two neighbours counted as one edit (`reycnc`).
    static func distance(_ left: String, _ right: String) -> Int {
        let a = Array(left), b = Array(right)
        guard !a.isEmpty, !b.isEmpty else { return max(a.count, b.count) }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }

    var errorDescription: String? { message }

    var errorDetail: ErrorDetail { ErrorDetail(kind: .usageUnknownSubcommand) }

    /// The unknown subcommand a refused command line starts with, if that is what is wrong: the
    /// first argument that is not an option names no subcommand (nor `help`).
    static func find<Command: ParsableCommand>(in arguments: [String], of command: Command.Type)
        -> UnknownSubcommand?
    {
        let known = command.configuration.subcommands.compactMap { $0.configuration.commandName }
        guard !known.isEmpty,
            let first = arguments.prefix(while: { $0 != "--" }).first(where: { !$0.hasPrefix("-") }
            ),
            first != "help", !known.contains(first)
        else { return nil }
        return UnknownSubcommand(name: first, known: known)
    }
}
