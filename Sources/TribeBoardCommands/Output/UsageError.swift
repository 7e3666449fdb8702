import ArgumentParser
import Foundation

/// A command line refused before anything ran (exit 64), as the error document describes it:
/// `usage.unknownOption`, `usage.invalidValue`… and the option at fault when there is one.
///
/// ArgumentParser's public API gives a refused command line only as text and an exit code; its
/// error cases (`ParserError`) are internal. The kind is read from the case's name by reflection,
/// never from the wording, and a shape this table does not know is plain `usage`: an upgrade of
/// ArgumentParser can make a kind coarser, not wrong (`UsageErrorTests` pins every kind).
struct UsageError: Error, LocalizedError, DocumentedError {
    let kind: ErrorKind
    let option: String?
    /// ArgumentParser's message, the first line of what it prints on stderr.
    let message: String

    init<Command: ParsableCommand>(_ error: any Error, command: Command.Type) {
        message = command.message(for: error)
        let parserError = Mirror(reflecting: error).descendant("parserError")
        let label = parserError.flatMap { Mirror(reflecting: $0).children.first?.label ?? "\($0)" }
        kind =
            error is ValidationError ? .usageValidation : label.flatMap { Self.kinds[$0] } ?? .usage
        option = parserError.flatMap { Self.optionName(in: $0, depth: 0) }
    }

    var errorDescription: String? { message }

    var errorDetail: ErrorDetail {
        ErrorDetail(kind: kind).with { $0.option = option }
    }

    /// ArgumentParser's `ParserError` cases, by name, as the stable kinds docs/errors.md documents.
    private static let kinds: [String: ErrorKind] = [
        "unknownOption": .usageUnknownOption, "invalidOption": .usageUnknownOption,
        "nonAlphanumericShortOption": .usageUnknownOption,
        "missingValueOrUnknownCompositeOption": .usageUnknownOption,
        "missingValueForOption": .usageMissingValue,
        "noValue": .usageMissingArgument,
        "unableToParseValue": .usageInvalidValue,
        "unexpectedValueForOption": .usageUnexpectedArgument,
        "unexpectedExtraValues": .usageUnexpectedArgument,
        "duplicateExclusiveValues": .usageUnexpectedArgument,
        "userValidationError": .usageValidation,
    ]

    /// The option a parse error names (`--code-length`, `-q`), found in the error's payload.
    private static func optionName(in value: Any, depth: Int) -> String? {
        let mirror = Mirror(reflecting: value)
        if "\(mirror.subjectType)" == "Name", let child = mirror.children.first {
            switch child.label {
            case "long": return "--\(child.value)"
            case "longWithSingleDash": return "-\(child.value)"
            case "short":
                return Mirror(reflecting: child.value).children.first.map { "-\($0.value)" }
                    ?? "-\(child.value)"
            default: return nil
            }
        }
        // A `ParserError`'s payload is at most a tuple holding an optional: three levels.
        guard depth < 3 else { return nil }
        return mirror.children.lazy.compactMap { optionName(in: $0.value, depth: depth + 1) }.first
    }
}

extension ParsableCommand {
    /// The command line as a run-stopping error with `--json` before any `--`: the one document
    /// a script reads. nil for help, version and completion requests (they end 0), and without
    /// `--json`.
    static func usageDocument(for error: any Error, arguments: [String]) -> ErrorDocument? {
        guard arguments.prefix(while: { $0 != "--" }).contains("--json"),
              exitCode(for: error).rawValue == ExitStatus.usage.rawValue
        else { return nil }
        return ErrorDocument(UsageError(error, command: self), status: .usage)
    }
}
