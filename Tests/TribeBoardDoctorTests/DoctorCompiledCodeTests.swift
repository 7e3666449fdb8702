import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// What a target compiles, read by API and judged by what breaks, on trimmed real projects
/// (Tests/Fixtures/doctor/real/*/SOURCE.md), each with the one-line change that must fail.
@Suite("Doctor: containers by API, in the code a target compiles, judged by what breaks")
struct DoctorCompiledCodeTests {
    static func run(_ path: String, target: String? = nil) -> [DoctorCheck] {
        ContainerChecks(projectPath: path, targetFilter: target, toolkit: nil).run().filter { $0.id != .containerToolkit }
    }

    static func fixture(_ name: String) -> String { DoctorFixtures.project("real/\(name)") }

    static func check(_ checks: [DoctorCheck], _ target: String?, _ id: DoctorCheckID) throws -> DoctorCheck {
        try #require(checks.first { $0.target == target && $0.id == id }, "\(target ?? "-") \(id): \(checks)")
    }

    // MARK: where the app looks codes up

    @Test func theAppsOwnProjectFailsForTheDatabaseGapWithFileAndLine() throws {
        let lookup = try Self.check(Self.run(Self.fixture("tafmawere-TribeBoard")), nil, .containerFamilyLookup)
        #expect(lookup.status == .failure)
        let service = "TribeBoard/Services/CloudKitService.swift"
        #expect(lookup.locations.first == SourceLocation(path: service, line: 531), "the lookup first: \(lookup.locations)")
        #expect(lookup.locations.contains(SourceLocation(path: service, line: 80)), "privateCloudDatabase: \(lookup.locations)")
        #expect(lookup.locations.contains(SourceLocation(path: service, line: 83)), "the TribeBoardZone zone: \(lookup.locations)")
        #expect(lookup.found.contains("fetchFamily(byCode") && lookup.found.contains("privateCloudDatabase (\(service):80)"))
        #expect(lookup.action?.contains("import TribeBoardJoinKit") == true && lookup.action?.contains("docs/code-claims.md") == true)
    }

    @Test func theSameProjectThroughTheJoinKitPasses() throws {
        let variant = try DoctorVariant("real/tafmawere-TribeBoard")
        let service = "TribeBoard/Services/CloudKitService.swift"
        try variant.edit(service, replacing: "import CloudKit\n", with: "import CloudKit\nimport TribeBoardJoinKit\n")
        try variant.edit(service, replacing: "let records = try await fetchWithSafePredicate(Family.self, predicate: predicate)",
                         with: "let records = [try await JoinKit(database: CloudKitJoinDatabase(container: container)).findFamily(code: code)]")
        let checks = Self.run(variant.path)
        let lookup = try Self.check(checks, nil, .containerFamilyLookup)
        #expect(lookup.status == .ok && lookup.locations == [SourceLocation(path: service, line: 3)], "\(lookup)")
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
    }

