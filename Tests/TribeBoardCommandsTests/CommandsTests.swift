import ArgumentParser
import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport
@testable import TribeBoardCommands
@testable import TribeBoardProvisioning

/// The commands in-process: what they accept, what they refuse with 64, and how what happened
/// maps to an exit status, checked against the tables of the README and docs/ (what users read).
struct CommandParsingTests {
    static func usageStatus(_ arguments: [String]) -> Int32? {
        do {
            _ = try TribeBoardCommand.parseAsRoot(arguments)
            return nil
        } catch {
            return TribeBoardCommand.exitCode(for: error).rawValue
        }
    }

    @Test(arguments: [
        ["provision", "in.csv", "--code-length", "5"],
        ["provision", "in.csv", "--qr-scale", "0"],
        ["provision", "in.csv", "--quiet", "--verbose"],
        ["provision", "in.csv", "--no-such-option"],
        ["resync", "--max-duration", "0"],
        ["resync", "--max-duration", "86401"],
        ["audit", "--apply"],
        ["frobnicate"],
    ])
    func refusedBeforeAnythingRuns(arguments: [String]) {
        #expect(Self.usageStatus(arguments) == ExitStatus.usage.rawValue, "\(arguments)")
    }

    @Test(arguments: [
        ["provision", "in.csv", "--code-length", "8", "--qr-scale", "64", "--out", "o"],
        ["resync", "--max-duration", "86400", "--json"],
        ["audit", "--repair", "--apply", "--out", "o"],
        ["doctor", "--project", "p", "--target", "App"],
        ["doctor", "family", "HJK4MN"],
    ])
    func accepted(arguments: [String]) {
        #expect(Self.usageStatus(arguments) == nil, "\(arguments)")
    }

    /// Each subcommand has its page in `docs/`, titled with its name, and the README links to it.
    @Test func subcommandsAreTheOnesTheReadmeDocuments() throws {
        let names = TribeBoardCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
        #expect(names.count >= 6, "every subcommand: \(names)")
        let readme = try String(contentsOfFile: ReadmeTables.path, encoding: .utf8)
        for name in names {
            #expect(readme.contains("](docs/\(name).md)"), "README does not link docs/\(name).md")
            let page = try String(contentsOfFile: ReadmeTables.page("\(name).md"), encoding: .utf8)
            #expect(page.split(whereSeparator: \.isNewline).contains { $0 == "# \(name)" }, "docs/\(name).md is not titled \(name)")
        }
    }

    /// A line ending in `\\` inside a multi-line literal is a literal backslash, not a join: it
    /// showed in `--help` as "record of the \" mid-sentence.
    @Test func helpTextsHaveNoStrayLineContinuations() {
        var pending: [any ParsableCommand.Type] = [TribeBoardCommand.self]
        var seen = 0
        while let command = pending.popLast() {
            seen += 1
            let help = command.helpMessage(columns: 200)
            #expect(!help.contains("\\\n") && !help.hasSuffix("\\"), "\(command): \(help)")
            pending += command.configuration.subcommands
        }
        #expect(seen >= 9, "every subcommand was visited")
    }
}

struct ExitStatusMappingTests {
    static func report(_ change: (inout ProvisionReport) -> Void) -> ProvisionReport {
        var report = ProvisionReport(dryRun: false, csv: "in.csv", store: "s.sqlite")
        change(&report)
        return report
    }

    @Test func provisionStatusesFromWhatHappened() {
        #expect(ProvisionOutcome(Self.report { _ in }) == nil)
        #expect(ProvisionOutcome(Self.report { $0.failed = 1 })?.status == .partialFailure)
        #expect(ProvisionOutcome(Self.report { $0.remote = .init(failure: .network(reason: "down")) })?.status == .remoteUnavailable)
        #expect(ProvisionOutcome(Self.report { $0.remote = .init(failure: .schema(.missingType("Family"), reason: "x")) })?.status
                == .remoteConfiguration)
        // The most serious wins: PNGs not written beat a remote that stopped, which beats failed rows.
        #expect(ProvisionOutcome(Self.report { $0.failed = 3; $0.remote = .init(failure: .outOfTime) })?.status == .remoteUnavailable)
        #expect(ProvisionOutcome(Self.report { $0.qrWriteFailures = 1; $0.remote = .init(failure: .outOfTime) })?.status == .ioError)
        let exits = ProvisionCommand.exits
        #expect(exits.status(of: ProvisionError.input(.cannotOpen(path: "x", reason: "gone"))) == .noInput)
        #expect(exits.status(of: ProvisionError.input(.invalidUTF8(line: 2))) == .dataError)
        #expect(exits.status(of: ProvisionError.store(.busy(path: "s", holders: []))) == .ioError)
    }

    @Test func resyncStatusesFromHowTheRunEnded() {
        #expect(ResyncOutcome.uploads(.success).status == .success)
        #expect(ResyncOutcome.uploads(.setAside).status == .partialFailure)
        #expect(ResyncOutcome.uploads(.tryLater).status == .remoteUnavailable)
        #expect(ResyncOutcome.uploads(.configuration).status == .remoteConfiguration)
        #expect(ResyncOutcome.metricsNotWritten.status == .ioError)
    }

    /// Every status is in some table of docs/, and the tables list no other.
    @Test func everyStatusIsDocumented() throws {
        let documented = try ReadmeTables.exitStatuses()
        #expect(documented == Set(ExitStatus.allCases.map(\.rawValue)))
    }

    @Test func provisionReportJSONKeys() throws {
        let report = Self.report { $0.remote = .init(failure: .network(reason: "down")) }
        // Every key a script reads must be there: the mirror's non-optional fields fail to decode otherwise.
        let decoded = try Decoded.decode(ProvisionReportMirror.self, from: report)
        #expect(decoded.command == "provision" && decoded.csv == "in.csv" && decoded.store == "s.sqlite" && !decoded.dryRun)
        #expect(decoded.rows == 0 && decoded.failed == 0 && decoded.failures.isEmpty)
        #expect(decoded.remote?.errorKind == "network")
    }
}

/// The README and the pages of `docs/`, read as a user reads them.
enum ReadmeTables {
    static var root: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    static var path: String { root.appendingPathComponent("README.md").path }

    /// A page of `docs/` (one per command, `errors.md`, …).
    static func page(_ name: String) -> String { root.appendingPathComponent("docs").appendingPathComponent(name).path }

    /// The README and every page of `docs/`, where the commands' exit status tables live.
    static func documents() throws -> [String] {
        let docs = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("docs").path)
            .filter { $0.hasSuffix(".md") }.sorted().map(page)
        return [path] + docs
    }

    /// The first cell of every row of every `| status | meaning |` table.
    static func exitStatuses() throws -> Set<Int32> {
        try documents().reduce(into: Set<Int32>()) { $0.formUnion(try exitStatuses(in: $1)) }
    }

    /// The first cell of every row of the `| status | meaning |` tables of one document.
    static func exitStatuses(in document: String) throws -> Set<Int32> {
        var statuses = Set<Int32>()
        let lines = try String(contentsOfFile: document, encoding: .utf8).split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        var inTable = false
        for line in lines {
            if line == "| status | meaning |" { inTable = true; continue }
            guard inTable, line.hasPrefix("| ") else { inTable = false; continue }
            let cell = line.dropFirst(2).prefix { $0 != " " && $0 != "|" }
            if let status = Int32(cell) { statuses.insert(status) }
        }
        return statuses
    }
}
