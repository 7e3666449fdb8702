import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// Code a target runs that is not in its own sources (and a container named with no
/// `icloud-container-identifiers` at all): local packages, frameworks of
/// sub-projects and sibling projects, files another folder's exception set adds. Each test is one
/// change to `Tests/Fixtures/doctor/correct` (given a Sources phase, so that only its own file is its code)
/// or to a trimmed real project.
@Suite("Doctor: code a target links")
struct DoctorLinkedCodeTests {
    static let pbxproj = "TribeBoard.xcodeproj/project.pbxproj"
    static let app = "A20000000000000000000001"

    static func run(_ path: String, target: String? = nil) -> [DoctorCheck] {
        ContainerChecks(projectPath: path, targetFilter: target, toolkit: nil).run().filter { $0.id != .containerToolkit }
    }

    static func check(_ checks: [DoctorCheck], _ target: String?, _ id: String) -> DoctorCheck? {
        checks.first { $0.target == target && $0.id.rawValue == id }
    }

    /// `correct` whose app compiles only TribeBoard/ModelContainerConfiguration.swift, plus `objects` and `phases` added.
    static func correct(objects: String = "", phases: String = "", targetKeys: String = "", projectKeys: String = "") throws -> DoctorVariant {
        let variant = try DoctorVariant("correct")
        try variant.edit(pbxproj, replacing: "/* Begin PBXNativeTarget section */", with: """
            S0000000000000000000001 = {isa = PBXSourcesBuildPhase; files = (S0000000000000000000002, ); };
            S0000000000000000000002 = {isa = PBXBuildFile; fileRef = S0000000000000000000003; };
            S0000000000000000000003 = {isa = PBXFileReference; path = TribeBoard/ModelContainerConfiguration.swift; sourceTree = SOURCE_ROOT; };
            \(objects)
            /* Begin PBXNativeTarget section */
            """)
        try variant.edit(pbxproj, replacing: "\(app) /* TribeBoard */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\tbuildConfigurationList = A40000000000000000000002 /* Build configuration list for PBXNativeTarget \"TribeBoard\" */;\n\t\t\tbuildPhases = (",
                         with: "\(app) /* TribeBoard */ = {\n\t\t\tisa = PBXNativeTarget;\n\t\t\t\(targetKeys)\n\t\t\tbuildConfigurationList = A40000000000000000000002;\n\t\t\tbuildPhases = (S0000000000000000000001, \(phases)")
        if !projectKeys.isEmpty {
            try variant.edit(pbxproj, replacing: "developmentRegion = en;", with: "developmentRegion = en;\n\t\t\t\(projectKeys)")
        }
        return variant
    }

    static let localPackage = """
        P0000000000000000000001 = {isa = XCLocalSwiftPackageReference; relativePath = Packages/SyncKit; };
        P0000000000000000000002 = {isa = XCSwiftPackageProductDependency; package = P0000000000000000000001; productName = SyncKit; };
        """

    static func writePackage(_ variant: DoctorVariant, code: String) throws {
        try variant.write("Packages/SyncKit/Package.swift", "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"SyncKit\")\n")
        try variant.write("Packages/SyncKit/Sources/SyncKit/Syncer.swift", code)
    }

    @Test func theBaseOfTheseVariationsIsHealthyAndReadsOnlyItsOwnFile() throws {
        let variant = try Self.correct()
        let checks = Self.run(variant.path)
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
        #expect(Self.check(checks, "TribeBoard", "container.swiftSources")?.locations.map(\.path) == Array(repeating: "TribeBoard/ModelContainerConfiguration.swift", count: 2))
    }

