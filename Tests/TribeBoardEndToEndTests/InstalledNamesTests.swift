import Foundation
import Testing
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// What an installed toolkit answers: `--version` names the release and the commit the binaries
/// were built from, and the one-command names the package installs as links to `tribeboard`
/// (`tribeboard-provision` → `tribeboard`) run their subcommand.
@Suite struct InstalledNamesTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    static let executables = ["tribeboard", "tribeboard-provision", "tribeboard-resync", "tribeboard-audit",
                              "tribeboard-doctor", "tribeboard-migrate", "tribeboard-sheets", "tribeboard-cloudkit-emulator"]

    func gitCommit() throws -> String? {
        let git = try ProcessRunner.run("/usr/bin/git", ["-C", Self.packageRoot, "rev-parse", "--short=12", "HEAD"])
        return git.status == 0 ? git.stdout.trimmingCharacters(in: .whitespacesAndNewlines) : nil
    }

    @Test(arguments: executables) func versionNamesTheReleaseAndTheCommit(executable: String) throws {
        let release = try String(contentsOfFile: "\(Self.packageRoot)/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try ProcessRunner.run(ProcessRunner.executable(executable), ["--version"])
        #expect(result.status == 0, "\(result.stderr)")
        let commit = try gitCommit() ?? "unknown"
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "\(release) (commit \(commit))")
    }

    /// A link in a temporary folder, named as the package installs it.
    func link(_ name: String, in directory: TemporaryDirectory) throws -> String {
        let path = directory.file(name)
        try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: ProcessRunner.executable("tribeboard"))
        return path
    }

    @Test func aLinkNamedAfterASubcommandRunsIt() throws {
        let directory = try TemporaryDirectory("installed-link")
        _ = try directory.write("in.csv", CSVFixtures.families(count: 3))
        let provision = try link("tribeboard-provision", in: directory)
        let result = try ProcessRunner.run(provision, ["in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory.path)
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try result.report(ProvisionReportMirror.self)
        #expect(summary.created == 3, "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: directory.file("out/manifest.csv")))
    }

    /// With --json, a refused command line is one error document on every executable and every
    /// installed name (docs/errors.md, "Errors as JSON"); help and version stay what they were.
    @Test func aRefusedCommandLineIsOneDocumentUnderEveryName() throws {
        let directory = try TemporaryDirectory("installed-usage")
        // With what each needs besides (a missing argument is reported first).
        let subcommands = [("provision", ["in.csv"]), ("resync", []), ("audit", []), ("doctor", []), ("migrate", []), ("sheets", ["--out", "x.pdf"])]
        var runs: [(String, [String])] = subcommands.map { (ProcessRunner.executable("tribeboard"), [$0.0] + $0.1) }
        runs += subcommands.map { (ProcessRunner.executable("tribeboard-\($0.0)"), $0.1) }
        runs += try subcommands.map { (try link("tribeboard-\($0.0)", in: directory), $0.1) }
        for (path, prefix) in runs {
            let result = try ProcessRunner.run(path, prefix + ["--no-such-option", "--json"], in: directory.path)
            #expect(result.status == 64, "\(path) \(prefix): \(result.stderr)")
            let error = try ErrorDocument(result)
            #expect(error.kind == "usage.unknownOption" && error.option == "--no-such-option", "\(path) \(prefix): \(error.kind)")
            #expect(result.stderr.hasPrefix("tribeboard: error: ") && result.stderr.contains("Usage:"), "stderr keeps the usage: \(result.stderr)")
            let help = try ProcessRunner.run(path, prefix + ["--help", "--json"], in: directory.path)
            #expect(help.status == 0 && !help.stdout.hasPrefix("{"), "\(path) \(prefix): \(help.stdout)")
        }
        // Without --json (or with it only after `--`), stdout stays empty.
        let plain = try ProcessRunner.run(ProcessRunner.executable("tribeboard-provision"), ["in.csv", "--code-length", "5", "--", "--json"])
        #expect(plain.status == 64 && plain.stdout.isEmpty, "\(plain.stdout)")
    }

    /// The package's completions come from `--generate-completion-script SHELL`: the shell's name
    /// is the option's value, not an unknown subcommand (the Debian package build broke on it).
    @Test(arguments: ["bash", "zsh", "fish"])
    func completionScriptsAreGenerated(shell: String) throws {
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"), ["--generate-completion-script", shell])
        #expect(result.status == 0 && result.stdout.contains("tribeboard") && result.stderr.isEmpty, "\(result.stderr)")
    }

    /// The cause is the subcommand that does not exist, not `--json` or `-q` after it (which only
    /// subcommands have).
    @Test(arguments: [["frobnicate", "--json"], ["--json", "frobnicate"], ["frobnicate", "-q", "--json"], ["frobnicate"]])
    func anUnknownSubcommandIsNamedAsSuch(arguments: [String]) throws {
        let result = try ProcessRunner.run(ProcessRunner.executable("tribeboard"), arguments)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasPrefix("tribeboard: error: unknown subcommand 'frobnicate'") && result.stderr.contains("provision, resync"), "\(result.stderr)")
        #expect(result.stderr.contains("Usage:"))
        if arguments.contains("--json") {
            let error = try ErrorDocument(result)
            #expect(error.kind == "usage.unknownSubcommand" && error.option == nil, "\(error)")
            #expect(error.message.contains("'frobnicate'"))
        } else {
            #expect(result.stdout.isEmpty)
        }
    }

    @Test func aLinkWithAnotherNameIsTheWholeTool() throws {
        let directory = try TemporaryDirectory("installed-other")
        let other = try link("tribeboard-nonesuch", in: directory)
        // Not a subcommand's name: the root command, which wants a subcommand (usage, 64).
        #expect(try ProcessRunner.run(other, ["nonesuch"]).status == 64)
        #expect(try ProcessRunner.run(other, ["provision", "--help"]).status == 0)
    }
}
