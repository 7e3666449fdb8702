import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// Trimmed copies of public Xcode projects (Tests/Fixtures/doctor/real, each with a SOURCE.md),
/// and the verdict a careful support engineer gives each: which targets use CloudKit, which
/// container each lists, and which checks warn or fail. The toolkit's own container is left out
/// (it is TribeBoard's, not theirs).
@Suite("Doctor: real Xcode projects")
struct DoctorRealProjectTests {
    struct Verdict: Sendable, CustomTestStringConvertible {
        let fixture: String
        /// The targets judged (those with iCloud or CloudKit code), in order.
        let targets: [String]
        /// `target: container` pairs that must be listed as found.
        let containers: [String: String]
        /// `target|check id` (or `-|check id` for the project) that warn or fail; every other check is ok.
        var warnings: Set<String> = []
        var failures: Set<String> = []
        var testDescription: String { fixture }
    }

    static let verdicts: [Verdict] = [
        // The macOS app compiles the shared Core Data set-up, whose container is the Info.plist key
        // ICLOUD_CONTAINER_ID, without any iCloud entitlement: shared code that may not run there, a warning.
        Verdict(fixture: "Aidoku-Aidoku", targets: ["Aidoku (iOS)", "Aidoku (macOS)"], containers: ["Aidoku (iOS)": "iCloud.app.aidoku.Aidoku"],
                warnings: ["Aidoku (macOS)|container.iCloudServices", "Aidoku (macOS)|container.swiftSources"]),
        Verdict(fixture: "Dimillian-IceCubesApp", targets: ["IceCubesApp"], containers: ["IceCubesApp": "iCloud.icecubesapp"],
                warnings: ["IceCubesApp|container.bundleID", "IceCubesApp|container.xcconfig"]),
        Verdict(fixture: "GordonBeeming-HardPhaseTracker", targets: ["HardPhaseTracker"],
                containers: ["HardPhaseTracker": "iCloud.com.gordonbeeming.HardPhaseTracker"]),
        Verdict(fixture: "Ranchero-Software-NetNewsWire", targets: ["NetNewsWire", "NetNewsWire-iOS"],
                containers: ["NetNewsWire": "iCloud.com.ranchero.NetNewsWire", "NetNewsWire-iOS": "iCloud.com.ranchero.NetNewsWire"],
                // The Account package builds "iCloud.\(orgID).NetNewsWire": cannot verify, said so.
                warnings: ["NetNewsWire|container.swiftSources", "NetNewsWire-iOS|container.swiftSources"]),
        Verdict(fixture: "apple-sample-cloudkit-coredatasync", targets: ["CoreDataSync"],
                containers: ["CoreDataSync": "iCloud.com.apple.samples.cloudkit.CoreDataSync"]),
        Verdict(fixture: "apple-sample-cloudkit-privatedb", targets: ["PrivateDatabase"],
                containers: ["PrivateDatabase": "iCloud.com.example.private-database"], warnings: ["PrivateDatabase|container.backgroundModes"]),
        Verdict(fixture: "apple-sample-cloudkit-sharing", targets: ["Sharing"],
                containers: ["Sharing": "iCloud.com.apple.samples.cloudkit.sharing"], warnings: ["Sharing|container.backgroundModes"]),
        Verdict(fixture: "apple-sample-cloudkit-sync-engine", targets: ["SyncEngine"],
                containers: ["SyncEngine": "iCloud.com.apple.samples.cloudkit.SyncEngine"]),
        Verdict(fixture: "apple-sample-food-truck", targets: [], containers: [:]),
        Verdict(fixture: "aguilarcarboni-storage", targets: ["storage"], containers: ["storage": "iCloud.com.aguilarcarboni.storage"],
                warnings: ["storage|container.backgroundModes"], failures: ["storage|container.swiftSources"]),
        Verdict(fixture: "Dantejvv-ToDoozies", targets: ["ToDoozies"], containers: ["ToDoozies": "iCloud.dante.ToDoozies"]),
        Verdict(fixture: "atjason-SwiftDataUsage", targets: ["SwiftDataUsage"], containers: ["SwiftDataUsage": "iCloud.net.toolinbox.SwiftDataUsage"]),
        Verdict(fixture: "aurnhammer-CloudKit-CoreData-Example", targets: ["District-1 Admin"],
                containers: ["District-1 Admin": "iCloud.com.districtapp.CloudKit-CoreData"]),
        Verdict(fixture: "home-assistant-iOS", targets: [], containers: [:]),
        Verdict(fixture: "jasonlin0001-a11y-ClippyIsle", targets: ["ClippyIsle"], containers: ["ClippyIsle": "iCloud.J894ABBU74.ClippyIsle"],
                warnings: ["ClippyIsle|container.backgroundModes"]),
        Verdict(fixture: "kiwix-kiwix-apple", targets: [], containers: [:], failures: ["-|container.project"]),
        Verdict(fixture: "marriagav-taskchamp", targets: [], containers: [:], failures: ["-|container.project"]),
        Verdict(fixture: "rasmuslos-SatelliteGuard", targets: ["Multiplatform", "WireGuardExtension"],
                containers: ["Multiplatform": "iCloud.SatelliteGuard", "WireGuardExtension": "iCloud.SatelliteGuard"],
                warnings: ["Multiplatform|container.apsEnvironment"]),
        Verdict(fixture: "caseymacphee-heatlab", targets: ["HeatLab", "HeatLabWatch"],
                containers: ["HeatLab": "iCloud.com.macpheelabs.heatlab", "HeatLabWatch": "iCloud.com.macpheelabs.heatlab"],
                warnings: ["HeatLab|container.entitlements"]),
        // TeamID.xcconfig (DEVELOPMENT_TEAM) is left out of the repository: the ids cannot be resolved, said so.
        Verdict(fixture: "insidegui-WWDC", targets: ["WWDC"], containers: [:],
                warnings: ["WWDC|container.bundleID", "WWDC|container.xcconfig", "WWDC|container.entitlementContainers", "WWDC|container.swiftSources"]),
        Verdict(fixture: "pointfreeco-sqlite-data", targets: ["CloudKitDemo", "Reminders", "SyncUps"],
                containers: ["CloudKitDemo": "iCloud.co.pointfree.SQLiteData.CloudKitDemo", "Reminders": "iCloud.co.pointfree.SQLiteData.RemindersDemo.Beta",
                             "SyncUps": "iCloud.co.pointfree.SQLiteData.SyncUps"]),
        // iCloud Documents only: judged for its iCloud entitlements, never a CloudKit failure.
        Verdict(fixture: "coteditor-CotEditor", targets: ["CotEditor"], containers: ["CotEditor": "iCloud.com.coteditor.CotEditor"],
                warnings: ["CotEditor|container.entitlements"]),
        Verdict(fixture: "maxrys-js-blocker", targets: ["JS Blocker", "JS Blocker Extension"],
                containers: ["JS Blocker": "iCloud.jsblocker", "JS Blocker Extension": "iCloud.jsblocker"]),
        // Tuist 4: Tuist.swift and Workspace.swift at the root, Project.swift only in module folders.
        // SDKROOT auto for iOS, tvOS and macOS; the container built by interpolation; Debug's macOS build has the iOS push key.
        Verdict(fixture: "yattee-yattee", targets: ["Yattee"], containers: ["Yattee": "iCloud.stream.yattee.app"],
                warnings: ["Yattee|container.swiftSources", "Yattee|container.apsEnvironment"]),
        // iCloud Documents only; Debug.xcconfig is left out (a template is committed): Debug's paths are warnings.
        Verdict(fixture: "TortugaPower-BookPlayer", targets: ["BookPlayer"], containers: ["BookPlayer": "iCloud.com.replace.me"],
                warnings: ["BookPlayer|container.bundleID", "BookPlayer|container.entitlements", "BookPlayer|container.xcconfig"]),
        Verdict(fixture: "apple-sample-cloudkit-zonesharing", targets: ["ZoneSharing"],
                containers: ["ZoneSharing": "iCloud.com.apple.samples.cloudkit.zonesharing"], warnings: ["ZoneSharing|container.backgroundModes"]),
        Verdict(fixture: "apple-sample-cloudkit-queries", targets: ["Queries"],
                containers: ["Queries": "iCloud.com.apple.samples.cloudkit.queries"], warnings: ["Queries|container.backgroundModes"]),
        Verdict(fixture: "apple-sample-cloudkit-privatedb-sync", targets: ["PrivateSync"],
                containers: ["PrivateSync": "iCloud.com.apple.samples.cloudkit.PrivateSync"]),
        Verdict(fixture: "andrewcbancroft-BlogIdeaList", targets: ["BlogIdeaList"],
                containers: ["BlogIdeaList": "iCloud.com.andrewcbancroft.BlogIdeaList"]),
        // iCloud Documents on macOS and iOS, a CocoaPods workspace whose Pods project and xcconfig files are not committed.
        Verdict(fixture: "glushchenko-fsnotes", targets: ["FSNotes (iCloud)", "FSNotes iOS", "FSNotes iOS Share Extension"],
                containers: ["FSNotes (iCloud)": "iCloud.co.fluder.fsnotes", "FSNotes iOS": "iCloud.co.fluder.fsnotes",
                             "FSNotes iOS Share Extension": "iCloud.co.fluder.fsnotes"],
                warnings: ["FSNotes (iCloud)|container.xcconfig", "FSNotes iOS|container.xcconfig", "FSNotes iOS Share Extension|container.xcconfig"]),
        Verdict(fixture: "kvn8888-OpenFoodJournal", targets: ["OpenFoodJournal"], containers: ["OpenFoodJournal": "iCloud.k3vnc.OpenFoodJournal"]),
        Verdict(fixture: "apple-sample-cloudkit-encryption", targets: ["Encryption"],
                containers: ["Encryption": "iCloud.com.apple.samples.cloudkit.encryption"], warnings: ["Encryption|container.backgroundModes"]),
        Verdict(fixture: "nikolouzos-VentureLens", targets: [], containers: [:], failures: ["-|container.project"]),
        // The container is built by a function at run time: CloudKit code that cannot be verified.
        Verdict(fixture: "DUZHENGZHI-Diary", targets: ["Diary"], containers: ["Diary": "iCloud.kevinzhow.Diary.sync"],
                warnings: ["Diary|container.xcconfig", "Diary|container.swiftSources", "Diary|container.apsEnvironment",
                           "Diary|container.backgroundModes"]),
        Verdict(fixture: "crachel-Datapulter", targets: ["Datapulter"], containers: ["Datapulter": "iCloud.com.craigrachel.datapulter"],
                warnings: ["Datapulter|container.backgroundModes"]),
        Verdict(fixture: "Riddhi-mi-CloudKitDemo", targets: ["DemoCloudKit"], containers: ["DemoCloudKit": "iCloud.com.mi.all"],
                warnings: ["DemoCloudKit|container.backgroundModes"]),
        // A local package added by path: the container passed as an argument to its parameter.
        // The store is SwiftData's `.automatic`, set up in the local package NebularNewsKit; the
        // container is not named after the bundle id (information, not a warning).
        Verdict(fixture: "TaylorFinklea-nebularnews-ios", targets: ["NebularNews"], containers: ["NebularNews": "iCloud.com.nebularnews"]),
        // Debug signs with a .dev container the code never names: the development build fails.
        // The container is the one key of the Info.plist's NSUbiquitousContainers, read at run time by
        // the package the app links; the extension links it without iCloud and is not judged.
        Verdict(fixture: "Provenance-Emu-Provenance", targets: ["Provenance"],
                containers: ["Provenance": "iCloud.org.provenance-emu.provenance"]),
        Verdict(fixture: "Presidentty1-nestling-care-log", targets: ["Nuzzle"], containers: ["Nuzzle": "iCloud.com.nestling.app"],
                warnings: ["Nuzzle|container.apsEnvironment", "Nuzzle|container.backgroundModes"],
                failures: ["Nuzzle|container.swiftSources"]),
        Verdict(fixture: "kellyhuberty-CloudKitSynchronizer", targets: ["CloudKitSynchronizerAppPkg", "CloudKitSynchronizerAppPod"],
                containers: ["CloudKitSynchronizerAppPkg": "iCloud.com.kellyhuberty.CloudKitSynchronizer",
                             "CloudKitSynchronizerAppPod": "iCloud.com.kellyhuberty.CloudKitSynchronizer"],
                warnings: ["CloudKitSynchronizerAppPkg|container.backgroundModes", "CloudKitSynchronizerAppPod|container.xcconfig",
                           "CloudKitSynchronizerAppPod|container.backgroundModes"]),
        Verdict(fixture: "reich452-12amCloudKit2", targets: ["12a.m."], containers: ["12a.m.": "iCloud.com.wesstpeak.12am.com"],
                warnings: ["12a.m.|container.backgroundModes"]),
        // Two projects at the root (the app's, and the framework's it links): doctor asks for one.
        Verdict(fixture: "fer0n-Unwatched", targets: [], containers: [:], failures: ["-|container.project"]),
        // Only frameworks at the root: the example app beside it is named.
        Verdict(fixture: "caiyue1993-IceCream", targets: [], containers: [:], failures: ["-|container.project"]),
        // The app's own project: the container is right; family codes are looked up in the private database.
        Verdict(fixture: "tafmawere-TribeBoard", targets: ["TribeBoard"], containers: ["TribeBoard": "iCloud.net.dataenvy.TribeBoard"],
                warnings: ["TribeBoard|container.backgroundModes"], failures: ["-|container.familyLookup"]),
        // Objective-C: the container is named in iCloudService.m; the Pods xcconfig files are not committed.
        Verdict(fixture: "shenruisi-Stay", targets: ["Stay", "Stay-Mac"],
                containers: ["Stay": "iCloud.app.stay.icloud.library", "Stay-Mac": "iCloud.app.stay.icloud.library"],
                warnings: ["Stay|container.xcconfig", "Stay|container.backgroundModes", "Stay-Mac|container.xcconfig",
                           "Stay-Mac|container.backgroundModes"]),
        // The watch widget compiles the shared diagnostics file without iCloud: a warning, not a failure.
        Verdict(fixture: "schmidtwmark-BetterBlue", targets: ["BetterBlue", "BetterBlueWatch Watch App", "WatchWidgetExtension", "WidgetExtension"],
                containers: ["BetterBlue": "iCloud.com.markschmidt.BetterBlue", "WidgetExtension": "iCloud.com.markschmidt.BetterBlue"],
                warnings: ["WatchWidgetExtension|container.entitlements", "WatchWidgetExtension|container.swiftSources"]),
    ]

