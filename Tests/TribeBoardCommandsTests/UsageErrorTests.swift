import ArgumentParser
import Foundation
import Testing
@testable import TribeBoardCommands

/// A command line refused with 64 is an error document when `--json` is on it (docs/errors.md, "Errors as
/// JSON"): its kind from ArgumentParser's error, the option at fault, and ArgumentParser's message.
struct UsageErrorTests {
    /// The error `parseAsRoot` throws for these arguments, as `start()` catches it.
    static func refusal<Command: ParsableCommand>(_ arguments: [String], as command: Command.Type = TribeBoardCommand.self) -> UsageError {
        do {
            _ = try command.parseAsRoot(arguments)
            Issue.record("accepted: \(arguments)")
            return UsageError(ValidationError("accepted"), command: command)
        } catch {
            return UsageError(error, command: command)
        }
    }

    /// The document `start()` prints, decoded; nil when it prints none.
    static func document<Command: ParsableCommand>(_ arguments: [String], as command: Command.Type = TribeBoardCommand.self) throws -> ErrorFieldsMirror? {
        let error: any Error
        do {
            _ = try command.parseAsRoot(arguments)
            return nil
        } catch let caught {
            error = caught
        }
        guard let document = command.usageDocument(for: error, arguments: arguments) else { return nil }
        return try Decoded.decode(ErrorDocumentMirror.self, fromText: try CommandContext.json(document)).error
    }

    @Test(arguments: [
        (["provision", "in.csv", "--no-such-option"], "usage.unknownOption", "--no-such-option"),
        (["provision", "in.csv", "-Z"], "usage.unknownOption", "-Z"),
        (["provision", "in.csv", "--out"], "usage.missingValue", "--out"),
        (["provision"], "usage.missingArgument", nil),
        (["provision", "in.csv", "--code-length", "abc"], "usage.invalidValue", "--code-length"),
        (["resync", "--max-duration", "soon"], "usage.invalidValue", "--max-duration"),
        (["resync", "extra"], "usage.unexpectedArgument", nil),
        (["provision", "in.csv", "--code-length", "5"], "usage.validation", nil),
        (["audit", "--apply"], "usage.validation", nil),
        (["resync", "--max-duration", "0"], "usage.validation", nil),
    ] as [([String], String, String?)])
    func eachShapeHasItsKind(arguments: [String], kind: String, option: String?) throws {
        let error = try #require(try Self.document(arguments + ["--json"]), "\(arguments)")
        #expect(error.kind == kind, "\(arguments): \(error)")
        #expect(error.option == option, "\(arguments): \(error)")
        #expect(error.exitStatus == 64 && error.status == "usage")
        // The message is ArgumentParser's first line: the one stderr shows after "tribeboard: error: ".
        let message = error.message
        #expect(!message.isEmpty && TribeBoardCommand.fullMessage(for: Self.refusal(arguments)).contains(message))
    }

    /// A family named by white space alone (a tab, a no-break space pasted from a message, a
    /// line break) names none: refused as usage, as an empty value is, by every command that
    /// takes a family.
    @Test(arguments: ["\t", "\u{00A0}", "\n\u{200B}"])
    func aFamilyOfWhiteSpaceAloneIsUsage(blank: String) throws {
        for arguments in [["doctor", "family", blank], ["recode", blank], ["remove", blank], ["adopt", blank],
                          ["merge", blank, "--into", "KEPT"], ["merge", "DUP", "--into", blank],
                          ["sheets", "--out", "x.pdf", "--family-id", blank],
                          ["sheets", "--out", "x.pdf", "--external-id", blank],
                          ["sheets", "--out", "x.pdf", "--code", blank]] {
            let error = try #require(try Self.document(arguments + ["--json"]), "\(arguments) accepted")
            #expect(error.kind == "usage.validation", "\(arguments): \(error)")
        }
    }

    /// A link named after a subcommand parses as that command at the root: same kinds.
    @Test func aSubcommandAtTheRootHasTheSameKinds() throws {
        let error = try #require(try Self.document(["in.csv", "--code-length", "abc", "--json"], as: ProvisionCommand.self))
        #expect(error.kind == "usage.invalidValue" && error.option == "--code-length")
        #expect(try Self.document(["--bogus", "--json"], as: ResyncCommand.self)?.kind == "usage.unknownOption")
    }

    /// Help, version and a refusal without `--json` (or with it after `--`, as a value) print none.
    @Test(arguments: [
        ["provision", "--help", "--json"], ["--version", "--json"], ["provision", "in.csv", "--bogus"],
        ["provision", "in.csv", "--bogus", "--", "--json"],
    ])
    func noDocumentUnlessAskedForAndRefused(arguments: [String]) throws {
        #expect(try Self.document(arguments) == nil, "\(arguments)")
    }

    @Test func anErrorOfAnotherShapeIsPlainUsage() {
        struct Other: Error {}
        let error = UsageError(Other(), command: TribeBoardCommand.self)
        #expect(error.kind == .usage && error.option == nil)
    }
}
