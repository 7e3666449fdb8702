import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// Public projects read by hand (SOURCE.md beside each fixture), each with the one-line change that
/// must then fail: a container read from the Info.plist at run time as the key of a dictionary, and a
/// repository root holding a `.xcodeproj` folder that is no project.
/// The container checks of one project, and one of them: the compiled-code suite's helpers.
private typealias Shared = DoctorCompiledCodeTests

@Suite("Doctor: containers read at run time, and roots Xcode would open")
struct DoctorRuntimeContainerTests {

    static let provenance = "real/Provenance-Emu-Provenance"

    /// `(Bundle.main.infoDictionary?["NSUbiquitousContainers"] as? [String: AnyObject])?.keys.first`:
    /// the Info.plist sets that key as a dictionary keyed by the container.
    @Test func aContainerReadAsTheKeyOfAnInfoPlistDictionaryIsChecked() throws {
        let checks = Shared.run(DoctorFixtures.project(Self.provenance))
        let code = try Shared.check(checks, "Provenance", .containerSwiftSources)
        #expect(code.status == .ok, "\(code.found)")
        #expect(code.found.contains("iCloud.org.provenance-emu.provenance (PVLibrary/Sources/PVLibrary/Cloud Sync/iCloud/iCloudConstants.swift:7"),
                "\(code.found)")
        #expect(!code.found.contains("does not set"), "\(code.found)")
        // The extension links the package without iCloud: linked code alone never makes it a CloudKit target.
        #expect(!checks.contains { $0.target == "Spotlight" }, "\(checks.filter { $0.target == "Spotlight" })")
        #expect(!checks.contains { $0.status == .failure }, "\(checks.filter { $0.status == .failure })")
    }

    @Test func anotherContainerInTheInfoPlistDictionaryFailsTheApp() throws {
        let other = try DoctorVariant(Self.provenance)
        try other.edit("Provenance/Provenance-Info.plist", replacing: "<key>iCloud.org.provenance-emu.provenance</key>",
                       with: "<key>iCloud.org.provenance-emu.other</key>")
        let failed = try Shared.check(Shared.run(other.path), "Provenance", .containerSwiftSources)
        #expect(failed.status == .failure && failed.found.contains("iCloud.org.provenance-emu.other"), "\(failed.found)")
    }

    /// The repository leaves `CodeSigning.xcconfig` out; a developer copies the sample, with their own
    /// `ORG_IDENTIFIER`, as the README says: the entitlements follow it, the Info.plist's literal key
    /// does not, and the app asks at run time for a container its entitlements no longer list.
    @Test func theLeftOutXcconfigFilledInAsDocumentedFailsTheApp() throws {
        let own = try DoctorVariant(Self.provenance)
        #expect(FileManager.default.createFile(atPath: own.file("CodeSigning.xcconfig"),
                                               contents: Data("DEVELOPMENT_TEAM = XYZ0123456\nORG_IDENTIFIER = com.myuniquename\n".utf8)))
        let checks = Shared.run(own.path)
        let listed = try Shared.check(checks, "Provenance", .containerEntitlementContainers)
        #expect(listed.found.contains("iCloud.com.myuniquename.provenance"), "\(listed.found)")
        let failed = try Shared.check(checks, "Provenance", .containerSwiftSources)
        #expect(failed.status == .failure && failed.found.contains("iCloud.org.provenance-emu.provenance"), "\(failed.found)")
    }

    /// Two keys: which one `keys.first` takes depends on the dictionary's order at run time.
    @Test func twoContainersInTheInfoPlistDictionaryCannotBeVerified() throws {
        let two = try DoctorVariant(Self.provenance)
        try two.edit("Provenance/Provenance-Info.plist", replacing: "<key>NSUbiquitousContainers</key>\n\t<dict>",
                     with: "<key>NSUbiquitousContainers</key>\n\t<dict>\n\t\t<key>iCloud.org.provenance-emu.other</key>\n\t\t<dict/>")
        let warned = try Shared.check(Shared.run(two.path), "Provenance", .containerSwiftSources)
        #expect(warned.status == .warning, "\(warned.found)")
        #expect(warned.found.contains("iCloud.org.provenance-emu.other, iCloud.org.provenance-emu.provenance in no fixed order"),
                "\(warned.found)")
    }

    /// `….keys.first ?? defaultProvenanceContainerIdentifier`: where the Info.plist does not set the
    /// key (Provenance's watch app has no Info.plist file), the container is the code's fallback.
    @Test func anInfoPlistThatLeavesTheKeyOutGivesTheCodesFallback() throws {
        let unset = try DoctorVariant(Self.provenance)
        try unset.edit("Provenance/Provenance-Info.plist", replacing: "<key>NSUbiquitousContainers</key>",
                       with: "<key>NSUbiquitousContainersLeftOut</key>")
        let code = try Shared.check(Shared.run(unset.path), "Provenance", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("iCloud.org.provenance-emu.provenance"), "\(code.found)")
        // The fallback names another container: the app asks for one its entitlements do not list.
        try unset.edit("PVLibrary/Sources/PVLibrary/Cloud Sync/iCloud/iCloudConstants.swift",
                       replacing: "defaultProvenanceContainerIdentifier = \"iCloud.org.provenance-emu.provenance\"",
                       with: "defaultProvenanceContainerIdentifier = \"iCloud.org.provenance-emu.fallback\"")
        let failed = try Shared.check(Shared.run(unset.path), "Provenance", .containerSwiftSources)
        #expect(failed.status == .failure && failed.found.contains("iCloud.org.provenance-emu.fallback"), "\(failed.found)")
    }

    static let syncKit = "roots/mentrena-SyncKit"

    /// The example app hands its development pod (`pod 'SyncKit/CoreData', :path => '../../'`) a
    /// placeholder, of which the pod makes `CKContainer(identifier: containerName)`.
    @Test func aPlaceholderContainerPassedToADevelopmentPodFailsTheApp() throws {
        let variant = try DoctorVariant(Self.syncKit)
        let failed = try Shared.check(Shared.run(variant.file("Example/CoreData")), "SyncKitCoreDataExample", .containerSwiftSources)
        #expect(failed.status == .failure && failed.found.contains("your-iCloud-container"), "\(failed.found)")
        #expect(failed.locations.contains(SourceLocation(path: "SyncKitCoreDataExample/SyncKitCoreDataExample/AppDelegate.swift", line: 6)),
                "\(failed.locations)")
        // The pod's line, outside the folder doctor was given, is named from there.
        #expect(failed.found.contains("(../../SyncKit/Classes/CoreData/CloudKitSynchronizer+CoreData.swift:7))"), "\(failed.found)")
        // The placeholder replaced by the container the entitlements list: the app passes.
        try variant.edit("Example/CoreData/SyncKitCoreDataExample/SyncKitCoreDataExample/AppDelegate.swift",
                         replacing: "\"your-iCloud-container\"", with: "\"iCloud.com.mentrena.SyncKitCoreDataExample\"")
        let passed = try Shared.check(Shared.run(variant.file("Example/CoreData")), "SyncKitCoreDataExample", .containerSwiftSources)
        #expect(passed.status == .ok && passed.found.contains("iCloud.com.mentrena.SyncKitCoreDataExample"), "\(passed.found)")
    }

    static let habitTracker = "roots/TinkyFirst-HabitTracker"

    @Test func aXcodeprojFolderWithoutItsProjectFileIsLeftOut() throws {
        let root = DoctorFixtures.project(Self.habitTracker)
        let location = try ProjectLocation.locate(root)
        #expect(location.bundles.map { ($0 as NSString).lastPathComponent } == ["group.trackhabit.xcodeproj"])
        #expect(location.notes.contains("TrackHabit.xcodeproj has no project.pbxproj (not a project): left out"), "\(location.notes)")
        let checks = Shared.run(root)
        let project = try Shared.check(checks, nil, .containerProject)
        #expect(project.status == .ok && project.found.contains("left out"), "\(project.found)")
        // The app's entitlements file is empty: a build problem, named as such.
        let entitlements = try Shared.check(checks, "group.trackhabit", .containerEntitlements)
        #expect(entitlements.status == .failure && entitlements.found.contains("not a property list"), "\(entitlements.found)")
        // `.automatic` with no container anywhere: a local store, the widget not checked.
        #expect(!checks.contains { $0.target == "HabitWidgetExtension" })
    }

    @Test func twoWholeProjectsAtTheRootStillAskForOne() throws {
        let two = try DoctorVariant(Self.habitTracker)
        try FileManager.default.copyItem(atPath: two.file("group.trackhabit.xcodeproj/project.pbxproj"),
                                         toPath: two.file("TrackHabit.xcodeproj/project.pbxproj"))
        #expect(throws: XcodeProjectError.severalProjects(path: two.path, projects: ["TrackHabit.xcodeproj", "group.trackhabit.xcodeproj"])) {
            try ProjectLocation.locate(two.path)
        }
    }
}
