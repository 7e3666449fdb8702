import Foundation
import Logging
import Testing
import TribeBoardCloudFixtures
import TribeBoardDomain
import TribeBoardProjectFixtures
import TribeBoardRemote
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor

/// A check written but never run (its `DoctorCheck` made in its section's file, its id in the
/// catalogue and docs/doctor.md, but left out of the section's list) passes `CheckIDUseTests`,
/// which reads the source. Here each section runs over what doctor's tests run it on (stores
/// missing, damaged, healthy, with a killed creation; the emulator; the fixture projects), and
/// every id of the section must be reported by one of those runs.
struct ChecksReportedTests {
    static let logger = Logger(label: "tests") { _ in SwiftLogNoOpLogHandler() }
    static let sections: [DoctorSection] = [.fallback, .store, .creations]

    static func reported(_ store: String) async -> [DoctorCheck] {
        let request = DoctorRequest(storePath: store, remote: .success(CloudKitConfiguration()))
        return await Doctor(request: request, logger: logger).run().checks
    }

    @Test func everyCheckOfTheLocalSectionsIsReported() async throws {
        let folder = try TemporaryDirectory("doctor-every-check")
        let healthy = folder.file("healthy.sqlite")
        try DoctorFixtures.createAndClose(healthy)
        let stores = [folder.file("missing.sqlite"), try DoctorFixtures.randomBytesStore(in: folder), healthy,
                      try DoctorFixtures.killedCreationStore(in: folder).path]
        var seen: [DoctorSection: Set<DoctorCheckID>] = [:]
        for store in stores {
            for check in await Self.reported(store) { seen[check.section, default: []].insert(check.id) }
        }
        for section in Self.sections {
            let catalogue = DoctorCheckID.allCases.filter { $0.rawValue.hasPrefix(section.rawValue + ".") }
            #expect(catalogue.count >= 1)
            let unreported = catalogue.filter { !(seen[section] ?? []).contains($0) }
            #expect(unreported.isEmpty, "\(section): never reported: \(unreported.map(\.rawValue))")
        }
    }

    /// The remote section, against the emulator with a key it accepts: every `remote.` id is
    /// reported by one run (a probe per queried type and field, the claim schema included).
    @Test func everyRemoteCheckIsReportedAgainstTheEmulator() async throws {
        let fixture = try await EmulatorFixture.start()
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-every-remote-check")
        let store = folder.file("healthy.sqlite")
        try DoctorFixtures.createAndClose(store)
        var request = DoctorRequest(storePath: store, remote: .success(fixture.configuration))
        request.requestTimeout = 60
        let reported = Set(await Doctor(request: request, logger: Self.logger).run().checks.map(\.id))
        let unreported = DoctorCheckID.allCases.filter { $0.rawValue.hasPrefix("remote.") && !reported.contains($0) }
        #expect(unreported.isEmpty, "never reported: \(unreported.map(\.rawValue))")
    }

    /// The container section, over the fixture projects (correct, each kind of wrong, the real
    /// ones) with a toolkit container set, and `--target` naming no target: every `container.`
    /// id is reported by one of them.
    @Test func everyContainerCheckIsReportedOverTheFixtureProjects() {
        let toolkit = ToolkitContainer(value: "iCloud.com.example.tribeboard", source: "TRIBEBOARD_CK_CONTAINER")
        var reported = Set<DoctorCheckID>()
        let real = (try? FileManager.default.contentsOfDirectory(atPath: DoctorFixtures.project("real"))) ?? []
        let made = ["correct", "wrong-identifier", "mismatched-entitlements", "missing-entitlements"]
        let projects = made + real.map { "real/\($0)" }
        for project in projects {
            for check in ContainerChecks(projectPath: DoctorFixtures.project(project), toolkit: toolkit).run() {
                reported.insert(check.id)
            }
        }
        // `--target`: a name the project lacks.
        let named = ContainerChecks(projectPath: DoctorFixtures.project("correct"), targetFilter: "NoSuchTarget",
                                    toolkit: toolkit)
        reported.formUnion(named.run().map(\.id))
        let unreported = DoctorCheckID.allCases.filter { $0.rawValue.hasPrefix("container.") && !reported.contains($0) }
        #expect(unreported.isEmpty, "never reported: \(unreported.map(\.rawValue))")
    }

    /// `doctor family`, against the emulator: a killed creation, a healthy family whose code
    /// another record holds, a code nothing holds, and a family under whose name an app user
    /// wrote a record. Every `family.` id is reported by one of those runs.
    @Test func everyFamilyCheckIsReportedAgainstTheEmulator() async throws {
        let appUser = "_app_user_1"
        let fixture = try await EmulatorFixture.start(users: [appUser])
        defer { Task { await fixture.emulator.stop() } }
        let folder = try TemporaryDirectory("doctor-every-family-check")
        let stuck = try DoctorFixtures.killedCreationStore(in: folder)
        await fixture.emulator.seed([RecordMapping.family(id: "FFFFFFFF-0000-7000-8000-000000000009", name: "Other",
                                                          code: stuck.healthyCode, createdByUserId: "U", createdAt: .now)],
                                    container: CloudKitConfiguration.defaultContainer)
        let (workspace, id) = try await DoctorAppLookupTests.familyUnderAnAppUsersRecord(fixture, appUser: appUser)

        var reported = Set<DoctorCheckID>()
        for (store, query) in [(stuck.path, stuck.killedID), (stuck.path, stuck.healthyCode), (stuck.path, "ZZZ999"),
                               (workspace.storePath, id)] {
            var request = DoctorRequest(storePath: store, remote: .success(fixture.configuration))
            request.requestTimeout = 60
            let report = await FamilyDoctor(request: request, query: query, logger: Self.logger).run()
            reported.formUnion(report.findings.map(\.id))
        }
        let unreported = DoctorCheckID.allCases.filter { $0.rawValue.hasPrefix("family.") && !reported.contains($0) }
        #expect(DoctorCheckID.allCases.contains { $0.rawValue.hasPrefix("family.") })
        #expect(unreported.isEmpty, "never reported: \(unreported.map(\.rawValue))")
    }
}
