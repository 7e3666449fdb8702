import Foundation
import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor
@testable import TribeBoardXcodeProject

/// The project read the way Xcode reads it, each CloudKit target judged on its own.
/// Each test builds the smallest project that shows one rule.
@Suite("Doctor: Xcode projects as Xcode reads them")
struct DoctorXcodeTests {
    typealias Target = DoctorProjectBuilder.Target

    static func put(_ folder: TemporaryDirectory, _ path: String, _ text: String) throws {
        try FileManager.default.createDirectory(atPath: (folder.file(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try folder.write(path, text)
    }

    static func run(_ folder: TemporaryDirectory, project: String? = nil, target: String? = nil) -> [DoctorCheck] {
        ContainerChecks(projectPath: project ?? folder.path, targetFilter: target, toolkit: nil).run().filter { $0.id != .containerToolkit }
    }

    static func check(_ checks: [DoctorCheck], _ target: String?, _ id: String) -> DoctorCheck? {
        checks.first { $0.target == target && $0.id.rawValue == id }
    }

    @Test func settingsComeFromXcconfigIncludesConditionsAndInherited() throws {
        let folder = try TemporaryDirectory("doctor-xcconfig")
        try Self.put(folder, "Config/Base.xcconfig", """
            #include "Shared/Company.xcconfig"
            #include? "Local/Developer.xcconfig"
            PRODUCT_BUNDLE_IDENTIFIER = $(ORGANIZATION_IDENTIFIER).$(PRODUCT_NAME:rfc1034identifier)  // a comment
            CODE_SIGN_ENTITLEMENTS = App/App.entitlements
            CODE_SIGN_ENTITLEMENTS[sdk=macosx*] = App/App-macOS.entitlements
            SWIFT_ACTIVE_COMPILATION_CONDITIONS[config=Debug] = $(inherited) DEBUG
            """)
        try Self.put(folder, "Config/Shared/Company.xcconfig", "ORGANIZATION_IDENTIFIER = com.example;\nTEAM_SLUG = $(ORGANIZATION_IDENTIFIER:upper)\n")
        var app = Target("My App", settings: ["PRODUCT_NAME": "My App", "SUPPORTED_PLATFORMS": "iphoneos iphonesimulator macosx"],
                         xcconfig: "Config/Base.xcconfig")
        app.debug = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "$(inherited) TARGET_LEVEL"]
        var builder = DoctorProjectBuilder(targets: [app])
        builder.projectSettings = ["SWIFT_ACTIVE_COMPILATION_CONDITIONS": "PROJECT_LEVEL"]
        try builder.write(in: folder)
        let project = try XcodeProject.read(bundle: folder.file("App.xcodeproj"), display: { $0 })
        let variants = try #require(project.targets.first?.variants)
        #expect(variants.map { "\($0.context.configuration)/\($0.context.sdk)" } == ["Debug/iphoneos", "Debug/macosx", "Release/iphoneos", "Release/macosx"])
        let debugMac = variants[1].settings
        #expect(debugMac.resolved("PRODUCT_BUNDLE_IDENTIFIER")?.value == "com.example.My-App", "rfc1034identifier turns the space into -")
        #expect(debugMac.resolved("PRODUCT_BUNDLE_IDENTIFIER")?.location?.line == 3)
        #expect(debugMac.resolved("CODE_SIGN_ENTITLEMENTS")?.value == "App/App-macOS.entitlements")
        #expect(variants[0].settings.resolved("CODE_SIGN_ENTITLEMENTS")?.value == "App/App.entitlements")
        #expect(debugMac.resolved("SWIFT_ACTIVE_COMPILATION_CONDITIONS")?.value == "PROJECT_LEVEL DEBUG TARGET_LEVEL")
        #expect(variants[2].settings.resolved("SWIFT_ACTIVE_COMPILATION_CONDITIONS")?.value == "PROJECT_LEVEL")
        #expect(debugMac.resolved("TEAM_SLUG")?.value == "COM.EXAMPLE")
        #expect(debugMac.expand("$(MISSING:default=fallback)/$(SRCROOT:file)").value == "fallback/" + (folder.path as NSString).lastPathComponent)
        let missing = debugMac.expand("iCloud.$(ICLOUD_CONTAINER_ID)")
        #expect(missing.unresolved.map(\.name) == ["ICLOUD_CONTAINER_ID"])
        #expect(missing.unresolved.first?.hint.contains("Local/Developer.xcconfig (#include? at") == true, "the missing optional include is named")
    }

    @Test func settingsThatReferToEachOtherAndTruncatedSourcesAreFindingsNotCrashes() throws {
        let folder = try TemporaryDirectory("doctor-cycle")
        try DoctorProjectBuilder(targets: [Target("App", settings: ["CYCLE_A": "$(CYCLE_B)", "CYCLE_B": "x$(CYCLE_A)"])]).write(in: folder)
        let settings = try #require(try XcodeProject.read(bundle: folder.file("App.xcodeproj"), display: { $0 }).targets.first?.variants.first?.settings)
        #expect(settings.resolved("CYCLE_A")?.isResolved == false)
        for source in ["let a = CKContainer(identifier: \"iCloud.x\\", "let b = \"", "CKContainer(identifier: \"iCloud.\\(", "/* \"iCloud."] {
            for length in 0...source.utf8.count {
                _ = SwiftContainerLiterals.scan(Array(source.utf8.prefix(length)), path: "A.swift")
            }
        }
    }

    @Test func everyVariableInTheEntitlementsIsExpandedAndAnUnresolvedOneIsAWarningNeverARawFailure() throws {
        let folder = try TemporaryDirectory("doctor-variables")
        try Self.put(folder, "App.xcconfig", "BUNDLE_ID_PREFIX = net.example\nPRODUCT_BUNDLE_IDENTIFIER = $(BUNDLE_ID_PREFIX).App\n")
        try Self.put(folder, "App/App.entitlements", DoctorProjectBuilder.entitlements(
            containers: ["iCloud.$(BUNDLE_ID_PREFIX).App", "iCloud.$(ICLOUD_CONTAINER_ID)"], extra: ["aps-environment": "development"]))
        try Self.put(folder, "App/Store.swift", "let c = CKContainer(identifier: \"iCloud.net.example.Other\")\n")
        try DoctorProjectBuilder(targets: [Target("App", settings: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"], xcconfig: "App.xcconfig",
                                                  sources: ["App/Store.swift"])]).write(in: folder)
        let checks = Self.run(folder)
        let containers = try #require(Self.check(checks, "App", "container.entitlementContainers"))
        #expect(containers.status == .warning)
        #expect(containers.found.contains("iCloud.net.example.App"))
        #expect(containers.found.contains("the variable ICLOUD_CONTAINER_ID is not set in"))
        let sources = try #require(Self.check(checks, "App", "container.swiftSources"))
        #expect(sources.status == .warning, "a container may be the unresolved one: cannot verify, not a failure")
        for check in checks where check.status == .failure {
            #expect(!check.found.contains("$(") && !(check.action ?? "").contains("$("))
        }
    }

    @Test func aWidgetIsJudgedOnItsOwnEntitlementsAndATargetWithoutICloudIsNoFailure() throws {
        let folder = try TemporaryDirectory("doctor-targets")
        let shared = "iCloud.com.company.Product"
        try Self.put(folder, "App/App.entitlements", DoctorProjectBuilder.entitlements(containers: [shared], extra: ["aps-environment": "production"]))
        try Self.put(folder, "Watch/Watch.entitlements", DoctorProjectBuilder.entitlements(containers: [shared], extra: ["aps-environment": "production"]))
        try Self.put(folder, "Widget/Widget.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.company.Other"]))
        try Self.put(folder, "App/Store.swift", "let configuration = ModelConfiguration(cloudKitDatabase: .private(\"\(shared)\"))\n")
        try Self.put(folder, "Widget/Provider.swift", "let configuration = ModelConfiguration(cloudKitDatabase: .private(\"\(shared)\"))\n")
        try Self.put(folder, "Watch/Sync.swift", "let container = CKContainer.default()\n")
        let app = ["PRODUCT_BUNDLE_IDENTIFIER": "com.company.product.app", "INFOPLIST_KEY_UIBackgroundModes": "remote-notification"]
        try DoctorProjectBuilder(targets: [
            Target("App", settings: app.merging(["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"]) { $1 }, sources: ["App/Store.swift"]),
            Target("Widget", DoctorProjectBuilder.widget, settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.company.product.app.widget",
                                                                     "CODE_SIGN_ENTITLEMENTS": "Widget/Widget.entitlements"], sources: ["Widget/Provider.swift"]),
            Target("Watch", DoctorProjectBuilder.watchApp, settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.company.product.app.watchkitapp",
                                                                      "CODE_SIGN_ENTITLEMENTS": "Watch/Watch.entitlements", "SDKROOT": "watchos"],
                   sources: ["Watch/Sync.swift"]),
            Target("Intents", DoctorProjectBuilder.widget, settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.company.product.app.intents"], sources: []),
        ]).write(in: folder)
        let checks = Self.run(folder)
        let failures = checks.filter { $0.status == .failure }
        #expect(failures.map { "\($0.target ?? "-")|\($0.id)" } == ["Widget|container.swiftSources"], "\(failures)")
        let widget = try #require(failures.first)
        #expect(widget.found.contains("\(shared) (Widget/Provider.swift:1, ModelConfiguration cloudKitDatabase: .private) is not in the entitlements of Widget"))
        #expect(widget.action?.contains("name one they list: iCloud.com.company.Other") == true)
        #expect(!(widget.action ?? "").contains("iCloud.com.company.product"), "never a value the entitlements do not list")
        #expect(Self.check(checks, "Watch", "container.swiftSources")?.found.contains("\(shared) (Watch/Sync.swift:1, CKContainer.default())") == true)
        #expect(Self.check(checks, "App", "container.entitlementContainers")?.found.contains("is not named after the bundle id com.company.product.app: Apple allows this") == true)
        #expect(Self.check(checks, nil, "container.project")?.found.contains("without iCloud and without CloudKit code (not checked): Intents") == true)
        #expect(Self.check(checks, "Watch", "container.backgroundModes") == nil, "UIBackgroundModes is for iOS apps")
        #expect(Set(Self.run(folder, target: "Widget").compactMap(\.target)) == ["Widget"])
        #expect(Self.run(folder, target: "Nope").contains { $0.id == .containerTarget && $0.status == .failure && $0.found.contains("App, Intents, Watch, Widget") })
    }

    @Test func aTargetWithoutICloudFailsOnlyWhenItsCodeUsesCloudKit() throws {
        let folder = try TemporaryDirectory("doctor-no-icloud")
        try Self.put(folder, "App/Sync.swift", "let container = CKContainer(identifier: \"iCloud.com.example.App\")\n")
        try DoctorProjectBuilder(targets: [Target("App", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App"], sources: ["App/Sync.swift"])])
            .write(in: folder)
        let checks = Self.run(folder)
        #expect(Self.check(checks, "App", "container.entitlements")?.status == .failure)
        #expect(Self.check(checks, "App", "container.swiftSources")?.found.contains("the target has no readable entitlements file") == true)
    }

    @Test func macOSTargetsGetMacRulesAndPathsInAnotherCaseAreFoundWithAWarning() throws {
        let folder = try TemporaryDirectory("doctor-macos")
        try Self.put(folder, "Mac/Mac.entitlements", DoctorProjectBuilder.entitlements(
            containers: ["iCloud.com.example.Mac"], extra: ["com.apple.developer.aps-environment": "development"]))
        try DoctorProjectBuilder(targets: [Target("Mac", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.Mac", "SDKROOT": "macosx",
                                                                   "CODE_SIGN_ENTITLEMENTS": "mac/MAC.entitlements"])]).write(in: folder)
        let checks = Self.run(folder)
        #expect(Self.check(checks, "Mac", "container.apsEnvironment")?.status == .ok)
        #expect(Self.check(checks, "Mac", "container.backgroundModes") == nil)
        let entitlements = try #require(Self.check(checks, "Mac", "container.entitlements"))
        #expect(entitlements.status == .warning)
        #expect(entitlements.found.contains("Mac/Mac.entitlements is written mac/MAC.entitlements: found only ignoring case"))
    }

    @Test func anUnreadableInfoPlistIsSaidSoAndABinaryEntitlementsFileIsRead() throws {
        let folder = try TemporaryDirectory("doctor-plists")
        let entitlements: [String: Any] = ["com.apple.developer.icloud-container-identifiers": ["iCloud.com.example.App"],
                                           "com.apple.developer.icloud-services": ["CloudKit"], "aps-environment": "development"]
        let binary = try PropertyListSerialization.data(fromPropertyList: entitlements, format: .binary, options: 0)
        #expect(binary.starts(with: Array("bplist00".utf8)))
        try FileManager.default.createDirectory(atPath: folder.file("App"), withIntermediateDirectories: true)
        try binary.write(to: URL(fileURLWithPath: folder.file("App/App.entitlements")))
        try Self.put(folder, "App/Info.plist", "<?xml version=\"1.0\"?><plist><dict><key>UIBackgroundModes</key>")
        try DoctorProjectBuilder(targets: [Target("App", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App", "INFOPLIST_FILE": "App/Info.plist",
                                                                   "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"])]).write(in: folder)
        let checks = Self.run(folder)
        let containers = try #require(Self.check(checks, "App", "container.entitlementContainers"))
        #expect(containers.status == .ok && containers.locations == [SourceLocation(path: "App/App.entitlements", line: nil)])
        let modes = try #require(Self.check(checks, "App", "container.backgroundModes"))
        #expect(modes.status == .warning)
        #expect(modes.found.contains("cannot read the Info.plist App/Info.plist"))
        #expect(!modes.found.contains("not declared"))
    }

    @Test func projectsAreFoundBelowTheFolderThroughWorkspacesAndGeneratorsAreNamed() throws {
        let folder = try TemporaryDirectory("doctor-locate")
        let app = Target("App", settings: ["PRODUCT_BUNDLE_IDENTIFIER": "com.example.App"])
        let nested = try TemporaryDirectory("doctor-locate-nested")
        try FileManager.default.createDirectory(atPath: nested.file("ios"), withIntermediateDirectories: true)
        try DoctorProjectBuilder(targets: [app]).write(in: try Self.sub(nested, "ios"))
        let below = try ProjectLocation.locate(nested.path)
        #expect(below.bundles.map { ProjectLocation.relative($0, to: nested.path) } == ["ios/App.xcodeproj"])
        #expect(below.notes.contains("found ios/App.xcodeproj below \(nested.path)"))
        try Self.put(folder, "Main.xcworkspace/contents.xcworkspacedata", """
            <?xml version="1.0" encoding="UTF-8"?>
            <Workspace version = "1.0">
               <FileRef location = "group:Sources/App.xcodeproj"></FileRef>
               <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
            </Workspace>
            """)
        try DoctorProjectBuilder(targets: [app]).write(in: try Self.sub(folder, "Sources"))
        let workspace = try ProjectLocation.locate(folder.file("Main.xcworkspace"))
        #expect(workspace.bundles == [folder.file("Sources/App.xcodeproj")])
        let two = try TemporaryDirectory("doctor-locate-two")
        try DoctorProjectBuilder(targets: [app]).write(in: two, name: "One")
        try DoctorProjectBuilder(targets: [app]).write(in: two, name: "Two")
        #expect(throws: XcodeProjectError.severalProjects(path: two.path, projects: ["One.xcodeproj", "Two.xcodeproj"])) { try ProjectLocation.locate(two.path) }
        let tuist = try TemporaryDirectory("doctor-locate-tuist")
        try tuist.write("Project.swift", "import ProjectDescription\n")
        #expect(throws: XcodeProjectError.notGenerated(path: tuist.path, manifest: "Project.swift", command: "tuist generate")) {
            try ProjectLocation.locate(tuist.path)
        }
    }

    /// A folder inside a temporary directory, as a TemporaryDirectory-like writer.
    static func sub(_ folder: TemporaryDirectory, _ name: String) throws -> TemporaryDirectory {
        let sub = try TemporaryDirectory("doctor-sub")
        try FileManager.default.removeItem(atPath: sub.path)
        try FileManager.default.createDirectory(atPath: folder.file(name), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: sub.path, withDestinationPath: folder.file(name))
        return sub
    }
}

