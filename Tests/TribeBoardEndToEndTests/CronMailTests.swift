import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardCloudKit
import TribeBoardReportMirrors
import TribeBoardTestSupport

/// What cron mails: nothing made up from a mistyped path, one error block naming what was tried
/// and what to run next, and messages a person reads (no Swift values, real line numbers).
@Suite struct CronMailTests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    func run(_ arguments: [String], in directory: TemporaryDirectory, _ environment: [String: String] = [:]) async throws -> ProcessRunner.Result {
        try await ProcessRunner.runAsync(tribeboard, arguments, in: directory.path, environment: environment)
    }

    func provisioned(in directory: TemporaryDirectory) async throws {
        try directory.write("in.csv", "family_name,admin_display_name\nOkafor,Ada\n")
        let provision = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory)
        try #require(provision.status == 0, "\(provision.stderr)")
        #expect(try provision.report(ProvisionReportMirror.self).storeCreated == true, "a new store is said")
    }

    /// A typo in TRIBEBOARD_STORE: every command that reads a store refuses it (74) and leaves
    /// nothing behind; only provision creates one, and says so.
    @Test func aMissingStoreIsRefusedAndNeverMade() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("cron-missing")
        let remote = fixture.remoteArguments
        let commands: [[String]] = [
            ["resync"] + remote, ["resync", "--list"], ["resync", "--release", "X"], ["resync", "--reupload", "X"],
            ["audit"], ["audit"] + remote, ["recode", "X"], ["recode", "X", "--apply", "--out", "o"], ["sheets", "--out", "x.pdf"],
        ]
        for command in commands {
            let result = try await run(command + ["--store", "nothere.sqlite"], in: directory)
            #expect(result.status == 74, "\(command): \(result.status) \(result.stderr)")
            #expect(result.stderr.contains("nothere.sqlite") && result.stderr.contains("`echo family_name | tribeboard provision - --store nothere.sqlite`"),
                    "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("cannotOpen("), "no Swift value: \(result.stderr)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty, "\(command) left files behind")
        }
        try await provisioned(in: directory)
        let again = try await run(["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "--json"], in: directory)
        #expect(try again.report(ProvisionReportMirror.self).storeCreated == false)
    }

    /// CloudKit unreachable, from cron (stdout and stderr not terminals), with and without -q:
    /// the cause once, what was tried, and a next command that runs as printed.
    @Test func anUnreachableCloudKitIsOneErrorBlock() async throws {
        let directory = try TemporaryDirectory("cron-unreachable")
        try await provisioned(in: directory)
        _ = try ProcessRunner.run("/usr/bin/openssl", ["ecparam", "-name", "prime256v1", "-genkey", "-noout", "-out", directory.file("k.pem")])
        chmod(directory.file("k.pem"), 0o600)
        try directory.write("ck.conf", "key_id = KEY123\nkey_file = k.pem\nbase_url = http://127.0.0.1:1\n")
        for quiet in [false, true] {
            let result = try await run(["resync", "--store", "s.sqlite"] + (quiet ? ["-q"] : []), in: directory,
                                       ["TRIBEBOARD_CK_CONFIG": "ck.conf"])
            #expect(result.status == 75, "\(result.stderr)")
            let mail = result.stdout + result.stderr
            #expect(mail.components(separatedBy: "connection refused").count == 2, "the reason once (quiet: \(quiet)): \(mail)")
            #expect(!result.stderr.contains("warning:"), "\(result.stderr)")
            for label in ["store:", "container:", "endpoint:", "settings:", "key id:", "next:"] {
                #expect(result.stderr.contains("  \(label)"), "\(label) missing: \(result.stderr)")
            }
            #expect(result.stderr.contains("ck.conf") && result.stderr.contains("KEY123") && result.stderr.contains("127.0.0.1:1"))
            let next = try #require(Self.next(in: result.stderr))
            // From a shell without cron's TRIBEBOARD_CK_CONFIG: the command carries it.
            let doctor = try await AsPrinted.run(next + " --json", in: directory.path)
            let checks = try doctor.report(DoctorReportMirror.self).checks
            #expect(checks.contains { $0.id.hasPrefix("remote") && $0.status != "ok" }, "doctor reaches for the same remote: \(doctor.stdout)")
        }
    }

    /// The key CloudKit refuses is an error (78) naming the key id and the settings file.
    @Test func aRefusedKeyIsAnErrorNamingKeyAndFile() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("cron-refused")
        try await provisioned(in: directory)
        try directory.write("ck.conf", "key_id = NOT-REGISTERED\nkey_file = \(fixture.keyFile)\nbase_url = \(fixture.emulator.baseURL)\n")
        let result = try await run(["resync", "--store", "s.sqlite", "--ck-config", "ck.conf"], in: directory)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(!result.stderr.contains("warning:"), "an error, not a warning: \(result.stderr)")
        #expect(result.stderr.contains("error: resync stopped: CloudKit refused key id NOT-REGISTERED (from ck.conf)"), "\(result.stderr)")
        let next = try #require(Self.next(in: result.stderr))
        let doctor = try await AsPrinted.run(next, in: directory.path)
        #expect(doctor.status != 64, "the next command runs as printed: \(doctor.stderr)")
    }

    @Test func messagesAPersonReads() async throws {
        let directory = try TemporaryDirectory("cron-messages")
        let typo = try await run(["provison"], in: directory)
        #expect(typo.status == 64 && typo.stderr.contains("did you mean 'provision'?"), "\(typo.stderr)")
        let config = try await run(["resync", "--store", "s.sqlite", "--ck-config", "missing.conf"], in: directory)
        #expect(config.status == 78 && config.stderr.contains("missing.conf") && !config.stderr.contains(":0:"), "\(config.stderr)")
        try directory.write("bad.conf", "# settings\nkey_id = A\ncontainr = iCloud.x\n")
        let bad = try await run(["resync", "--store", "s.sqlite", "--ck-config", "bad.conf"], in: directory)
        #expect(bad.stderr.contains("bad.conf:3:"), "the real line: \(bad.stderr)")
        try await provisioned(in: directory)
        let offline = try await run(["resync", "--store", "s.sqlite"], in: directory)
        #expect(offline.status == 78 && offline.stderr.contains("--ck-config"), "\(offline.stderr)")
        let emulator = try ProcessRunner.run(ProcessRunner.executable("tribeboard-cloudkit-emulator"), ["--bogus"])
        #expect(emulator.stderr.hasPrefix("tribeboard-cloudkit-emulator: error: "), "\(emulator.stderr)")
    }

    static func next(in stderr: String) -> String? {
        stderr.split(separator: "\n").first { $0.hasPrefix("  next:") }
            .map { String($0.dropFirst("  next:".count)).trimmingCharacters(in: .whitespaces) }
    }

    /// A store whose folder is missing too: the printed way to make it makes the folder first, and
    /// runs as printed (provision alone stopped with "the folder … does not exist").
    @Test func theMissingStoreAdviceMakesItsFolderToo() async throws {
        let directory = try TemporaryDirectory("cron-missing-folder")
        let store = "no such/dir/-s.sqlite"
        let result = try await run(["audit", "--store=\(store)"], in: directory)
        #expect(result.status == 74, "\(result.stderr)")
        let make = try #require(result.stderr.split(separator: "`").map(String.init).first { $0.hasPrefix("mkdir -p ") }, "\(result.stderr)")
        let shell = try await ProcessRunner.runAsync("/bin/sh", ["-c", make], in: directory.path,
                                                     environment: ["PATH": ProcessRunner.productsDirectory + ":/usr/bin:/bin"])
        #expect(shell.status == 0, "\(make): \(shell.stderr)")
        let audit = try await run(["audit", "--store=\(store)"], in: directory)
        #expect(audit.status == 0, "the store is there: \(audit.stderr)")
    }
}
