import Foundation
import Testing
import TribeBoardTestSupport

/// What a command was asked to print and could not (`> /dev/full`, a reader that hung up, a
/// stdout closed at the start) is a failed run: never exit 0, and stderr says why.
@Suite struct StandardOutputTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// A store with families, so that every report has lines to write.
    func provisioned() throws -> TemporaryDirectory {
        let directory = try TemporaryDirectory("stdout")
        try directory.write("in.csv", CSVFixtures.families(count: 40))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(result.status == 0, "\(result.stderr)")
        return directory
    }

    /// Runs `arguments` with stdout redirected by the shell as `redirection` says.
    func run(_ arguments: [String], stdout redirection: String, in directory: TemporaryDirectory) throws -> ProcessRunner.Result {
        try ProcessRunner.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", tribeboard] + arguments, in: directory.path)
    }

    static let commands: [[String]] = [
        ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"],
        ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"],
        ["audit", "--store", "s.sqlite", "--local-only", "--csv", "--fail-on", "none"],
        ["audit", "--store", "s.sqlite", "--local-only", "--json", "--fail-on", "none"],
        ["resync", "--store", "s.sqlite", "--list"],
        ["doctor", "--store", "s.sqlite", "--json"],
        ["--help"], ["provision", "--help"], ["--version"],
    ]

    @Test(arguments: commands) func aFullDiskEnds74(arguments: [String]) throws {
        let directory = try provisioned()
        let result = try run(arguments, stdout: "> /dev/full", in: directory)
        // doctor may end 1 on its own findings; what matters is that the lost report is never 0 or 1.
        #expect(result.status == 74, "\(result.stderr)")
        #expect(result.stderr.contains("cannot write to standard output: No space left on device"), "\(result.stderr)")
    }

    @Test func theSameCommandsEnd0WhenStdoutTakesEverything() throws {
        let directory = try provisioned()
        for arguments in Self.commands where arguments.first != "doctor" {
            let result = try run(arguments, stdout: "> /dev/null", in: directory)
            #expect(result.status == 0, "\(arguments): \(result.stderr)")
        }
    }

    @Test func aReaderThatHungUpEnds74AndTheRunIsNotKilledBySIGPIPE() throws {
        let directory = try provisioned()
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        close(ends[0])  // nobody will ever read
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tribeboard)
        process.arguments = ["audit", "--store", "s.sqlite", "--local-only", "--csv", "--fail-on", "none"]
        process.currentDirectoryURL = URL(fileURLWithPath: directory.path)
        process.standardOutput = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit, "killed by a signal")
        #expect(process.terminationStatus == 74)
    }

    @Test func aClosedStdoutFailsOnlyWhenThereIsSomethingToWrite() throws {
        let directory = try provisioned()
        let printing = try run(["audit", "--store", "s.sqlite", "--local-only", "--fail-on", "none"], stdout: ">&-", in: directory)
        #expect(printing.status == 74, "\(printing.stderr)")
        #expect(printing.stderr.contains("cannot write to standard output"))
        let quiet = try run(["audit", "--store", "s.sqlite", "--local-only", "--fail-on", "none", "-q"], stdout: ">&-", in: directory)
        #expect(quiet.status == 0, "\(quiet.stderr)")
        // The store the run opened did not become its stdout.
        #expect(try StoreInspector(path: directory.file("s.sqlite")).rows("SELECT count(*) AS n FROM families").first?["n"] == "40")
    }

    @Test func aRunThatAlreadyFailedKeepsItsOwnStatus() throws {
        let directory = try provisioned()
        // 66: the snapshot does not exist; the lost error document does not turn it into 74.
        let result = try run(["audit", "--store", "s.sqlite", "--remote-snapshot", "missing.jsonl", "--json"], stdout: "> /dev/full", in: directory)
        #expect(result.status == 66, "\(result.stderr)")
    }
}