extension DoctorXcodeTests {
    /// objectVersion 77: a target's files are a synchronized folder, less the exceptions for it.
    @Test func synchronizedFoldersAttributeSourcesToTheirTargetLessExceptions() throws {
        let folder = try TemporaryDirectory("doctor-synchronized")
        try Self.put(folder, "Shared/Store.swift", "let c = ModelConfiguration(cloudKitDatabase: .private(\"iCloud.com.example.Other\"))\n")
        try Self.put(folder, "Shared/AppOnly.swift", "let d = CKContainer(identifier: \"iCloud.com.example.AppOnly\")\n")
        try Self.put(folder, "Shared/Legacy.swift", "let e = NSPersistentCloudKitContainer(name: \"Model\")\n")
        try Self.put(folder, "Widget.entitlements", DoctorProjectBuilder.entitlements(containers: ["iCloud.com.example.App"]))
        try Self.put(folder, "App.xcodeproj/project.pbxproj", """
            // !$*UTF8*$!
            {
            \tobjectVersion = 77;
            \tobjects = {
            \t\tEX1 = {isa = PBXFileSystemSynchronizedBuildFileExceptionSet; membershipExceptions = (AppOnly.swift, ); target = WT1; };
            \t\tSG1 = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (EX1, ); path = Shared; sourceTree = "<group>"; };
            \t\tMG1 = {isa = PBXGroup; children = (SG1, ); sourceTree = "<group>"; };
            \t\tWC1 = {isa = XCBuildConfiguration; buildSettings = {CODE_SIGN_ENTITLEMENTS = Widget.entitlements; PRODUCT_BUNDLE_IDENTIFIER = com.example.App.Widget; }; name = Release; };
            \t\tWL1 = {isa = XCConfigurationList; buildConfigurations = (WC1, ); };
            \t\tWT1 = {isa = PBXNativeTarget; buildConfigurationList = WL1; buildPhases = (); fileSystemSynchronizedGroups = (SG1, ); name = Widget; productType = "com.apple.product-type.app-extension"; };
            \t\tPL1 = {isa = XCConfigurationList; buildConfigurations = (); };
            \t\tPR1 = {isa = PBXProject; buildConfigurationList = PL1; mainGroup = MG1; targets = (WT1, ); };
            \t};
            \trootObject = PR1;
            }
            """)
        let checks = Self.run(folder)
        let sources = try #require(Self.check(checks, "Widget", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("iCloud.com.example.Other (Shared/Store.swift:1"))
        #expect(!sources.found.contains("AppOnly"), "a membership exception takes the file out of the target")
        #expect(sources.found.contains("iCloud.com.example.App (Shared/Legacy.swift:1, NSPersistentCloudKitContainer(name:))"),
                "the default container of NSPersistentCloudKitContainer is the first listed")
    }
}

