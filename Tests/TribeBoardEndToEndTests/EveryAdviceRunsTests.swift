import Foundation
import Testing
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardProjectFixtures
import TribeBoardTestSupport

/// Every piece of advice in the catalogue, built for a real store (whose name starts with `-` and holds a
/// space) and
/// remote, runs as printed: the words parse (no usage message), name a store that exists (no 74)
/// and reach the remote the advising run used (no configuration error, 78), in a shell without
/// TRIBEBOARD_CK_* variables. The suites of the states that print them (`PrintedAdviceTests`,
/// `AdviceAsPrintedTests`, `SupportAdviceAsPrintedTests`) check what each one then does.
@Suite(.serialized) struct EveryAdviceRunsTests {
    static let store = PrintedAdviceTests.store

    /// An example of each kind for this store: the switch has no default, so a new kind of advice
    /// does not compile until it is run here.
    static func example(_ kind: Advice.Kind, remote: [String], families: [String]) -> Advice {
        let (first, second, third) = (FamilyID(rawValue: families[0]), FamilyID(rawValue: families[1]), FamilyID(rawValue: families[2]))
        switch kind {
        case .reupload: return .reupload(store: store, familyID: first)
        case .audit: return .audit(store: store, remote: remote)
        case .repairAll: return .repairAll(store: store, remote: remote)
        case .resync: return .resync(store: store, remote: remote)
        case .resyncList: return .resyncList(store: store)
        case .resyncRelease: return .resyncRelease(store: store, recordID: first.rawValue)
        case .doctorContainer: return .doctorContainer(store: store, container: CloudKitConfiguration.defaultContainer, environment: "development")
        case .doctorFamily: return .doctorFamily(store: store, family: first.rawValue, remote: remote)
        case .remove: return .remove(store: store, familyID: third, remote: remote)
        case .merge: return .merge(store: store, duplicate: second, into: first, remote: remote)
        case .recode: return .recode(familyID: first, store: store, remote: remote)
        case .adopt: return .adopt(store: store, familyID: first, remote: remote, apply: false)
        case .reprint: return .reprint(store: store, familyID: first)
        case .findFamily: return .findFamily(store: store, remote: remote)
        case .repairPlan: return .repairPlan(store: store, remote: remote)
        case .recodePlan: return .recodePlan(familyID: first, store: store, remote: remote)
        case .exportSnapshot: return .exportSnapshot(store: store, remote: remote)
        case .migrateLegacy: return .migrateLegacy(store: store, remote: remote, step: .deleteSource)
        case .migrateClaims: return .migrateClaims(store: store, remote: remote)
        case .doctor: return .doctor(store: store, remote: remote)
        }
    }

    @Test func everyKindOfAdviceRunsAsPrinted() async throws {
        let setup = try await PrintedAdviceTests().provisioned(
            "external_id,family_name,admin_display_name\nE-1,Eze,Ada Eze\nE-2,Obi,Chidi Obi\nE-3,Uba,Ngozi Uba\n", "every-advice")
        defer { Task { await setup.fixture.emulator.stop() } }
        let uploaded = try await PrintedAdviceTests().run(["resync"], setup)
        try #require(uploaded.status == 0, "\(uploaded.stderr)")
        let families = try ["E-1", "E-2", "E-3"].map { try #require(setup.families[$0]) }
        let placeholders = ["DIR": "advice-out", "FILE": "snapshot.jsonl", "NAME": "Eze", "ID": families[0], "KEPT_ID": families[0],
                            "PATH": DoctorFixtures.project("correct")]
        for kind in Advice.Kind.allCases {
            let advice = Self.example(kind, remote: setup.fixture.remoteArguments, families: families)
            #expect(advice.kind == kind)
            #expect(advice.words.contains("--store=\(Self.store)"), "\(kind) names the store, as an option's value")
            let result = try await AsPrinted.run(advice.command, in: setup.directory.path, replacing: placeholders)
            #expect(![74, 78].contains(result.status) && !result.stderr.contains("Usage: "),
                    "\(kind): `\(advice.command)` ended \(result.status): \(result.stderr)")
        }
    }
}
