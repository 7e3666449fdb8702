import ArgumentParser
import Foundation
import Logging
import TribeBoardSupport

/// Options every subcommand takes.
package struct GlobalOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("The local SQLite store (env TRIBEBOARD_STORE).", valueName: "path"))
    package var store: String =
        ProcessInfo.processInfo.environment["TRIBEBOARD_STORE"] ?? "./tribeboard.sqlite"

    @Flag(name: .shortAndLong, help: "Print only errors; no progress.")
    package var quiet = false

    @Flag(name: .shortAndLong, help: "Print details of the work on stderr.")
    var verbose = false

    @Flag(name: .long, help: "Print the summary as one JSON document on stdout.")
    package var json = false

    package init() {}

    /// The store is made absolute once, here: every report, message and piece of advice names
    /// it so, and advice cron mails runs from any working directory.
    package mutating func validate() throws {
        if quiet && verbose {
            throw ValidationError("--quiet and --verbose contradict each other; pick one.")
        }
        if store.isEmpty { throw ValidationError("--store needs a path.") }
        store = AbsolutePath.of(store)
    }

    var logLevel: Logger.Level {
        if quiet { return .error }
        return verbose ? .debug : .notice
    }
}
