import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardCloudKit
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// Section 1: the app's identifiers read from Xcode-like fixtures, as support staff would see them.
@Suite("Doctor: container configuration")
struct DoctorProjectTests {
    func checks(_ fixture: String, container: String = CloudKitConfiguration.defaultContainer,
                source: String = "the default") -> [String: DoctorCheck] {
        let checks = ContainerChecks(projectPath: DoctorFixtures.project(fixture),
                                     toolkit: ToolkitContainer(value: container, source: source)).run()
        return Dictionary(checks.map { ($0.id.rawValue, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theCorrectProjectPassesEveryCheck() {
        let checks = checks("correct")
        #expect(checks.values.allSatisfy { $0.status == .ok }, "\(checks.values.filter { $0.status != .ok })")
        #expect(checks["container.bundleID"]?.found.contains("net.dataenvy.TribeBoard (Debug, Release") == true,
                "$(PRODUCT_NAME) in the Release bundle id resolves to the target name")
        #expect(checks["container.entitlementContainers"]?.found.contains("iCloud.net.dataenvy.TribeBoard.test") == true,
                "$(CFBundleIdentifier).test is the allowed test container")
        #expect(checks["container.backgroundModes"]?.found.contains("TribeBoard/Info.plist:10") == true)
        #expect(checks["container.swiftSources"]?.locations.count == 2, "the comment's old identifier is not code")
    }

    @Test func theOldIdentifierInASwiftSourceNamesBothValuesAndTheirLines() throws {
        let check = try #require(checks("wrong-identifier")["container.swiftSources"])
        #expect(check.status == .failure)
        #expect(check.found.contains("iCloud.com.tribeboard.TribeBoard (TribeBoard/CloudKitService.swift:6, CKContainer(identifier:))"))
        // The rule: a container the code names must be in the target's own entitlements (the old
        // test expected "does not match iCloud.<bundle id>"; the issue showed that rule to be wrong).
        #expect(check.found.contains("is not in the entitlements of TribeBoard: Debug lists iCloud.net.dataenvy.TribeBoard"))
        #expect(check.target == "TribeBoard")
        #expect(check.action?.contains("or name one they list: iCloud.net.dataenvy.TribeBoard, iCloud.net.dataenvy.TribeBoard.test") == true)
        #expect(check.locations == [SourceLocation(path: "TribeBoard/CloudKitService.swift", line: 6)])
    }

    /// A container not named after the bundle id is information (Apple
    /// allows it); what fails is the toolkit writing to a container the app does not list.
    @Test func aContainerNotNamedAfterTheBundleIDIsInformationButTheToolkitMustUseAListedOne() throws {
        let checks = checks("mismatched-entitlements")
        let listed = try #require(checks["container.entitlementContainers"])
        #expect(listed.status == .ok)
        #expect(listed.found.contains("iCloud.com.tribeboard.TribeBoard (TribeBoard/TribeBoard.entitlements:9)"))
        #expect(listed.found.contains("iCloud.com.tribeboard.TribeBoard is not named after the bundle id net.dataenvy.TribeBoard: Apple allows this"))
        let toolkit = try #require(checks["container.toolkit"])
        #expect(toolkit.status == .failure)
        #expect(toolkit.found.contains("iCloud.net.dataenvy.TribeBoard (from the default) is not among the containers the project's entitlements list"))
        #expect(toolkit.action?.contains("one of iCloud.com.tribeboard.TribeBoard, iCloud.net.dataenvy.TribeBoard.test") == true)
    }

    @Test func aMissingEntitlementsFileNamesTheSettingThatPointsAtIt() throws {
        let checks = checks("missing-entitlements")
        let check = try #require(checks["container.entitlements"])
        #expect(check.status == .failure)
        #expect(check.found.contains("TribeBoard/TribeBoard.entitlements, named by CODE_SIGN_ENTITLEMENTS at TribeBoard.xcodeproj/project.pbxproj:80"))
        #expect(check.found.contains("the file does not exist"))
        // The target has no CloudKit code, so this is a build problem (the path), not iCloud advice.
        #expect(check.target == "TribeBoard")
        #expect(check.action?.contains("CODE_SIGN_ENTITLEMENTS name the file") == true && check.action?.contains("iCloud") == false, "\(check.action ?? "")")
        #expect(check.found.contains("a build problem"))
        #expect(checks["container.swiftSources"] == nil && checks["container.entitlementContainers"] == nil, "not judged as a CloudKit target")
        #expect(checks["container.project"]?.found.contains("CloudKit targets none") == true)
    }

    @Test func theToolkitsOwnContainerMustMatchTheProjects() throws {
        let check = try #require(checks("correct", container: "iCloud.com.tribeboard.TribeBoard", source: "--container")["container.toolkit"])
        #expect(check.status == .failure)
        #expect(check.found.contains("iCloud.com.tribeboard.TribeBoard (from --container) is not among the containers the project's entitlements list: iCloud.net.dataenvy.TribeBoard"))
        // Listed, but the app's code names only the production container: nothing written there is read.
        #expect(checks("correct", container: "iCloud.net.dataenvy.TribeBoard.test")["container.toolkit"]?.status == .failure)
        #expect(checks("correct", container: "iCloud.net.dataenvy.TribeBoard")["container.toolkit"]?.status == .ok)
    }

    @Test func withoutAProjectOnlyTheToolkitsContainerIsChecked() {
        let checks = ContainerChecks(projectPath: nil, toolkit: ToolkitContainer(value: "iCloud.other", source: "TRIBEBOARD_CK_CONTAINER")).run()
        #expect(checks.map(\.status) == [.warning, .failure])
        #expect(checks.last?.found.contains("net.dataenvy.TribeBoard") == true)
    }

    @Test func aMissingOrEmptyProjectFolderIsAFailureNotACrash() throws {
        let folder = try TemporaryDirectory("doctor-project")
        for path in [folder.path, folder.file("nope"), folder.file("Broken.xcodeproj")] {
            let first = ContainerChecks(projectPath: path, toolkit: nil).run().first
            #expect(first?.status == .failure, "\(path)")
        }
    }

    @Test func garbageProjectFilesAreFindingsNeverCrashes() throws {
        let folder = try TemporaryDirectory("doctor-garbage")
        let original = try String(contentsOfFile: DoctorFixtures.project("correct") + "/TribeBoard.xcodeproj/project.pbxproj", encoding: .utf8)
        try FileManager.default.createDirectory(atPath: folder.file("App.xcodeproj"), withIntermediateDirectories: true)
        // Every prefix of a real file, plus noise: each parses or fails with a line, and doctor reports it.
        for length in stride(from: 0, to: original.utf8.count, by: 97) {
            let text = String(decoding: Array(original.utf8).prefix(length), as: UTF8.self)
            try folder.write("App.xcodeproj/project.pbxproj", text)
            _ = ContainerChecks(projectPath: folder.path, toolkit: nil).run()
        }
        try folder.write("App.xcodeproj/project.pbxproj", "{ objects = { a = { isa = \"unterminated; }; }")
        let checks = ContainerChecks(projectPath: folder.path, toolkit: nil).run()
        #expect(checks.first?.status == .failure)
        #expect(checks.first?.found.contains("project.pbxproj:1") == true)
        #expect(throws: OpenStepPlistError.self) { try OpenStepPlist.parse(String(repeating: "(", count: 10_000)) }
    }
}
