import Foundation
import Testing
@testable import TribeBoardCommands

/// Every place a command must be named besides its own files (ARCHITECTURE.md, "A new command"):
/// a command registered in `TribeBoardCommand` but missing from any of them fails here, by name.
/// Its page, its exit tables and its `--help` are checked by `CommandParsingTests` and
/// `ExitStatusSourceTests`; the did-you-mean catalogue is the registration itself.
struct NewCommandPlacesTests {
    /// The top-level subcommands, as `tribeboard --help` lists them.
    static var names: [String] {
        TribeBoardCommand.configuration.subcommands.compactMap { $0.configuration.commandName }
    }

    static func text(_ relativePath: String) throws -> String {
        try String(contentsOf: ReadmeTables.root.appendingPathComponent(relativePath), encoding: .utf8)
    }

    static func lines(_ relativePath: String) throws -> [Substring] {
        try text(relativePath).split(separator: "\n", omittingEmptySubsequences: false)
    }

    @Test func theReadmeHasARowAndADocumentationLinkForEveryCommand() throws {
        let readme = try Self.lines("README.md")
        #expect(Self.names.count >= 10)
        for name in Self.names {
            #expect(readme.contains { $0.hasPrefix("| [`tribeboard \(name)`](docs/\(name).md) |") },
                    "README's command table has no row for \(name)")
            #expect(readme.contains { $0.hasPrefix("- ") && $0.contains("](docs/\(name).md)") },
                    "README's documentation list does not link docs/\(name).md")
        }
    }

    /// The other way round: every command the README's table lists is registered, so that a
    /// command written and documented but left out of `subcommands` (no `--help` entry, no
    /// did-you-mean, nothing to run) fails here.
    @Test func everyCommandTheReadmeListsIsRegistered() throws {
        let prefix = "| [`tribeboard "
        let listed = try Self.lines("README.md").filter { $0.hasPrefix(prefix) }
            .compactMap { $0.dropFirst(prefix.count).split(separator: "`").first.map(String.init) }
        #expect(listed.count >= 10)
        #expect(Set(listed) == Set(Self.names), "listed, not registered: \(Set(listed).subtracting(Self.names).sorted())")
    }

    /// docs/errors.md opens with a link to each command's exit statuses.
    @Test func theErrorsPageLinksEveryCommandsExitStatuses() throws {
        let page = try Self.text("docs/errors.md")
        let title = try #require(page.range(of: "\n# "))
        let opening = page[title.upperBound...].components(separatedBy: "\n\n").dropFirst().first ?? ""
        for name in Self.names {
            #expect(opening.contains("(\(name).md#exit-status)"), "docs/errors.md's first paragraph does not link \(name)")
        }
    }

    /// The tests read each command's `--json` through a typed mirror (`NAMEReportMirror`), so that
    /// a renamed or dropped key fails to decode; each in a file of its own, named after it.
    @Test func everyCommandHasAReportMirror() throws {
        for name in Self.names {
            let type = name.prefix(1).uppercased() + name.dropFirst() + "ReportMirror"
            let file = "Sources/TribeBoardReportMirrors/\(type).swift"
            #expect((try? Self.text(file))?.contains("struct \(type): Decodable") == true, "no \(type) in \(file)")
        }
    }

    /// Every module under Sources/ is in ARCHITECTURE.md's modules table (or its Files list) and
    /// has a unit test target named after it; the test support modules are the tests' own.
    @Test func everyModuleIsInTheArchitectureAndHasItsTests() throws {
        let testedElsewhere: Set = ["TribeBoardCommands", "TribeBoardVersion"]
        let testSupport: Set = ["TribeBoardTestSupport", "TribeBoardReportMirrors", "TribeBoardCloudFixtures",
                                "TribeBoardStoreFixtures", "TribeBoardProjectFixtures"]
        let architecture = try Self.text("ARCHITECTURE.md")
        let sources = ReadmeTables.root.appendingPathComponent("Sources").path
        let modules = try FileManager.default.contentsOfDirectory(atPath: sources).filter { $0.hasPrefix("TribeBoard") }
        #expect(modules.count >= 20)
        #expect(testSupport.isSubset(of: modules), "a test support module listed here is gone")
        let tests = Set(try FileManager.default.contentsOfDirectory(atPath: ReadmeTables.root.appendingPathComponent("Tests").path))
        for module in modules {
            #expect(architecture.contains("`\(module)`") || architecture.contains("Sources/\(module)"),
                    "ARCHITECTURE.md does not name \(module)")
            guard !testedElsewhere.contains(module) && !testSupport.contains(module) else { continue }
            #expect(tests.contains(module + "Tests"), "\(module) has no unit test target Tests/\(module)Tests")
        }
    }
}
