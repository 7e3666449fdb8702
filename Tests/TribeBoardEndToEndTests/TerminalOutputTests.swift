import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardTestSupport

/// What a person reads on a terminal (script(1) gives the run one, stdout and stderr together):
/// each failure once, whether the progress display, the log or the summary would say it, and one
/// prefix on every error line, usage errors included, whatever name the toolkit runs under.
@Suite struct TerminalOutputTests {
    let tribeboard = ProcessRunner.executable("tribeboard")
    static let closedPort = "http://127.0.0.1:9"

    /// The lines a terminal shows: a line redrawn in place (the progress bar) counts as what is
    /// left of it; colours are kept unless `plain`.
    static func screen(_ output: String, plain: Bool = true) -> [String] {
        // "\r\n" is one Character to Swift: made "\n" first, what is left of "\r" is a redraw.
        output.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false).map { raw -> String in
            var line = String(raw)
            if let last = line.split(separator: "\r", omittingEmptySubsequences: false).last { line = String(last) }
            line = line.replacingOccurrences(of: "\u{1B}[2K", with: "")
            return plain ? line.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression) : line
        }.filter { !$0.isEmpty }
    }

    static func onTerminal(_ command: String, in directory: TemporaryDirectory,
                           environment: [String: String] = [:]) async throws -> (status: Int32, lines: [String], raw: String) {
        let result = try await ProcessRunner.runAsync("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"],
                                                      in: directory.path, environment: environment)
        return (result.status, screen(result.stdout), result.stdout)
    }

    static func count(_ text: String, in lines: [String]) -> Int {
        lines.filter { $0.contains(text) }.count
    }

    static let badRows = "family_name,external_id\nSmith,E1\nX,E2\nJones,E3\n,E4\n"

    @Test func aFailedRowIsShownOnceOnATerminal() async throws {
        let directory = try TemporaryDirectory("terminal-rows")
        _ = try directory.write("in.csv", Self.badRows)
        let run = try await Self.onTerminal("\(tribeboard) provision in.csv --store s.sqlite --out out", in: directory)
        #expect(run.status == 1, "\(run.lines)")
        #expect(Self.count("family_name: is empty", in: run.lines) == 1, "\(run.lines)")
        #expect(Self.count("has 1 character", in: run.lines) == 1, "\(run.lines)")
        #expect(run.lines.contains("  line 5 (E4): family_name: is empty"), "the summary lists it: \(run.lines)")
        // The summary in a file: the terminal keeps the failures as they happen, once, and the file once.
        let redirected = try await Self.onTerminal("\(tribeboard) provision in.csv --store s2.sqlite --out out2 > report.txt", in: directory)
        #expect(redirected.status == 1)
        #expect(Self.count("family_name: is empty", in: redirected.lines) == 1, "\(redirected.lines)")
        // The spreadsheet row is logged beside the line (the same here: no field spans lines).
        #expect(redirected.lines.contains("tribeboard: warning: row failed error=family_name: is empty line=5 row=5"), "\(redirected.lines)")
        let report = try String(contentsOfFile: directory.file("report.txt"), encoding: .utf8)
        #expect(Self.count("family_name: is empty", in: Self.screen(report)) == 1, "\(report)")
    }

    @Test func whyCloudKitStoppedIsShownOnce() async throws {
        let directory = try TemporaryDirectory("terminal-down")
        _ = try directory.write("in.csv", "family_name,external_id\nSmith,E1\nJones,E2\n")
        let key = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", directory.file("key.pem")])
        #expect(key.status == 0, "\(key.stderr)")
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: directory.file("key.pem"))
        let remote = "--key-id k --key-file key.pem --ck-base-url \(Self.closedPort)"
        let provision = try await Self.onTerminal("\(tribeboard) provision in.csv --store s.sqlite --out out \(remote)", in: directory)
        #expect(provision.status == 75, "\(provision.lines)")
        #expect(Self.count("connection refused", in: provision.lines) == 1, "\(provision.lines)")
        let resync = try await Self.onTerminal("\(tribeboard) resync --store s.sqlite --max-duration 10 \(remote)", in: directory)
        #expect(resync.status == 75, "\(resync.lines)")
        #expect(Self.count("connection refused", in: resync.lines) == 1, "\(resync.lines)")
        #expect(resync.lines.contains { $0.contains("error: resync stopped: ") && $0.contains("connection refused") },
                "in the error block: \(resync.lines)")
    }

    @Test func anAuthenticationFailureIsShownOnce() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("terminal-auth")
        _ = try directory.write("in.csv", "family_name,external_id\nSmith,E1\nJones,E2\n")
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(provisioned.status == 0, "\(provisioned.stderr)")
        var arguments = fixture.remoteArguments
        arguments[1] = "unknown-key"
        let resync = try await Self.onTerminal(([tribeboard, "resync", "--store", "s.sqlite"] + arguments).joined(separator: " "), in: directory)
        #expect(resync.status == 78, "\(resync.lines)")
        #expect(Self.count("AUTHENTICATION_FAILED", in: resync.lines) == 1, "\(resync.lines)")
    }

    /// Text printed cut (--allow-cut) is named by the summary; the warning that points at it is
    /// for a log, not for the terminal that shows the summary.
    @Test func aCutIsNamedOnceOnATerminal() async throws {
        let directory = try TemporaryDirectory("terminal-cut")
        _ = try directory.write("in.csv", "family_name,external_id\nSmith,E1\nJones,E2\n")
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out"], in: directory.path)
        #expect(provisioned.status == 0, "\(provisioned.stderr)")
        _ = try directory.write("long.txt", "organisation: School\n---\n" + Array(repeating: "word", count: 3_000).joined(separator: " ") + "\n")
        let sheets = "\(tribeboard) sheets --store s.sqlite --out cards.pdf --template long.txt --allow-cut"
        let terminal = try await Self.onTerminal(sheets, in: directory)
        #expect(terminal.status == 0, "\(terminal.lines)")
        #expect(Self.count("--allow-cut", in: terminal.lines) == 1, "\(terminal.lines)")
        #expect(terminal.lines.contains { $0.hasPrefix("2 cards printed with text cut (--allow-cut): ") }, "\(terminal.lines)")
        let logged = try await Self.onTerminal(sheets + " > report.txt", in: directory)
        #expect(logged.lines == ["tribeboard: warning: printed cut (--allow-cut): text that does not fit on 2 invitations (the report names them)"],
                "\(logged.lines)")
    }

    /// The names the toolkit runs under: the executable with a subcommand, a one-command
    /// executable, and a link named as the package installs it.
    static func invocations(in directory: TemporaryDirectory) throws -> [[String]] {
        let link = directory.file("tribeboard-audit")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: ProcessRunner.executable("tribeboard"))
        return [[ProcessRunner.executable("tribeboard"), "provision", "in.csv"], [ProcessRunner.executable("tribeboard-provision"), "in.csv"], [link]]
    }

    /// A refused command line (64) and a failed run (66) start alike: `tribeboard: error: `, on a
    /// terminal (the level in red, as every log line) and with stderr redirected.
    @Test func oneErrorPrefixEverywhere() async throws {
        let directory = try TemporaryDirectory("terminal-prefix")
        for invocation in try Self.invocations(in: directory) {
            let usage = try ProcessRunner.run(invocation[0], Array(invocation.dropFirst()) + ["--bogus"], in: directory.path)
            #expect(usage.status == 64)
            let lines = usage.stderr.split(separator: "\n").map(String.init)
            #expect(lines.first == "tribeboard: error: Unknown option '--bogus'. Did you mean '--out'?", "\(invocation): \(usage.stderr)")
            #expect(!lines.contains { $0.hasPrefix("Error") }, "\(usage.stderr)")
            // Colour unless NO_COLOR, which the test runner may set: unset for this run.
            let command = (["/usr/bin/env", "-u", "NO_COLOR"] + invocation + ["--bogus"]).joined(separator: " ")
            let terminal = try await ProcessRunner.runAsync("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: directory.path)
            #expect(terminal.status == 64)
            #expect(Self.screen(terminal.stdout, plain: false).first
                    == "tribeboard: \u{1B}[31merror\u{1B}[0m: Unknown option '--bogus'. Did you mean '--out'?", "\(terminal.stdout)")
        }
        // The emulator, a tool of the package too.
        let emulator = try ProcessRunner.run(ProcessRunner.executable("tribeboard-cloudkit-emulator"), ["--bogus"], in: directory.path)
        #expect(emulator.status == 64)
        #expect(emulator.stderr.split(separator: "\n").first == "tribeboard-cloudkit-emulator: error: Unknown option '--bogus'",
                "a program of its own, under its own name: \(emulator.stderr)")
        let missing = try ProcessRunner.run(tribeboard, ["provision", "missing.csv", "--store", "s.sqlite"], in: directory.path)
        #expect(missing.status == 66)
        #expect(missing.stderr == "tribeboard: error: cannot open missing.csv: no such file\n", "\(missing.stderr)")
        let unknown = try ProcessRunner.run(tribeboard, ["frobnicate"], in: directory.path)
        #expect(unknown.status == 64)
        #expect(unknown.stderr.hasPrefix("tribeboard: error: unknown subcommand 'frobnicate'; the subcommands are "), "\(unknown.stderr)")
        let validation = try await Self.onTerminal("\(tribeboard) provision in.csv --code-length 5", in: directory, environment: ["NO_COLOR": "1"])
        #expect(validation.status == 64)
        #expect(validation.lines.first == "tribeboard: error: --code-length must be 6, 7 or 8.", "\(validation.lines)")
    }
}