    @Test func aProjectQueryingThePublicDatabasePassesAndOthersGetNoLine() throws {
        let variant = try DoctorVariant("real/tafmawere-TribeBoard")
        let service = "TribeBoard/Services/CloudKitService.swift"
        try variant.edit(service, replacing: "self.privateDatabase = container.privateCloudDatabase",
                         with: "self.privateDatabase = container.publicCloudDatabase")
        let lookup = try Self.check(Self.run(variant.path), nil, .containerFamilyLookup)
        // The custom zone is still there (line 83): the public database has none, but the lookup's
        // fallback to the default zone finds what the toolkit writes.
        #expect(lookup.status == .ok && lookup.found.contains("publicCloudDatabase"), "\(lookup)")
        #expect(!Self.run(Self.fixture("schmidtwmark-BetterBlue")).contains { $0.id == .containerFamilyLookup },
                "a project without TribeBoard's families gets no family-lookup line")
    }

    // MARK: a container named as a default parameter value

    @Test func aDefaultParameterValueIsTheContainerTheCodeUses() throws {
        let service = "TribeBoard/Services/CloudKitService.swift"
        let code = try Self.check(Self.run(Self.fixture("tafmawere-TribeBoard")), "TribeBoard", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("(\(service):78, CKContainer(identifier:) via containerIdentifier (\(service):79))"),
                "\(code.found)")
        let variant = try DoctorVariant("real/tafmawere-TribeBoard")
        try variant.edit(service, replacing: #"init(containerIdentifier: String = "iCloud.net.dataenvy.TribeBoard")"#,
                         with: #"init(containerIdentifier: String = "iCloud.net.dataenvy.Tribe")"#)
        let broken = try Self.check(Self.run(variant.path), "TribeBoard", .containerSwiftSources)
        #expect(broken.status == .failure && broken.locations == [SourceLocation(path: service, line: 78)], "\(broken)")
    }

    // MARK: class 2: a label is not a container

    @Test func aDiagnosticsFieldLabelledContainerIdentifierIsNoContainer() throws {
        let variant = try DoctorVariant("real/schmidtwmark-BetterBlue")
        let file = "BetterBlue/Utility/DiagnosticInfo.swift"
        // The CloudKitDiagnostic struct's own field, given another value: not a container use.
        try variant.edit(file, replacing: "containerIdentifier: containerID,", with: #"containerIdentifier: "iCloud.com.example.Shown","#)
        let checks = Self.run(variant.path)
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
        // The CKContainer it really makes, named wrong: caught in every target that compiles it.
        try variant.edit(file, replacing: #"let containerID = "iCloud.com.markschmidt.BetterBlue""#,
                         with: #"let containerID = "iCloud.com.markschmidt.Blue""#)
        let failing = Set(Self.run(variant.path).filter { $0.status == .failure && $0.id == .containerSwiftSources }.compactMap(\.target))
        #expect(failing == ["BetterBlue", "BetterBlueWatch Watch App", "WidgetExtension"], "\(failing)")
    }

    // MARK: classes 3 and 4: severity by what breaks

    @Test func aWatchWidgetCompilingSharedCloudKitCodeWithoutICloudIsAWarning() throws {
        let checks = Self.run(Self.fixture("schmidtwmark-BetterBlue"))
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
        let code = try Self.check(checks, "WatchWidgetExtension", .containerSwiftSources)
        #expect(code.status == .warning && code.found.contains("a warning, not a failure"), "\(code.found)")
        #expect(code.locations.contains(SourceLocation(path: "BetterBlue/Utility/DiagnosticInfo.swift", line: 118)))
        // SwiftData's .automatic without a container is a local store: not named at all there.
        #expect(!code.found.contains(".automatic"), "\(code.found)")
        let entitlements = try Self.check(checks, "WatchWidgetExtension", .containerEntitlements)
        #expect(entitlements.status == .warning && entitlements.found.contains("may call CloudKit"), "\(entitlements.found)")
    }

    @Test func aStoreSetUpInTheWidgetsOwnCodeIsAFailure() throws {
        let variant = try DoctorVariant("real/schmidtwmark-BetterBlue")
        // WatchWidgetBundle.swift is compiled by the watch widget alone: code written for it.
        let own = "WatchWidget/WatchWidgetBundle.swift"
        try variant.edit(own, replacing: "import WidgetKit",
                         with: #"let store = ModelConfiguration(cloudKitDatabase: .private("iCloud.com.markschmidt.BetterBlue"))"#)
        let checks = Self.run(variant.path)
        let code = try Self.check(checks, "WatchWidgetExtension", .containerSwiftSources)
        #expect(code.status == .failure && code.found.contains("this store set-up is the target's own code and fails when it runs (at launch)"),
                "\(code.found)")
        #expect(code.locations == [SourceLocation(path: own, line: 9)], "\(code.locations)")
        #expect(try Self.check(checks, "WatchWidgetExtension", .containerEntitlements).status == .failure)
        // The shared diagnostics call stays a warning beside it; the entitled targets are untouched.
        #expect(code.found.contains("DiagnosticInfo.swift:118") && code.found.contains("a warning, not a failure"))
        #expect(!checks.contains { $0.status == .failure && $0.target != "WatchWidgetExtension" && $0.target != nil })
    }

    @Test func aTernaryStoreSetUpIsReadAsTheContainerItNames() throws {
        let variant = try DoctorVariant("real/schmidtwmark-BetterBlue")
        try variant.edit("BetterBlue/Models/SharedModelContainer.swift", replacing: "enableCloudKit ? .automatic : .none",
                         with: #"enableCloudKit ? .private("iCloud.com.markschmidt.Blue") : .none"#)
        let failing = Set(Self.run(variant.path).filter { $0.status == .failure && $0.id == .containerSwiftSources }.compactMap(\.target))
        #expect(failing == ["BetterBlue", "BetterBlueWatch Watch App", "WidgetExtension"], "\(failing)")
    }

    // MARK: class 6: Objective-C

    @Test func anObjectiveCAppsContainerIsReadAndAMismatchFails() throws {
        let checks = Self.run(Self.fixture("shenruisi-Stay"))
        let code = try Self.check(checks, "Stay", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("iCloud.app.stay.icloud.library (Stay/iCloud/iCloudService.m:641, [CKContainer containerWithIdentifier:])"),
                "\(code.found)")
        let variant = try DoctorVariant("real/shenruisi-Stay")
        try variant.edit("Stay/Stay.entitlements", replacing: "<string>iCloud.app.stay.icloud.library</string>",
                         with: "<string>iCloud.app.stay.icloud.lib</string>")
        let broken = Self.run(variant.path)
        for target in ["Stay", "Stay-Mac"] {
            let failure = try Self.check(broken, target, .containerSwiftSources)
            #expect(failure.status == .failure && failure.locations == [SourceLocation(path: "Stay/iCloud/iCloudService.m", line: 641)], "\(failure)")
        }
    }
}

extension DoctorCompiledCodeTests {
    @Test func aFrameworkRootPointsAtTheExampleAppBesideIt() throws {
        let root = Self.fixture("caiyue1993-IceCream")
        let project = try Self.check(Self.run(root), nil, .containerProject)
        #expect(project.status == .failure && project.found.contains("projects with apps beside it: Example/IceCream_Example.xcodeproj (IceCream_Example)"),
                "\(project.found)")
        #expect(project.action == "point --project at the app's project: Example/IceCream_Example.xcodeproj")
        let example = Self.run(root + "/Example")
        #expect(example.filter { $0.status == .failure }.isEmpty, "\(example.filter { $0.status == .failure })")
        let listed = try Self.check(example, "IceCream_Example", .containerEntitlementContainers)
        #expect(listed.found.contains("iCloud.me.soledad.http.IceCream-Example"), "\(listed.found)")
    }
}

extension DoctorCompiledCodeTests {
    /// The container is named in a ternary in a framework of a sibling project.
    @Test func aTernaryInASiblingProjectsFrameworkIsTheAppsContainer() throws {
        let project = Self.fixture("fer0n-Unwatched") + "/Unwatched"
        let code = try Self.check(Self.run(project), "Unwatched", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("iCloud.com.pentlandFirth.Unwatched"), "\(code.found)")
        #expect(code.locations.contains { $0.path.hasSuffix("UnwatchedShared/Data/DataProvider.swift") && $0.line == 61 }, "\(code.locations)")
        let variant = try DoctorVariant("real/fer0n-Unwatched")
        try variant.edit("UnwatchedShared/UnwatchedShared/Data/DataProvider.swift",
                         replacing: #"enableIcloudSync ? .private("iCloud.com.pentlandFirth.Unwatched") : .none"#,
                         with: #"enableIcloudSync ? .private("iCloud.com.pentlandFirth.Watched") : .none"#)
        let broken = try Self.check(Self.run(variant.path + "/Unwatched"), "Unwatched", .containerSwiftSources)
        #expect(broken.status == .failure && broken.found.contains("iCloud.com.pentlandFirth.Watched"), "\(broken)")
    }
}

extension DoctorCompiledCodeTests {
    /// A local package added by path (no `package` in its product dependency): the app's argument
    /// binds the package's parameter that `CKContainer(identifier:)` takes.
    @Test func anArgumentIntoALocalPackagesParameterIsTheContainer() throws {
        let fixture = "kellyhuberty-CloudKitSynchronizer"
        let code = try Self.check(Self.run(Self.fixture(fixture)), "CloudKitSynchronizerAppPkg", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("CKContainer(identifier:) via domain (Sources/CloudKitSynchronizer/Models/Repo.swift:38)"),
                "\(code.found)")
        let variant = try DoctorVariant("real/\(fixture)")
        try variant.edit("TestApp/CloudKitSynchronizerApp/AppDelegate.swift", replacing: #"Repo(domain: "iCloud.com.kellyhuberty.CloudKitSynchronizer""#,
                         with: #"Repo(domain: "iCloud.com.kellyhuberty.Synchronizer""#)
        let broken = try Self.check(Self.run(variant.path), "CloudKitSynchronizerAppPkg", .containerSwiftSources)
        #expect(broken.status == .failure && broken.locations == [SourceLocation(path: "TestApp/CloudKitSynchronizerApp/AppDelegate.swift", line: 76)],
                "\(broken)")
    }

    /// A container built by a function at run time is CloudKit code that cannot be verified: said so.
    @Test func aContainerBuiltByAFunctionIsAWarningNamingIt() throws {
        let code = try Self.check(Self.run(Self.fixture("DUZHENGZHI-Diary")), "Diary", .containerSwiftSources)
        #expect(code.status == .warning && code.found.contains("the container is icloudIdentifier(), whose value doctor cannot find"), "\(code.found)")
        #expect(code.locations.contains(SourceLocation(path: "Diary/CloudKit/CKManager.swift", line: 12)))
    }
}

extension DoctorCompiledCodeTests {
    /// The container read from the Info.plist at run time is looked up there
    /// (`$(ICLOUD_CONTAINER_ID)`, set in the xcconfig), not left "without CloudKit code".
    @Test func aContainerFromTheInfoPlistIsCheckedThroughItsVariable() throws {
        let code = try Self.check(Self.run(Self.fixture("Aidoku-Aidoku"), target: "Aidoku (iOS)"), "Aidoku (iOS)", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("iCloud.app.aidoku.Aidoku (Shared/Managers/CoreData/CoreDataManager.swift:13"), "\(code.found)")
        let unset = try DoctorVariant("real/Aidoku-Aidoku")
        try unset.edit("Shared/Aidoku.xcconfig", replacing: "ICLOUD_CONTAINER_ID         = iCloud.$(PRODUCT_BUNDLE_IDENTIFIER)", with: "")
        let warned = try Self.check(Self.run(unset.path, target: "Aidoku (iOS)"), "Aidoku (iOS)", .containerSwiftSources)
        #expect(warned.status == .warning && warned.found.contains("Info.plist key ICLOUD_CONTAINER_ID") && warned.found.contains("ICLOUD_CONTAINER_ID is"),
                "\(warned.found)")
        // The entitlements list the same variable, so the Info.plist's own line is the one to break.
        let wrong = try DoctorVariant("real/Aidoku-Aidoku")
        try wrong.edit("iOS/Info.plist", replacing: "<string>$(ICLOUD_CONTAINER_ID)</string>", with: "<string>iCloud.app.aidoku.Other</string>")
        let failed = try Self.check(Self.run(wrong.path, target: "Aidoku (iOS)"), "Aidoku (iOS)", .containerSwiftSources)
        #expect(failed.status == .failure && failed.found.contains("iCloud.app.aidoku.Other"), "\(failed.found)")
    }
}
