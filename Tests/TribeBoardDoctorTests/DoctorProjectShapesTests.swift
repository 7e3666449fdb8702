import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject
#if canImport(Glibc)
import Glibc
#endif

/// Projects as people hand them over:
/// every way of naming a container, links, half-committed generated projects, merge conflicts,
/// Windows line endings, a FIFO. Each is one change to `Tests/Fixtures/doctor/correct`.
@Suite("Doctor: project shapes and spellings")
struct DoctorProjectShapesTests {
    static let swift = "TribeBoard/ModelContainerConfiguration.swift"
    static let pbxproj = "TribeBoard.xcodeproj/project.pbxproj"

    static func run(_ path: String, target: String? = nil, toolkit: ToolkitContainer? = nil) -> [DoctorCheck] {
        ContainerChecks(projectPath: path, targetFilter: target, toolkit: toolkit).run().filter { toolkit != nil || $0.id != .containerToolkit }
    }

    static func check(_ checks: [DoctorCheck], _ target: String?, _ id: String) -> DoctorCheck? {
        checks.first { $0.target == target && $0.id.rawValue == id }
    }

    /// Class 2 and the regression: `CKContainer.init(identifier:)` through another type's constant,
    /// with entitlements that list no container at all, was not seen, so the project passed.
    @Test func containerInitThroughAnotherTypesConstantIsSeen() throws {
        let variant = try DoctorVariant("correct")
        try variant.edit(Self.swift, replacing: "CKContainer(identifier: \"iCloud.net.dataenvy.TribeBoard\")", with: "CKContainer.init(identifier: Syncer.containerName)")
        try variant.write("TribeBoard/Syncer.swift", "enum Syncer {\n    static let containerName = \"iCloud.com.example.Elsewhere\"\n}\n")
        let sources = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("iCloud.com.example.Elsewhere (TribeBoard/Syncer.swift:2, CKContainer(identifier:) via Syncer.containerName (TribeBoard/ModelContainerConfiguration.swift:15))"))
        try variant.write("TribeBoard/TribeBoard.entitlements", DoctorProjectBuilder.entitlements(containers: [], services: []))
        try variant.edit(Self.swift, replacing: "cloudKitDatabase: .private(\"iCloud.net.dataenvy.TribeBoard\")", with: "cloudKitDatabase: .none")
        let bare = Self.run(variant.path)
        #expect(Self.check(bare, "TribeBoard", "container.swiftSources")?.status == .failure, "no icloud-container-identifiers at all: \(bare)")
    }

    @Test func theFullySpelledCloudKitDatabaseIsSeen() throws {
        let variant = try DoctorVariant("correct")
        try variant.edit(Self.swift, replacing: "cloudKitDatabase: .private(\"iCloud.net.dataenvy.TribeBoard\")",
                         with: "cloudKitDatabase: ModelConfiguration.CloudKitDatabase.private(\"iCloud.com.example.Spelled\")")
        let sources = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("iCloud.com.example.Spelled (TribeBoard/ModelContainerConfiguration.swift:11"))
    }

    /// Class 4: a CloudKit target whose entitlements file is missing gets the path advice too.
    @Test func aMissingEntitlementsFileIsABuildProblemNamedAsSuch() throws {
        let variant = try DoctorVariant("correct")
        try FileManager.default.removeItem(atPath: variant.file("TribeBoard/TribeBoard.entitlements"))
        let check = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.entitlements"))
        #expect(check.status == .failure)
        #expect(check.found.contains("TribeBoard/TribeBoard.entitlements, named by CODE_SIGN_ENTITLEMENTS at TribeBoard.xcodeproj/project.pbxproj:80: the file does not exist"))
        #expect(check.action?.hasPrefix("make CODE_SIGN_ENTITLEMENTS name the file") == true)
    }

    /// Class 5: a root `.xcodeproj` that links into a subfolder is read where it points.
    @Test func aSymlinkedProjectIsReadWhereItPoints() throws {
        let folder = try TemporaryDirectory("doctor-symlink")
        try FileManager.default.copyItem(atPath: DoctorFixtures.project("correct"), toPath: folder.file("ios"))
        try FileManager.default.createSymbolicLink(atPath: folder.file("TribeBoard.xcodeproj"), withDestinationPath: "ios/TribeBoard.xcodeproj")
        let checks = Self.run(folder.path)
        #expect(checks.allSatisfy { $0.status == .ok }, "\(checks.filter { $0.status != .ok })")
        #expect(Self.check(checks, "TribeBoard", "container.entitlements")?.found.contains("ios/TribeBoard/TribeBoard.entitlements") == true)
        #expect(Self.check(checks, nil, "container.project")?.found.contains("TribeBoard.xcodeproj is a link to ios/TribeBoard.xcodeproj: read there") == true)
    }

    /// Class 6 and the Tuist regression: generator manifests are named whatever else is committed.
    @Test func generatedProjectsAskForTheirGenerator() throws {
        let xcodegen = try TemporaryDirectory("doctor-xcodegen")
        try xcodegen.write("project.yml", "name: App\n")
        try FileManager.default.createDirectory(atPath: xcodegen.file("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm"), withIntermediateDirectories: true)
        try xcodegen.write("App.xcodeproj/project.xcworkspace/xcshareddata/swiftpm/Package.resolved", "{}\n")
        let partial = try #require(Self.run(xcodegen.path).first)
        #expect(partial.status == .failure && partial.action == "run `xcodegen generate`, then pass --project the folder again")
        #expect(partial.found.contains("App.xcodeproj holds no project.pbxproj (only part of the generated project is committed)"))
        for manifest in ["Workspace.swift", "Tuist.swift"] {
            let tuist = try TemporaryDirectory("doctor-tuist")
            try tuist.write(manifest, "import ProjectDescription\n")
            try FileManager.default.createDirectory(atPath: tuist.file("Projects/App"), withIntermediateDirectories: true)
            try tuist.write("Projects/App/Project.swift", "import ProjectDescription\n")
            let first = try #require(Self.run(tuist.path).first)
            #expect(first.action == "run `tuist generate`, then pass --project the folder again", "\(manifest): \(first.found)")
        }
    }

    /// Class 7: conflict markers are named with their line; Xcode cannot open the file either.
    @Test func mergeConflictMarkersAreNamedWithTheirLine() throws {
        let variant = try DoctorVariant("correct")
        try variant.edit(Self.pbxproj, replacing: "\t\tA50000000000000000000004 /* Release */ = {", with: "<<<<<<< HEAD\n\t\tA50000000000000000000004 /* Release */ = {")
        try variant.edit(Self.pbxproj, replacing: "/* End XCBuildConfiguration section */", with: "=======\n>>>>>>> feature\n/* End XCBuildConfiguration section */")
        let check = try #require(Self.run(variant.path).first)
        #expect(check.status == .failure)
        #expect(check.found.hasSuffix("TribeBoard.xcodeproj/project.pbxproj holds merge-conflict markers from line 91 on: Xcode cannot open it either"))
        #expect(check.action?.hasPrefix("resolve the merge conflict") == true)
    }

    /// A FIFO where project.pbxproj goes is named, and never opened for a blocking read.
    @Test func aFIFOAsTheProjectFileIsNamedWithoutHanging() async throws {
        let variant = try DoctorVariant("correct")
        try FileManager.default.removeItem(atPath: variant.file(Self.pbxproj))
        #expect(mkfifo(variant.file(Self.pbxproj), 0o644) == 0)
        let path = variant.path
        let result = await withTaskGroup(of: DoctorCheck?.self) { group in
            group.addTask { Self.run(path).first }
            group.addTask { try? await Task.sleep(for: .seconds(20)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        let check = try #require(result, "doctor did not answer within 20 s: it opened the FIFO for a blocking read")
        #expect(check.status == .failure)
        #expect(check.found.contains("project.pbxproj: a FIFO (named pipe), not a file") && !check.found.contains("permission denied"), "\(check.found)")
        // Unblock a reader left behind by a failing run, so the test process can end.
        let writer = open(variant.file(Self.pbxproj), O_WRONLY | O_NONBLOCK)
        if writer >= 0 { close(writer) }
    }

    /// An xcconfig saved with CRLF line endings still gives the bundle id.
    @Test func aCRLFXcconfigIsReadLineByLine() throws {
        let folder = try TemporaryDirectory("doctor-crlf")
        try DoctorXcodeTests.put(folder, "App.xcconfig", "// Saved on Windows\r\nPRODUCT_BUNDLE_IDENTIFIER = com.example.Renamed\r\nCODE_SIGN_ENTITLEMENTS = App/App.entitlements\r\n")
        try DoctorXcodeTests.put(folder, "App/App.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.example.App"]))
        try DoctorXcodeTests.put(folder, "App/Sync.swift", "let c = CKContainer(identifier: \"iCloud.\" + Bundle.main.bundleIdentifier!)\n")
        try DoctorProjectBuilder(targets: [.init("App", settings: [:], xcconfig: "App.xcconfig", sources: ["App/Sync.swift"])]).write(in: folder)
        let checks = Self.run(folder.path)
        #expect(Self.check(checks, "App", "container.bundleID")?.found.hasPrefix("com.example.Renamed (Debug, Release, App.xcconfig:2)") == true)
        let sources = try #require(Self.check(checks, "App", "container.swiftSources"))
        #expect(sources.status == .failure && sources.found.contains("iCloud.com.example.Renamed (App/Sync.swift:1"), "\(sources.found)")
    }

    /// Class 8: SDKROOT auto is no SDK; the watch-only stub is named as what it is; no empty finding;
    /// a Documents-only container is never offered to the toolkit; "from the default" says why.
    @Test func smallerReadingsSayWhatTheyMean() throws {
        let variant = try DoctorVariant("correct")
        try variant.edit(Self.pbxproj, replacing: "SDKROOT = iphoneos;\n\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t};\n\t\t\tname = Debug;",
                         with: "SDKROOT = auto;\n\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t};\n\t\t\tname = Debug;")
        let auto = Self.run(variant.path)
        #expect(!auto.contains { $0.found.contains("auto") }, "\(auto.filter { $0.found.contains("auto") })")
        #expect(Self.check(auto, "TribeBoard", "container.apsEnvironment")?.found == "aps-environment development (Debug, Release)")

        let folder = try TemporaryDirectory("doctor-small")
        try DoctorXcodeTests.put(folder, "Docs.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.example.Docs"], services: ["CloudDocuments"]))
        try DoctorXcodeTests.put(folder, "Stub.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.example.Stub"]))
        try DoctorProjectBuilder(targets: [
            .init("Docs", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Docs", "CODE_SIGN_ENTITLEMENTS": "Docs.entitlements"], sources: []),
            .init("Stub", "com.apple.product-type.application.watchapp2-container",
                  settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Stub", "CODE_SIGN_ENTITLEMENTS": "Stub.entitlements"], sources: []),
        ]).write(in: folder)
        let checks = Self.run(folder.path, toolkit: ToolkitContainer(value: "iCloud.com.example.Other", source: "--container"))
        #expect(Self.check(checks, nil, "container.project")?.found.contains("CloudKit targets Docs (app), Stub (iOS stub of a watch-only app)") == true)
        #expect(checks.allSatisfy { !$0.found.isEmpty }, "no empty finding")
        #expect(Self.check(checks, "Docs", "container.backgroundModes")?.found == "not needed: no iOS build lists CloudKit among its services")
        let toolkit = try #require(Self.check(checks, nil, "container.toolkit"))
        #expect(toolkit.status == .failure && toolkit.action?.contains("iCloud.com.example.Docs") == false, "a Documents-only container holds no records: \(toolkit)")
        #expect(toolkit.action?.contains("iCloud.com.example.Stub") == true)
        let none = ContainerChecks(projectPath: nil, toolkit: ToolkitContainer(value: "iCloud.net.dataenvy.TribeBoard", source: "the default")).run()
        #expect(Self.check(none, nil, "container.toolkit")?.found == "iCloud.net.dataenvy.TribeBoard (from the default): no --project given, so it is compared with the app's published container iCloud.net.dataenvy.TribeBoard only")
    }
}
