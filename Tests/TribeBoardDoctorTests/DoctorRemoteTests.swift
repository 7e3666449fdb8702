import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardCloudKitEmulator
import TribeBoardProjectFixtures
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor
@testable import TribeBoardRemote

/// Section 4 and the fallback chain against the in-process emulator: a key it accepts, one it
/// rejects, a server that is down, a clock that disagrees; and one family across store and remote.
@Suite("Doctor: remote and one family")
struct DoctorRemoteTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }

    func report(_ configuration: CloudKitConfiguration, store: String) async -> DoctorReport {
        var request = DoctorRequest(storePath: store, remote: .success(configuration))
        request.requestTimeout = 60 // no test here waits on a silent server; 5 s ran out under load
        return await Doctor(request: request, logger: Self.logger).run()
    }

    func status(_ report: DoctorReport, _ id: String) -> DoctorSeverity? {
        report.checks.first { $0.id.rawValue == id }?.status
    }

    func healthyStore(in folder: TemporaryDirectory) throws -> String {
        let path = folder.file("s.sqlite")
        try DoctorFixtures.createAndClose(path)
        return path
    }

    @Test func anAcceptedKeyRunsWithCloudKit() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-remote")
        let store = try healthyStore(in: folder)
        defer { withExtendedLifetime(folder) {} }
        let report = await report(fixture.configuration, store: store)
        #expect(status(report, "remote.key") == .ok)
        #expect(status(report, "remote.reachable") == .ok)
        #expect(status(report, "remote.clock") == .ok, "the emulator sends a Date header")
        #expect(status(report, "remote.keyFile") == .ok)
        #expect(report.fallback.mode == .cloudKit)
        #expect(report.passed, "\(report.checks.filter { $0.status == .failure })")
    }

    @Test func aRejectedKeyIsAFailureAndTheToolkitFallsBackToLocalOnly() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-remote")
        let store = try healthyStore(in: folder)
        defer { withExtendedLifetime(folder) {} }
        var configuration = fixture.configuration
        configuration.keyID = "not-registered"
        let report = await report(configuration, store: store)
        let key = try #require(report.checks.first { $0.id == .remoteKey })
        #expect(key.status == .failure)
        #expect(key.found.contains("AUTHENTICATION_FAILED"))
        #expect(report.fallback.mode == .localOnly && report.fallback.reason == .authFailure)
        #expect(!report.passed)
    }

    @Test func aServerThatIsDownIsLocalOnlyWithAWarning() async throws {
        var options = CloudKitEmulator.Options()
        options.faults = try EmulatorFaults.parse("down")
        let fixture = try await EmulatorFixture.start(options)
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-remote")
        let store = try healthyStore(in: folder)
        defer { withExtendedLifetime(folder) {} }
        let report = await report(fixture.configuration, store: store)
        #expect(status(report, "remote.reachable") == .warning)
        #expect(report.fallback.mode == .localOnly && report.fallback.reason == .remoteDown)
        #expect(report.passed, "a remote that is down degrades; it does not fail")
    }

    @Test func aSkewedClockIsMeasuredAndNamedWhenItBreaksTheKey() async throws {
        for (offset, expected) in [(120.0, DoctorSeverity.warning), (900.0, .failure)] {
            var options = CloudKitEmulator.Options()
            options.clockOffset = offset
            let fixture = try await EmulatorFixture.start(options)
            let folder = try TemporaryDirectory("doctor-remote")
        let store = try healthyStore(in: folder)
        defer { withExtendedLifetime(folder) {} }
            let report = await report(fixture.configuration, store: store)
            await fixture.emulator.stop()
            let clock = try #require(report.checks.first { $0.id == .remoteClock })
            #expect(clock.status == expected, "\(offset): \(clock.found)")
            #expect(clock.found.contains("ahead of"))
            if offset > RemoteChecks.skewFailure {
                #expect(report.checks.first { $0.id == .remoteKey }?.action?.contains("clock") == true)
            }
        }
    }

    @Test func aKeyFileOthersCanReadIsRefusedBeforeAnythingIsSent() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-remote")
        let store = try healthyStore(in: folder)
        defer { withExtendedLifetime(folder) {} }
        chmod(fixture.keyFile, 0o644)
        let report = await report(fixture.configuration, store: store)
        let keyFile = try #require(report.checks.first { $0.id == .remoteKeyFile })
        #expect(keyFile.status == .failure && keyFile.action == "chmod 600 \(fixture.keyFile)")
        #expect(await fixture.emulator.requestCounts().isEmpty)
    }

    @Test func oneFamilyAcrossTheStoreAndCloudKit() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-family")
        let stuck = try DoctorFixtures.killedCreationStore(in: folder)
        // Another record in CloudKit already holds the healthy family's code.
        await fixture.emulator.seed([RecordMapping.family(id: "FFFFFFFF-0000-7000-8000-000000000009", name: "Other", code: stuck.healthyCode,
                                                          createdByUserId: "U", createdAt: .now)],
                                    container: CloudKitConfiguration.defaultContainer)
        var request = DoctorRequest(storePath: stuck.path, remote: .success(fixture.configuration))
        request.requestTimeout = 60 // no test here waits on a silent server; 5 s ran out under load

        let healthy = await FamilyDoctor(request: request, query: stuck.healthyCode.lowercased(), logger: Self.logger).run()
        #expect(healthy.family?.id.rawValue == stuck.healthyID, "codes are looked up as typed, upper-cased")
        let remote = try #require(healthy.findings.first { $0.id == .familyRemote })
        #expect(remote.status == .failure && remote.found.contains("FFFFFFFF-0000-7000-8000-000000000009"))
        #expect(healthy.timeline.contains { $0.source == "cloudkit" })

        let killed = await FamilyDoctor(request: request, query: stuck.killedID, logger: Self.logger).run()
        #expect(killed.findings.first { $0.id == .familyCreation }?.status == .failure)
        #expect(killed.findings.first { $0.id == .familyAdmin }?.status == .warning)
        #expect(killed.timeline.filter { $0.source == "creation_log" }.map(\.what) == ["idle", "validating", "generatingCode", "creatingLocally"])
        #expect(!killed.passed && killed.nextSteps.count >= 2)

        let unknown = await FamilyDoctor(request: request, query: "ZZZ999", logger: Self.logger).run()
        #expect(unknown.family == nil && unknown.remote.status == .missing && !unknown.passed)

        var rejectedKey = fixture.configuration
        rejectedKey.keyID = "not-registered"
        request.remote = .success(rejectedKey)
        let refused = await FamilyDoctor(request: request, query: stuck.healthyCode, logger: Self.logger).run()
        #expect(refused.remote.status == .unavailable && refused.remote.detail.contains("AUTHENTICATION_FAILED"), "\(refused.remote)")
    }
}
