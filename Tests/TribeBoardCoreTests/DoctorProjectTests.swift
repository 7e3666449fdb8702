import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardCore

/// Section 1: the app's identifiers read from Xcode-like fixtures, as support staff would see them.
@Suite("Doctor: container configuration")
struct DoctorProjectTests {
    func checks(_ fixture: String, container: String = CloudKitConfiguration.defaultContainer,
                source: String = "the default") -> [String: DoctorCheck] {
        let checks = ContainerChecks(projectPath: DoctorFixtures.project(fixture),
                                     toolkit: ToolkitContainer(value: container, source: source)).run()
        return Dictionary(checks.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func theCorrectProjectPassesEveryCheck() {
        let checks = checks("correct")
        #expect(checks.values.allSatisfy { $0.status == .ok }, "\(checks.values.filter { $0.status != .ok })")
        #expect(checks["container.bundleID"]?.found.contains("Release: net.dataenvy.TribeBoard") == true,
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
        #expect(check.found.contains("iCloud.net.dataenvy.TribeBoard"))
        #expect(check.found.contains("TribeBoard.xcodeproj/project.pbxproj:85, Debug"))
        #expect(check.locations == [SourceLocation(path: "TribeBoard/CloudKitService.swift", line: 6)])
    }

    @Test func aMismatchedEntitlementsFileNamesTheEntryAndTheBundleID() throws {
        let check = try #require(checks("mismatched-entitlements")["container.entitlementContainers"])
        #expect(check.status == .failure)
        #expect(check.found.contains("iCloud.com.tribeboard.TribeBoard (TribeBoard/TribeBoard.entitlements:9) does not match iCloud.net.dataenvy.TribeBoard"))
        #expect(check.found.contains("project.pbxproj:99, Release"))
    }

    @Test func aMissingEntitlementsFileNamesTheSettingThatPointsAtIt() throws {
        let checks = checks("missing-entitlements")
        let check = try #require(checks["container.entitlements"])
        #expect(check.status == .failure)
        #expect(check.found.contains("TribeBoard/TribeBoard.entitlements, named by CODE_SIGN_ENTITLEMENTS at TribeBoard.xcodeproj/project.pbxproj:80"))
        #expect(check.found.contains("does not exist"))
        #expect(checks["container.swiftSources"]?.status == .ok, "the other checks still run")
    }

    @Test func theToolkitsOwnContainerMustMatchTheProjects() throws {
        let check = try #require(checks("correct", container: "iCloud.com.tribeboard.TribeBoard", source: "--container")["container.toolkit"])
        #expect(check.status == .failure)
        #expect(check.found.contains("iCloud.com.tribeboard.TribeBoard (from --container) does not match iCloud.net.dataenvy.TribeBoard"))
        #expect(checks("correct", container: "iCloud.net.dataenvy.TribeBoard.test")["container.toolkit"]?.status == .ok)
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

    @Test func theTokenizerKeepsLinesAcrossCommentsAndQuotedStrings() throws {
        let root = try OpenStepPlist.parse("""
            // !$*UTF8*$!
            {
            \t/* a comment
            \t   over two lines */
            \tname = "Tribe \\"Board\\"";
            \tlist = (a, "b c", <0fbd77>,);
            \tnested = { PRODUCT_BUNDLE_IDENTIFIER = net.dataenvy.TribeBoard; };
            }
            """)
        #expect(root.entry("name")?.line == 5)
        #expect(root["name"]?.string == "Tribe \"Board\"")
        #expect(root["list"]?.array?.compactMap(\.string) == ["a", "b c", "<0fbd77>"])
        #expect(root["nested"]?.entry("PRODUCT_BUNDLE_IDENTIFIER")?.line == 7)
    }

    @Test func swiftLiteralsOutsideCommentsWithTheirCalls() {
        let source = """
            /* CKContainer(identifier: "iCloud.in.a.block.comment") /* nested */ still comment */
            let a = "not \\("iCloud.interpolated")"
            let b = ModelConfiguration(schema: schema,
                                       cloudKitDatabase: .private("iCloud.net.dataenvy.TribeBoard"))
            let c = CKContainer(identifier: "iCloud.com.tribeboard.TribeBoard") // "iCloud.trailing.comment"
            let d = \"\"\"
                "iCloud.inside.a.multiline.string"
                \"\"\"
            let e = "iCloud.net.dataenvy.TribeBoard.test"
            """
        let literals = SwiftContainerLiterals.literals(in: Array(source.utf8), path: "A.swift")
        #expect(literals.map(\.value) == ["iCloud.net.dataenvy.TribeBoard", "iCloud.com.tribeboard.TribeBoard", "iCloud.net.dataenvy.TribeBoard.test"])
        #expect(literals.map(\.context) == [.modelConfiguration, .ckContainer, .other])
        #expect(literals.map(\.location.line) == [4, 5, 9])
    }
}