    /// The regression: the app's entitlements list no container at all, and the CKContainer that
    /// needs one is in a local package the app links. It was "not checked", so it passed.
    @Test func anAppWhosePackageNamesAContainerItsEntitlementsLackFails() throws {
        let variant = try Self.correct(objects: Self.localPackage, targetKeys: "packageProductDependencies = (P0000000000000000000002, );")
        try Self.writePackage(variant, code: "import CloudKit\nenum Syncer {\n    static let container = CKContainer(identifier: \"iCloud.net.dataenvy.TribeBoard\")\n}\n")
        try variant.write("TribeBoard/TribeBoard.entitlements", DoctorProjectBuilder.entitlements(containers: [], services: []))
        try variant.write("TribeBoard/ModelContainerConfiguration.swift", "import SwiftData\n")
        let checks = Self.run(variant.path)
        let sources = try #require(Self.check(checks, "TribeBoard", "container.swiftSources"), "\(checks)")
        // Linked code may not run in this app (a "Lite" app linking the full app's library): a warning
        // naming file and line, never silence.
        #expect(sources.status == .warning)
        #expect(sources.found.contains("iCloud.net.dataenvy.TribeBoard (Packages/SyncKit/Sources/SyncKit/Syncer.swift:3, CKContainer(identifier:)): the entitlements of TribeBoard have no iCloud capability; this CloudKit call is shared code compiled into TribeBoard"), "\(sources.found)")
        #expect(sources.locations.contains(SourceLocation(path: "Packages/SyncKit/Sources/SyncKit/Syncer.swift", line: 3)))
        #expect(Self.check(checks, nil, "container.project")?.found.contains("CloudKit targets TribeBoard (app)") == true)
    }

