import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// The toolkit's container against the app as it runs, and `--project` advice that runs as printed.
/// Each test is one change to the app's own project (Tests/Fixtures/doctor/real/tafmawere-TribeBoard).
@Suite("Doctor: the toolkit's container and the project to read")
struct DoctorToolkitContainerTests {
    static let app = "real/tafmawere-TribeBoard"
    static let entitlements = "TribeBoard/TribeBoard.entitlements"
    static let production = "iCloud.net.dataenvy.TribeBoard"

    static func toolkitCheck(_ path: String, _ container: String) throws -> DoctorCheck {
        let checks = ContainerChecks(projectPath: path, toolkit: ToolkitContainer(value: container, source: "--container")).run()
        return try #require(checks.first { $0.id == .containerToolkit })
    }

    /// A test container left in the entitlements is listed, but the app's code names only the
    /// production one: records written to the test container are never read by the app.
    @Test func aContainerListedButNeverUsedByTheCodeFails() throws {
        let variant = try DoctorVariant(Self.app)
        try variant.edit(Self.entitlements, replacing: "<string>\(Self.production)</string>",
                         with: "<string>\(Self.production)</string>\n\t\t<string>\(Self.production).test</string>")
        let test = try Self.toolkitCheck(variant.path, Self.production + ".test")
        #expect(test.status == .failure, "\(test)")
        #expect(test.found.contains("the app's code uses only \(Self.production)"), "\(test.found)")
        #expect(test.action?.contains("to the container the code uses, \(Self.production):") == true, "\(test.action ?? "")")
        let production = try Self.toolkitCheck(variant.path, Self.production)
        #expect(production.status == .ok && production.found.hasSuffix("and used by the app's code"), "\(production)")
    }

    /// Two projects that Xcode can open and one bundle left without its project file: only the two
    /// are offered, each as a `--project` that finds it when passed as printed.
    @Test func severalProjectsAreOfferedAsOptionsThatRun() throws {
        let variant = try DoctorVariant(Self.app)
        let bundle = variant.file("TribeBoard.xcodeproj")
        try FileManager.default.copyItem(atPath: bundle, toPath: variant.file("Copy of TribeBoard.xcodeproj"))
        try FileManager.default.createDirectory(atPath: variant.file("Old.xcodeproj/xcshareddata"), withIntermediateDirectories: true)
        let checks = ContainerChecks(projectPath: variant.path, toolkit: nil).run()
        let project = try #require(checks.first { $0.id == .containerProject })
        #expect(project.found.hasSuffix("holds several projects: Copy of TribeBoard.xcodeproj, TribeBoard.xcodeproj"), "\(project.found)")
        let action = try #require(project.action)
        let quotedCopy = "--project '\(variant.path)/Copy of TribeBoard.xcodeproj'"
        #expect(action == "pass --project one of them: \(quotedCopy) or --project \(variant.path)/TribeBoard.xcodeproj", "\(action)")
        for offered in ["Copy of TribeBoard.xcodeproj", "TribeBoard.xcodeproj"] {
            #expect(try ProjectLocation.locate(variant.file(offered)).bundles == [variant.file(offered)])
        }
    }

    /// A project one folder down beside a leftover bundle with no project file is found, and the
    /// leftover named as left out, instead of both offered as choices.
    @Test func aLeftoverBundleBelowDoesNotCompete() throws {
        let variant = try DoctorVariant(Self.app)
        let ios = variant.file("ios")
        try FileManager.default.createDirectory(atPath: ios, withIntermediateDirectories: true)
        for entry in try FileManager.default.contentsOfDirectory(atPath: variant.path) where entry != "ios" {
            try FileManager.default.moveItem(atPath: variant.file(entry), toPath: ios + "/" + entry)
        }
        try FileManager.default.createDirectory(atPath: variant.file("legacy/Old.xcodeproj/xcshareddata"), withIntermediateDirectories: true)
        let location = try ProjectLocation.locate(variant.path)
        #expect(location.bundles == [ios + "/TribeBoard.xcodeproj"])
    }
}
