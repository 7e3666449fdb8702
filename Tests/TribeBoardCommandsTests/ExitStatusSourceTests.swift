import ArgumentParser
import Foundation
import Testing
@testable import TribeBoardCommands
import TribeBoardAudit
import TribeBoardCloudKit
import TribeBoardMigrate
import TribeBoardQR
import TribeBoardSheets

/// One source for exit statuses: `ErrorKind.rule` and each command's `CommandExits`.
/// The lists compared here come from the code (the subcommand tree, `ExitStatus.allCases`, the
/// kind table) and from the docs, never from the test.
struct ExitStatusSourceTests {
    /// Each top-level subcommand with every declaration in its tree (`doctor` and `doctor family`).
    static func declaredExits() -> [(name: String, exits: [CommandExits], commands: [any ParsableCommand.Type])] {
        TribeBoardCommand.configuration.subcommands.map { top in
            var pending: [any ParsableCommand.Type] = [top]
            var seen: [any ParsableCommand.Type] = []
            while let command = pending.popLast() {
                seen.append(command)
                pending += command.configuration.subcommands
            }
            let exits = seen.compactMap { ($0 as? any DeclaresExits.Type)?.exits }
            return (top.configuration.commandName ?? "?", exits, seen)
        }
    }

    /// The statuses a command can end with are the ones its page of docs/ lists, no more, no fewer.
    @Test func eachCommandReturnsWhatItsPageLists() throws {
        let commands = Self.declaredExits()
        #expect(commands.count >= 6, "every subcommand: \(commands.map(\.name))")
        for command in commands {
            #expect(!command.exits.isEmpty, "\(command.name) declares no exit statuses")
            let returned = command.exits.reduce(into: Set<Int32>()) { $0.formUnion($1.statuses.map(\.rawValue)) }
            let documented = try ReadmeTables.exitStatuses(in: ReadmeTables.page("\(command.name).md"))
            #expect(returned == documented, "\(command.name): the code returns \(returned.sorted()), docs/\(command.name).md lists \(documented.sorted())")
        }
    }

    /// `--help` lists exactly the statuses the command can end with, in the words of its declaration.
    @Test func eachHelpListsWhatTheCommandReturns() {
        for command in Self.declaredExits() {
            for type in command.commands {
                let help = type.helpMessage(columns: 10_000)
                guard let exits = (type as? any DeclaresExits.Type)?.exits else {
                    // `migrate legacy-types` and `container`: "as `tribeboard migrate`".
                    #expect(help.contains("Exit status as `tribeboard migrate`"), "\(type) says nothing of its exit statuses")
                    continue
                }
                #expect(Set(exits.meanings.map(\.key)) == exits.statuses, "\(type): help lists \(exits.meanings.map(\.key.rawValue)), code returns \(exits.statuses.map(\.rawValue).sorted())")
                #expect(help.contains(exits.help), "\(type): \(help)")
            }
        }
    }

    /// The status column of docs/errors.md is the kind table, with each command's override named.
    @Test func theKindsTableOfTheDocsIsTheCodes() throws {
        let documented = try ReadmeTables.errorKindStatuses()
        let kinds = Set(ErrorKind.allCases.map(\.rawValue))
        #expect(Set(documented.keys) == kinds, "kinds: docs \(Set(documented.keys).symmetricDifference(kinds).sorted())")
        let exits = Self.declaredExits().flatMap(\.exits)
        for kind in ErrorKind.allCases {
            let overridden = exits.compactMap { $0.overrides[kind] }
            let expected = Set(kind.rule.possible.map(\.rawValue) + overridden.map(\.rawValue))
            #expect(documented[kind.rawValue] == expected, "\(kind.rawValue): docs say \(documented[kind.rawValue] ?? [])")
        }
    }

    /// Every error the commands can meet ends with a status its kind's rule allows.
    @Test func everyKindHasAStatus() {
        for error in ErrorKindCatalogue.samples {
            let detail = ErrorDetail.of(error)
            #expect(detail.kind.rule.possible.contains(detail.kindStatus), "\(detail.kind)")
        }
    }

    /// CloudKit's errors end with 78 exactly when no retry changes them, as before the table.
    @Test func cloudKitsStatusFollowsItsCategory() {
        let errors = ErrorKindCatalogue.samples.compactMap { $0 as? CloudKitError } + [
            .service(code: .throttled, httpStatus: 503, reason: "r", retryAfter: nil), .unexpectedResponse(httpStatus: 302, detail: "d"),
            .gaveUp(attempts: 3, last: .service(code: .quotaExceeded, httpStatus: 503, reason: "r", retryAfter: nil)),
        ]
        for error in errors {
            let expected: ExitStatus = error.category == .configuration ? .remoteConfiguration : .remoteUnavailable
            #expect(AuditCommand.exits.status(of: AuditError.remote(error)) == expected, "\(error)")
            #expect(MigrateCommand.exits.status(of: MigrationError.remote(error)) == expected, "\(error)")
        }
    }

    /// A logo that does not exist is 66 (no input), one that cannot be used 65: from the typed
    /// case, no longer from the words of its message.
    @Test func aMissingLogoIsNoInputFromItsCase() {
        #expect(SheetsCommand.exits.status(of: SheetError.template(.logoMissing(path: "l.png"))) == .noInput)
        #expect(SheetsCommand.exits.status(of: SheetError.template(.logo(path: "l.png", reason: "no such file"))) == .dataError)
        #expect(SheetsCommand.exits.status(of: SheetError.input(.rendering(SheetError.template(.logoMissing(path: "l"))))) == .noInput)
        #expect(SheetTemplateError.logoMissing(path: "l.png").localizedDescription == "the template's logo l.png: no such file")
    }

    /// The overrides: what a command documents differently for the same kind.
    @Test func overridesAreTheCommands() {
        #expect(ProvisionCommand.exits.status(of: CommandError.remoteNeeded(by: .sync)) == .usage)
        #expect(ResyncCommand.exits.status(of: CommandError.remoteNeeded(by: .resync)) == .remoteConfiguration)
        #expect(MigrateCommand.exits.status(of: MigrationError.qrCode(.pngEncodingFailed(reason: "disk"))) == .ioError)
        #expect(SheetsCommand.exits.status(of: SheetError.qr(.pngEncodingFailed(reason: "disk"))) == .dataError)
        #expect(SheetsCommand.exits.status(of: SheetError.cannotCreate(path: "p", reason: "r")) == .cannotCreate)
    }
}

extension ReadmeTables {
    /// The numbers in the status column of the kinds table of docs/errors.md, by kind
    /// (`78 (64 for provision --sync)` is 78 and 64).
    static func errorKindStatuses() throws -> [String: Set<Int32>] {
        let lines = try String(contentsOfFile: page("errors.md"), encoding: .utf8).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        guard let start = lines.firstIndex(of: "## Errors as JSON") else { return [:] }
        var statuses: [String: Set<Int32>] = [:]
        for line in lines[(start + 1)...] {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count > 2 else { continue }
            let kind = cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            let numbers = cells[2].split { !$0.isNumber }.compactMap { Int32($0) }
            statuses[kind] = Set(numbers)
        }
        return statuses
    }
}