    static func run(_ fixture: String, target: String? = nil) -> [DoctorCheck] {
        ContainerChecks(projectPath: DoctorFixtures.project("real/\(fixture)"), targetFilter: target, toolkit: nil).run()
            .filter { $0.id != .containerToolkit }
    }

    @Test(arguments: verdicts)
    func theVerdictASupportEngineerGives(_ verdict: Verdict) throws {
        let checks = Self.run(verdict.fixture)
        let key = { (check: DoctorCheck) in "\(check.target ?? "-")|\(check.id)" }
        #expect(Set(checks.filter { $0.status == .failure }.map(key)) == verdict.failures, "\(checks.filter { $0.status == .failure })")
        #expect(Set(checks.filter { $0.status == .warning }.map(key)) == verdict.warnings, "\(checks.filter { $0.status == .warning })")
        var judged: [String] = []
        for check in checks { if let target = check.target, !judged.contains(target) { judged.append(target) } }
        #expect(judged == verdict.targets)
        for (target, container) in verdict.containers {
            let listed = try #require(checks.first { $0.target == target && $0.id == .containerEntitlementContainers })
            #expect(listed.found.contains(container), "\(target): \(listed.found)")
        }
        for check in checks where check.status == .failure {
            #expect(!check.found.contains("$(") && !(check.action ?? "").contains("$("), "no raw variable in a failure: \(check)")
        }
    }