extension DoctorXcodeTests {
    @Test func theDefaultContainerNeedsAListedOneAndAMissingIncludeIsSaid() throws {
        let folder = try TemporaryDirectory("doctor-default")
        try Self.put(folder, "App.xcconfig", "#include \"Secrets.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = com.example.App\n")
        try Self.put(folder, "App/App.entitlements", DoctorProjectBuilder.entitlements(containers: []))
        try Self.put(folder, "App/Sync.swift", "let database = CKContainer.default().privateCloudDatabase\n")
        try DoctorProjectBuilder(targets: [Target("App", settings: ["CODE_SIGN_ENTITLEMENTS": "App/App.entitlements"], xcconfig: "App.xcconfig",
                                                  sources: ["App/Sync.swift"])]).write(in: folder)
        let checks = Self.run(folder)
        #expect(Self.check(checks, "App", "container.entitlementContainers")?.status == .failure)
        let sources = try #require(Self.check(checks, "App", "container.swiftSources"))
        #expect(sources.status == .failure)
        #expect(sources.found.contains("App/Sync.swift:1, CKContainer.default() uses the default container, but the entitlements of App list none in Debug, Release"))
        #expect(sources.action?.hasPrefix("add the iCloud capability with a container to App") == true, "no container is invented")
        let xcconfig = try #require(Self.check(checks, "App", "container.xcconfig"))
        #expect(xcconfig.found.contains("#include \"Secrets.xcconfig\" at App.xcconfig:1: the file does not exist"))
        #expect(Self.check(checks, "App", "container.bundleID")?.found.hasPrefix("com.example.App (Debug, Release, App.xcconfig:2)") == true)
    }
}
