import Foundation
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardProjectFixtures
import TribeBoardReportMirrors
import TribeBoardStoreFixtures
import TribeBoardTestSupport

/// `tribeboard doctor` as support staff run it: the real binary, its exit status, its text and JSON.
@Suite struct DoctorCLITests {
    let tribeboard = ProcessRunner.executable("tribeboard")

    /// A store provisioned with admins (signed in or invited): complete families waiting for sync (a warning).
    func provisionedStore(in directory: TemporaryDirectory) throws -> String {
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let result = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(result.status == 0, "\(result.stderr)")
        return directory.file("s.sqlite")
    }

    func json(_ result: ProcessRunner.Result) throws -> DoctorReportMirror {
        try result.report(DoctorReportMirror.self)
    }

    func checks(_ report: DoctorReportMirror) -> [String: DoctorCheckMirror] { report.byID }

    @Test func aCorrectProjectAndAHealthyStoreExitZeroWithWarningsOnly() throws {
        let directory = try TemporaryDirectory("doctor-cli-ok")
        let store = try provisionedStore(in: directory)
        let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", DoctorFixtures.project("correct"), "--json"])
        #expect(result.status == 0, "\(result.stdout)\n\(result.stderr)")
        let report = try json(result)
        let byID = checks(report)
        #expect(byID["container.swiftSources"]?.status == "ok", "\(byID.keys.sorted())")
        #expect(byID["remote.configuration"]?.status == "warning", "no remote configured")
        #expect(byID.values.allSatisfy { $0.status != "failure" }, "\(result.stdout)")
        let fallback = report.fallback
        #expect(fallback.mode == "localOnly" && fallback.reason == "noKey", "\(fallback)")
    }

    @Test func theJSONReportIsTheSameChecklistAsData() throws {
        let directory = try TemporaryDirectory("doctor-cli-json")
        let store = try provisionedStore(in: directory)
        let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", DoctorFixtures.project("wrong-identifier"), "--json"])
        #expect(result.status == 1)
        let report = try json(result)
        #expect(try result.report(JSONKeys.self).keys == ["store", "project", "checkedAt", "fallback", "summary", "passed", "checks"])
        #expect(report.passed == false)
        let fallback = report.fallback
        #expect(fallback.mode == "localOnly" && fallback.reason == "noKey")
        let summary = report.summary
        #expect(summary["failures"] == 1)
        let sources = try #require(checks(report)["container.swiftSources"])
        #expect(sources.status == "failure" && sources.section == "container")
        #expect(sources.found.contains("iCloud.com.tribeboard.TribeBoard"))
        let locations = try #require(sources.locations)
        #expect(locations.first?.path == "TribeBoard/CloudKitService.swift" && locations.first?.line == 6)
        // Every check's `checked` and `found` are strings: DoctorCheckMirror declares both non-optional.
        #expect(!report.checks.isEmpty)
    }