    @Test func everyFixtureSaysWhereItComesFrom() throws {
        #expect(Set(Self.verdicts.map(\.fixture)) == Set(DoctorVariationTests.fixtures), "every fixture on disk has its verdict here")
        for verdict in Self.verdicts {
            let source = try String(contentsOfFile: DoctorFixtures.project("real/\(verdict.fixture)") + "/SOURCE.md", encoding: .utf8)
            #expect(source.contains("github.com/") && source.range(of: "[0-9a-f]{40}", options: .regularExpression) != nil, "\(verdict.fixture)")
        }
    }

    @Test func netNewsWireSettingsComeFromItsXcconfigFilesThroughIncludes() throws {
        let checks = Self.run("Ranchero-Software-NetNewsWire", target: "NetNewsWire-iOS")
        let bundleID = try #require(checks.first { $0.id == .containerBundleID })
        // $(ORGANIZATION_IDENTIFIER).NetNewsWire.iOS$(BUNDLE_ID_SUFFIX), both set in #included files, the suffix per configuration.
        #expect(bundleID.found.contains("com.ranchero.NetNewsWire.iOS (Release, xcconfig/NetNewsWire_iOSapp_target.xcconfig:8)"))
        #expect(bundleID.found.contains("com.ranchero.NetNewsWire.iOS-DEBUG (Debug"))
        #expect(checks.allSatisfy { $0.target == nil || $0.target == "NetNewsWire-iOS" }, "--target narrows")
        let entitlements = try #require(checks.first { $0.id == .containerEntitlementContainers })
        #expect(entitlements.found.contains("iCloud.com.ranchero.NetNewsWire (iOS/Resources/NetNewsWire.entitlements:11)"),
                "iCloud.$(ORGANIZATION_IDENTIFIER).NetNewsWire expanded")
    }

    @Test func aSharedContainerIsInformationNotAFailure() throws {
        let checks = Self.run("rasmuslos-SatelliteGuard")
        let app = try #require(checks.first { $0.target == "WireGuardExtension" && $0.id == .containerEntitlementContainers })
        #expect(app.status == .ok)
        #expect(app.found.contains("iCloud.SatelliteGuard is not named after the bundle id io.rfk.SatelliteGuard.WireGuardExtension: Apple allows this"))
        let code = try #require(checks.first { $0.target == "WireGuardExtension" && $0.id == .containerSwiftSources })
        #expect(code.status == .ok && code.found.contains("iCloud.SatelliteGuard (SatelliteGuardKit/Sources/SGPersistence/PersistenceManager.swift:47"),
                "code in a local package the target links is the target's code")
        let aps = try #require(checks.first { $0.id == .containerApsEnvironment })
        #expect(aps.found.contains("Debug (macosx): com.apple.developer.aps-environment missing (aps-environment is the iOS key)"))
        #expect(!aps.found.contains("iphoneos"), "the iOS builds have the iOS key")
    }

    @Test func aContainerTheEntitlementsDoNotListIsTheFailureItShouldBe() throws {
        let check = try #require(Self.run("aguilarcarboni-storage").first { $0.id == .containerSwiftSources })
        #expect(check.target == "storage" && check.status == .failure)
        #expect(check.found.contains("iCloud.com.aguilarcarboni.media (storage/Services/CloudKitManager.swift:23, CKContainer(identifier:)) is not in the entitlements of storage"))
        #expect(check.locations == [SourceLocation(path: "storage/Services/CloudKitManager.swift", line: 23)])
        #expect(check.action?.contains("or name one they list: iCloud.com.aguilarcarboni.storage:") == true)
    }

    /// HardPhaseTracker passes its container as its own `iCloudContainerId:` argument.
    @Test func aContainerPassedAsTheAppsOwnArgumentIsRead() throws {
        let check = try #require(Self.run("GordonBeeming-HardPhaseTracker").first { $0.id == .containerSwiftSources })
        #expect(check.status == .ok)
        #expect(check.found.contains("iCloud.com.gordonbeeming.HardPhaseTracker (HardPhaseTracker/App/HardPhaseTrackerApp.swift:34, ModelConfiguration cloudKitDatabase: .private via iCloudContainerId (HardPhaseTracker/Shared/SwiftData/AppModelContainerProvider.swift:136))"), "\(check.found)")
    }

    /// On a real project: WWDC's app owns one synchronized folder; the Helpers folder's
    /// exception set adds LiveObserver.swift to it, whose CKContainer.default() is the app's code.
    @Test func filesAnExceptionSetAddsAreReadOnWWDC() throws {
        let check = try #require(Self.run("insidegui-WWDC").first { $0.id == .containerSwiftSources })
        #expect(check.target == "WWDC")
        #expect(check.locations.contains(SourceLocation(path: "WWDC/Helpers/LiveObserver.swift", line: 171)), "\(check.locations)")
    }

    /// On real projects: SDKROOT auto is never an SDK; an iCloud Documents container is
    /// never offered to the toolkit.
    @Test func sdkrootAutoAndDocumentsContainersReadAsWhatTheyAre() throws {
        let yattee = Self.run("yattee-yattee", target: "Yattee")
        let bundleID = try #require(yattee.first { $0.id == .containerBundleID })
        #expect(bundleID.found.contains("Debug (appletvos), Debug (iphoneos), Debug (macosx)") && !bundleID.found.contains("auto"))
        for fixture in ["coteditor-CotEditor", "TortugaPower-BookPlayer", "glushchenko-fsnotes"] {
            let checks = ContainerChecks(projectPath: DoctorFixtures.project("real/\(fixture)"),
                                         toolkit: ToolkitContainer(value: "iCloud.com.example.Toolkit", source: "--container")).run()
            let toolkit = try #require(checks.first { $0.id == .containerToolkit })
            #expect(toolkit.status == .failure && !(toolkit.action ?? "").contains("iCloud.co"), "\(fixture): \(toolkit)")
            #expect(toolkit.found.contains("no CloudKit container"), "\(fixture): \(toolkit.found)")
        }
    }

    @Test func generatorFoldersAskForTheGeneratedProject() throws {
        let xcodegen = try #require(Self.run("kiwix-kiwix-apple").first)
        #expect(xcodegen.action == "run `xcodegen generate`, then pass --project the folder again")
        let tuist = try #require(Self.run("marriagav-taskchamp").first)
        #expect(tuist.found.hasSuffix("holds Project.swift but no generated .xcodeproj: run `tuist generate` there first"))
        // A Tuist 4 root (no Project.swift there) was "no project in the folder".
        let tuist4 = try #require(Self.run("nikolouzos-VentureLens").first)
        #expect(tuist4.found.hasSuffix("holds Workspace.swift but no generated .xcodeproj: run `tuist generate` there first"), "\(tuist4.found)")
        #expect(tuist4.action == "run `tuist generate`, then pass --project the folder again")
    }
}