    @Test func aContainerInALocalPackagesProductIsTheTargetsOwn() throws {
        let variant = try Self.correct(objects: Self.localPackage, targetKeys: "packageProductDependencies = (P0000000000000000000002, );")
        try Self.writePackage(variant, code: "import CloudKit\nlet legacy = CKContainer(identifier: \"iCloud.com.tribeboard.Legacy\")\n")
        let sources = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.locations == [SourceLocation(path: "Packages/SyncKit/Sources/SyncKit/Syncer.swift", line: 2)])
    }

    /// A framework of a sub-project (`projectReferences`), linked through a PBXReferenceProxy.
    @Test func aContainerInASubprojectsFrameworkTheAppLinksIsSeen() throws {
        let variant = try Self.correct(objects: """
            R0000000000000000000001 = {isa = PBXFileReference; lastKnownFileType = "wrapper.pb-project"; path = Sync/Sync.xcodeproj; sourceTree = SOURCE_ROOT; };
            R0000000000000000000002 = {isa = PBXReferenceProxy; fileType = wrapper.framework; path = Sync.framework; remoteRef = R0000000000000000000005; sourceTree = BUILT_PRODUCTS_DIR; };
            R0000000000000000000003 = {isa = PBXBuildFile; fileRef = R0000000000000000000002; };
            R0000000000000000000004 = {isa = PBXFrameworksBuildPhase; files = (R0000000000000000000003, ); };
            R0000000000000000000005 = {isa = PBXContainerItemProxy; containerPortal = R0000000000000000000001; proxyType = 2; remoteInfo = Sync; };
            R0000000000000000000006 = {isa = PBXGroup; children = (R0000000000000000000002, ); name = Products; sourceTree = "<group>"; };
            """, phases: "R0000000000000000000004, ",
            projectKeys: "projectReferences = ({ProductGroup = R0000000000000000000006; ProjectRef = R0000000000000000000001; }, );")
        try variant.write("Sync/Sync/Syncer.swift", "import CloudKit\nenum Syncer {\n    static let container = CKContainer(identifier: \"iCloud.com.tribeboard.Sync\")\n}\n")
        try variant.write("Sync/Sync.xcodeproj/project.pbxproj", """
            // !$*UTF8*$!
            {
            \tobjectVersion = 56;
            \tobjects = {
            \t\tF1 = {isa = PBXFileReference; path = Sync/Syncer.swift; sourceTree = SOURCE_ROOT; };
            \t\tF2 = {isa = PBXBuildFile; fileRef = F1; };
            \t\tF3 = {isa = PBXSourcesBuildPhase; files = (F2, ); };
            \t\tF4 = {isa = PBXFileReference; explicitFileType = wrapper.framework; path = Sync.framework; sourceTree = BUILT_PRODUCTS_DIR; };
            \t\tF5 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = net.dataenvy.Sync; }; name = Release; };
            \t\tF6 = {isa = XCConfigurationList; buildConfigurations = (F5, ); };
            \t\tF7 = {isa = PBXNativeTarget; buildConfigurationList = F6; buildPhases = (F3, ); name = Sync; productReference = F4; productType = "com.apple.product-type.framework"; };
            \t\tF8 = {isa = PBXProject; buildConfigurationList = F6; targets = (F7, ); };
            \t};
            \trootObject = F8;
            }
            """)
        let sources = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("iCloud.com.tribeboard.Sync (Sync/Sync/Syncer.swift:3, CKContainer(identifier:)) is not in the entitlements of TribeBoard"))
    }

    /// The real workspace of aurnhammer/CloudKit-CoreData-Example: the app links BeaconCrawl.framework,
    /// built by the sibling project, whose DataManager names the container. A one-line change there is seen.
    @Test func aContainerInASiblingWorkspaceProjectsFrameworkIsSeen() throws {
        let fixture = "real/aurnhammer-CloudKit-CoreData-Example"
        let healthy = try #require(Self.check(Self.run(DoctorFixtures.project(fixture)), "District-1 Admin", "container.swiftSources"))
        #expect(healthy.status == .ok)
        #expect(healthy.found.contains("iCloud.com.districtapp.CloudKit-CoreData (BeaconCrawl-Framework/BeaconCrawl/DataManager.swift:63, CKContainer(identifier:))"))
        let variant = try DoctorVariant(fixture)
        try variant.edit("BeaconCrawl-Framework/BeaconCrawl/DataManager.swift", replacing: "return CKContainer(identifier: \"iCloud.com.districtapp.CloudKit-CoreData\")",
                         with: "return CKContainer(identifier: \"iCloud.com.districtapp.Staging\")")
        let broken = try #require(Self.check(Self.run(variant.path), "District-1 Admin", "container.swiftSources"))
        #expect(broken.status == .failure)
        #expect(broken.found.contains("iCloud.com.districtapp.Staging (BeaconCrawl-Framework/BeaconCrawl/DataManager.swift:63"))
    }

    /// objectVersion 77: an exception set for App on the Widget's folder ADDS Widget/Shared.swift to App.
    @Test func filesAnotherFoldersExceptionSetAddsAreTheTargetsCode() throws {
        let folder = try TemporaryDirectory("doctor-added")
        try DoctorXcodeTests.put(folder, "App/AppMain.swift", "import SwiftUI\n")
        try DoctorXcodeTests.put(folder, "Widget/Shared.swift", "let store = CKContainer(identifier: \"iCloud.com.example.Shared\")\n")
        try DoctorXcodeTests.put(folder, "App.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.example.App"]))
        try DoctorXcodeTests.put(folder, "App.xcodeproj/project.pbxproj", """
            // !$*UTF8*$!
            {
            \tobjectVersion = 77;
            \tobjects = {
            \t\tEX1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (Shared.swift, ); target = AT1; };
            \t\tSG1 = {isa = PBXFileSystemSynchronizedRootGroup; path = App; sourceTree = "<group>"; };
            \t\tSG2 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EX1, ); path = Widget; sourceTree = "<group>"; };
            \t\tMG1 = {isa = PBXGroup; children = (SG1, SG2, ); sourceTree = "<group>"; };
            \t\tAC1 = {isa = XCBuildConfiguration; buildSettings = {CODE_SIGN_ENTITLEMENTS = App.entitlements; PRODUCT_BUNDLE_IDENTIFIER = com.example.App; }; name = Release; };
            \t\tAL1 = {isa = XCConfigurationList; buildConfigurations = (AC1, ); };
            \t\tAT1 = {isa = PBXNativeTarget; buildConfigurationList = AL1; buildPhases = (); fileSystemSynchronizedGroups = (SG1, ); name = App; productType = "com.apple.product-type.application"; };
            \t\tWC1 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = com.example.App.Widget; }; name = Release; };
            \t\tWL1 = {isa = XCConfigurationList; buildConfigurations = (WC1, ); };
            \t\tWT1 = {isa = PBXNativeTarget; buildConfigurationList = WL1; buildPhases = (); fileSystemSynchronizedGroups = (SG2, ); name = Widget; productType = "com.apple.product-type.app-extension"; };
            \t\tPL1 = {isa = XCConfigurationList; buildConfigurations = (); };
            \t\tPR1 = {isa = PBXProject; buildConfigurationList = PL1; mainGroup = MG1; targets = (AT1, WT1, ); };
            \t};
            \trootObject = PR1;
            }
            """)
        let checks = Self.run(folder.path)
        let sources = try #require(Self.check(checks, "App", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("iCloud.com.example.Shared (Widget/Shared.swift:1, CKContainer(identifier:)) is not in the entitlements of App"))
        // The Widget owns the folder too (the exception does not remove the file from it): its own code.
        #expect(Self.check(checks, "Widget", "container.entitlements")?.status != nil)
    }

    /// Class 3: the target the full run lists as not checked is not judged when named alone.
    @Test func targetAloneGivesTheFullRunsVerdict() throws {
        let variant = try Self.correct(objects: Self.localPackage + """
            W0000000000000000000001 = {isa = XCBuildConfiguration; buildSettings = {PRODUCT_BUNDLE_IDENTIFIER = net.dataenvy.TribeBoard.Widget; }; name = Release; };
            W0000000000000000000002 = {isa = XCConfigurationList; buildConfigurations = (W0000000000000000000001, ); };
            W0000000000000000000003 = {isa = PBXNativeTarget; buildConfigurationList = W0000000000000000000002; buildPhases = (); packageProductDependencies = (P0000000000000000000002, ); name = Widget; productType = "com.apple.product-type.app-extension"; };
            """)
        try Self.writePackage(variant, code: "import CloudKit\nlet other = CKContainer(identifier: \"iCloud.com.example.Other\")\n")
        let full = Self.run(variant.path)
        #expect(Self.check(full, nil, "container.project")?.found.contains("not checked): Widget") == true,
                "package code alone does not make an extension a CloudKit target")
        #expect(!full.contains { $0.target == "Widget" })
        let alone = Self.run(variant.path, target: "Widget")
        #expect(alone.allSatisfy { $0.status != .failure }, "\(alone.filter { $0.status == .failure })")
        #expect(Self.check(alone, "Widget", "container.target")?.found == "not checked: without iCloud and without CloudKit code, as in the full run")
        let test = try #require(Self.check(Self.run(variant.path, target: "TribeBoardTests"), "TribeBoardTests", "container.target"))
        #expect(test.status == .ok && test.found.hasPrefix("not checked: a unit-test target"), "a test target exists: never \"no target named\"")
    }
}