    @Test func everyFixtureNamesItsProblemAndNoneCrashes() throws {
        let directory = try TemporaryDirectory("doctor-cli-fixtures")
        let store = try provisionedStore(in: directory)
        // A failure names the target and the container the entitlements list (never iCloud.<bundle id> as a rule).
        for (fixture, named) in ["wrong-identifier": "[FAIL] TribeBoard: Container identifiers in Swift and Objective-C sources", "mismatched-entitlements": "(from the default)"] {
            let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", DoctorFixtures.project(fixture)])
            #expect(result.status == 1, "\(fixture): \(result.stderr)")
            let failure = result.stdout.split(separator: "\n").first { $0.contains("[FAIL]") } ?? ""
            for part in [named, "iCloud.com.tribeboard.TribeBoard", "iCloud.net.dataenvy.TribeBoard"] {
                #expect(failure.contains(part), "\(fixture): \(failure)")
            }
        }
        let missing = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", DoctorFixtures.project("missing-entitlements")])
        #expect(missing.status == 1)
        #expect(missing.stdout.contains("[FAIL] TribeBoard: Entitlements file (CODE_SIGN_ENTITLEMENTS): TribeBoard/TribeBoard.entitlements, named by CODE_SIGN_ENTITLEMENTS at TribeBoard.xcodeproj/project.pbxproj:80"))

        let garbage = try DoctorFixtures.randomBytesStore(in: directory)
        let truncated = try DoctorFixtures.truncatedStore(in: directory)
        for path in [garbage, truncated, directory.file("missing.sqlite"), directory.path] {
            let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", path, "--json"])
            #expect(result.status == 1, "\(path): \(result.stdout)\(result.stderr)")
            let store = checks(try json(result))
            #expect(store["store.file"]?.status == "failure" || store["store.open"]?.status == "failure",
                    "\(path): \(result.stdout)")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.file("missing.sqlite")))
    }

    @Test func aKilledCreationFailsWithItsCodeOnStdoutButNeverInTheLogs() throws {
        let directory = try TemporaryDirectory("doctor-cli-killed")
        let stuck = try DoctorFixtures.killedCreationStore(in: directory)
        let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", stuck.path, "-v", "--json"])
        #expect(result.status == 1)
        let incomplete = try #require(checks(try json(result))["creations.incomplete"], "\(result.stdout)")
        #expect(incomplete.status == "failure")
        let sample = incomplete.sample ?? []
        #expect(sample.count == 1 && sample.first?.code == stuck.killedCode, "the code in full on stdout: \(sample)")
        #expect(result.stderr.contains("KL****"), "the verbose log names the family with a masked code: \(result.stderr)")
        #expect(!result.stderr.contains(stuck.killedCode) && !result.stderr.contains(stuck.healthyCode))

        let family = try ProcessRunner.run(tribeboard, ["doctor", "family", stuck.killedCode, "--store", stuck.path])
        #expect(family.status == 1)
        #expect(family.stdout.contains("creatingLocally") && family.stdout.contains("Next"))
        let healthy = try ProcessRunner.run(ProcessRunner.executable("tribeboard-doctor"), ["family", stuck.healthyID, "--store", stuck.path, "--json"])
        #expect(healthy.status == 0, "\(healthy.stdout)")
        let report = try healthy.report(FamilyReportMirror.self)
        #expect(report.family?.code == stuck.healthyCode)
        #expect(report.remote.status == "notConfigured")
    }

    /// A monitoring job must hear of what only degrades (no remote, families waiting): --fail-on warning.
    @Test func failOnWarningTurnsWarningsIntoExit1() throws {
        let directory = try TemporaryDirectory("doctor-fail-on")
        try directory.write("in.csv", CSVFixtures.families(count: 3))
        let provisioned = try ProcessRunner.run(tribeboard, ["provision", "in.csv", "--store", "s.sqlite", "--out", "out", "-q"], in: directory.path)
        try #require(provisioned.status == 0, "\(provisioned.stderr)")
        let lenient = try ProcessRunner.run(tribeboard, ["doctor", "--store", "s.sqlite", "-q"], in: directory.path)
        #expect(lenient.status == 0, "warnings only: \(lenient.stderr)")
        let strict = try ProcessRunner.run(tribeboard, ["doctor", "--store", "s.sqlite", "-q", "--fail-on", "warning"], in: directory.path)
        #expect(strict.status == 1 && strict.stderr.contains("warning:"), "the warnings are the reason, under -q too: \(strict.stderr)")
    }

    @Test func badUsageExits64() throws {
        for arguments in [["doctor", "--stale-after", "soon"], ["doctor", "--sample", "-1"], ["doctor", "family"]] {
            let result = try ProcessRunner.run(tribeboard, arguments)
            #expect(result.status == 64, "\(arguments): \(result.stderr)")
        }
    }

    /// A password in --ck-base-url is never echoed, by doctor or by migrate --json.
    @Test func credentialsInTheBaseURLAreMaskedInWhatIsPrinted() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("doctor-cli-credentials")
        let store = try provisionedStore(in: directory)
        let url = fixture.emulator.baseURL.replacingOccurrences(of: "http://", with: "http://ops:s3cret-pw@") + "/"
        let remote = ["--key-id", fixture.keyID, "--key-file", fixture.keyFile, "--ck-base-url", url]
        let runs = [
            try await ProcessRunner.runAsync(tribeboard, ["doctor", "--store", store, "--json"] + remote),
            try await ProcessRunner.runAsync(tribeboard, ["doctor", "--store", store] + remote),
            try await ProcessRunner.runAsync(tribeboard, ["migrate", "legacy-types", "--store", store, "--json"] + remote),
            try await ProcessRunner.runAsync(tribeboard, ["migrate", "container", "--from-container", "iCloud.net.dataenvy.Old",
                                                          "--from-ck-base-url", "ftp://ops:s3cret-pw@old.example", "--store", store, "--json"] + remote),
        ]
        for result in runs {
            #expect(!result.stdout.contains("s3cret") && !result.stderr.contains("s3cret"), "\(result.stdout)\n\(result.stderr)")
        }
        #expect(runs[0].status == 0 && runs[0].stdout.contains("http://***@127.0.0.1"), "doctor names the service, masked: \(runs[0].stdout)")
        let migrate = try runs[2].report(MigrateReportMirror.self)
        #expect(migrate.destination.baseURL == "http://***@" + fixture.emulator.baseURL.dropFirst(7),
                "\(runs[2].stdout)")
    }

    @Test func theRemoteIsCheckedAgainstTheEmulator() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let directory = try TemporaryDirectory("doctor-cli-remote")
        let store = try provisionedStore(in: directory)
        let accepted = try await ProcessRunner.runAsync(tribeboard, ["doctor", "--store", store, "--json"] + fixture.remoteArguments)
        #expect(accepted.status == 0, "\(accepted.stdout)\(accepted.stderr)")
        #expect(try json(accepted).fallback.mode == "cloudKit")

        let rejected = try await ProcessRunner.runAsync(tribeboard, ["doctor", "--store", store, "--key-id", "unknown", "--key-file", fixture.keyFile,
                                                                     "--ck-base-url", fixture.emulator.baseURL, "--json"])
        #expect(rejected.status == 1)
        let report = try json(rejected)
        #expect(checks(report)["remote.key"]?.status == "failure", "\(rejected.stdout)")
        let fallback = report.fallback
        #expect(fallback.mode == "localOnly" && fallback.reason == "authFailure", "\(fallback)")
    }

    /// Provenance reads its container at run time from the Info.plist (the key of
    /// NSUbiquitousContainers): checked against the entitlements, and a changed key fails the app.
    @Test func aContainerReadFromTheInfoPlistIsCheckedAsSupportRunsIt() throws {
        let directory = try TemporaryDirectory("doctor-cli-infoplist")
        let store = try provisionedStore(in: directory)
        let variant = try DoctorVariant("real/Provenance-Emu-Provenance")
        let run = { () throws -> DoctorCheckMirror? in
            let result = try ProcessRunner.run(self.tribeboard, ["doctor", "--store", store, "--project", variant.path,
                                                                 "--container", "iCloud.org.provenance-emu.provenance", "--json"])
            return try self.json(result).checks.first { $0.id == "container.swiftSources" && $0.target == "Provenance" }
        }
        let ok = try #require(try run())
        #expect(ok.status == "ok" && ok.found.contains("iCloud.org.provenance-emu.provenance"), "\(ok.found)")
        try variant.edit("Provenance/Provenance-Info.plist", replacing: "<key>iCloud.org.provenance-emu.provenance</key>",
                         with: "<key>iCloud.org.provenance-emu.other</key>")
        let failed = try #require(try run())
        #expect(failed.status == "failure" && failed.found.contains("iCloud.org.provenance-emu.other"), "\(failed.found)")
    }

    @Test func targetNarrowsTheContainerChecksToOneTargetAndNeedsAProject() throws {
        let directory = try TemporaryDirectory("doctor-cli-target")
        let store = try provisionedStore(in: directory)
        let project = DoctorFixtures.project("real/Ranchero-Software-NetNewsWire")
        let result = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", project, "--target", "NetNewsWire-iOS", "--json"])
        let container = try json(result).checks.filter { $0.section == "container" }
        let targets = Set(container.compactMap(\.target))
        #expect(targets == ["NetNewsWire-iOS"], "\(result.stdout)")
        #expect(container.contains { $0.id == "container.bundleID" && $0.found.contains("com.ranchero.NetNewsWire.iOS") })
        let text = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--project", project, "--target", "NetNewsWire-iOS"])
        #expect(text.stdout.contains("[ ok ] NetNewsWire-iOS: iCloud containers in the entitlements: iCloud.com.ranchero.NetNewsWire"))
        let usage = try ProcessRunner.run(tribeboard, ["doctor", "--store", store, "--target", "App"])
        #expect(usage.status == 64)
    }
}
