import Foundation
import Testing
import TribeBoardDomain
import TribeBoardTestSupport

/// Runs a command the toolkit printed as advice, the way an operator pastes it into the shell
/// that ran the advising command: the same folder and environment, only its placeholders
/// (`Advice.placeholders`) replaced. `tribeboard` is the built binary.
enum AsPrinted {
    /// The backquoted commands of a sentence, in order.
    static func commands(in text: String) -> [String] {
        text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
            .filter { $0.offset % 2 == 1 && $0.element.hasPrefix("tribeboard ") }.map { String($0.element) }
    }

    /// POSIX shell words: blanks separate, single quotes keep everything, `\'` outside quotes.
    static func words(_ command: String) -> [String] {
        var words: [String] = [], current = "", inQuote = false, started = false
        var characters = command.makeIterator()
        while let character = characters.next() {
            if inQuote {
                if character == "'" { inQuote = false } else { current.append(character) }
            } else if character == "'" {
                inQuote = true
                started = true
            } else if character == "\\" {
                if let next = characters.next() { current.append(next) }
                started = true
            } else if character == " " {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
    }

    static func run(_ command: String, in directory: String, replacing placeholders: [String: String] = [:],
                    environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        let words = words(command).map { placeholders[$0] ?? $0 }
        try #require(words.first == "tribeboard", "advice is a tribeboard command: \(command)")
        #expect(!words.contains { Advice.placeholders.contains($0) }, "every placeholder given: \(command)")
        return try await ProcessRunner.runAsync(ProcessRunner.executable("tribeboard"), Array(words.dropFirst()), in: directory,
                                                environment: environment)
    }
}