extension DoctorLinkedCodeTests {
    /// A remote package the project references, whose sources are in the tree (vendored beside the
    /// project under the repository's name): its code is the app's code, as Xcode compiles it.
    @Test func aRemotePackageWhoseSourcesAreInTheTreeIsRead() throws {
        let remote = """
            P0000000000000000000001 = {isa = XCRemoteSwiftPackageReference; repositoryURL = "https://github.com/example/SyncKit.git"; requirement = {kind = upToNextMajorVersion; minimumVersion = 1.0.0; }; };
            P0000000000000000000002 = {isa = XCSwiftPackageProductDependency; package = P0000000000000000000001; productName = SyncCore; };
            """
        let variant = try Self.correct(objects: remote, targetKeys: "packageProductDependencies = (P0000000000000000000002, );")
        try variant.write("SyncKit/Package.swift", "// swift-tools-version:5.9\n")
        try variant.write("SyncKit/Sources/SyncCore/Syncer.swift", "import CloudKit\nlet container = CKContainer(identifier: \"iCloud.com.example.Vendored\")\n")
        let sources = try #require(Self.check(Self.run(variant.path), "TribeBoard", "container.swiftSources"))
        #expect(sources.status == .failure && sources.found.contains("iCloud.com.example.Vendored (SyncKit/Sources/SyncCore/Syncer.swift:2"), "\(sources.found)")
    }
}
