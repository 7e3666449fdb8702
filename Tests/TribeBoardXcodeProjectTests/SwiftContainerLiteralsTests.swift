import Foundation
import Testing
import TribeBoardTestSupport
@testable import TribeBoardXcodeProject

/// Container identifiers in Swift and Objective-C sources: only in container positions (the APIs
/// that take one), outside comments and strings that are not arguments.
@Suite("Xcode projects: container identifiers in source code")
struct SwiftContainerLiteralsTests {
    @Test func swiftLiteralsOnlyInContainerPositionsOutsideComments() throws {
        let folder = try TemporaryDirectory("doctor-literals")
        try folder.write("A.swift", """
            /* CKContainer(identifier: "iCloud.in.a.block.comment") /* nested */ still comment */
            let a = "not \\("iCloud.interpolated")"
            let b = ModelConfiguration(schema: schema,
                                       cloudKitDatabase: .private("iCloud.net.dataenvy.TribeBoard"))
            let c = CKContainer(identifier: "iCloud.com.tribeboard.TribeBoard") // "iCloud.trailing.comment"
            let d = \"\"\"
                "iCloud.inside.a.multiline.string"
                \"\"\"
            let e = "iCloud.net.dataenvy.TribeBoard.test"
            let title = NSLocalizedString("iCloud.notAuthenticated.title", comment: "")
            let f = CKContainer(identifier: "iCloud." + Bundle.main.bundleIdentifier!)
            let g = CKContainer(identifier: "iCloud.\\(suffix)")
            let h = NSPersistentCloudKitContainerOptions(containerIdentifier: Config.containerIdentifier)
            let i = CKContainer.default()
            """)
        try folder.write("Config.swift", "enum Config {\n    static let containerIdentifier = \"iCloud.com.example.shared\"\n    static let prose = \"iCloud. Sync is off\"\n}\n")
        let references = SwiftContainerLiterals.references(in: [folder.file("A.swift"), folder.file("Config.swift")],
                                                           display: { ($0 as NSString).lastPathComponent })
        #expect(references.map(\.value) == [
            .literal("iCloud.net.dataenvy.TribeBoard"), .literal("iCloud.com.tribeboard.TribeBoard"),
            .bundleIDSuffix(prefix: "iCloud."), .interpolated("iCloud.\\(…)"), .defaultContainer, .literal("iCloud.com.example.shared"),
        ])
        #expect(references.map(\.location.line) == [4, 5, 11, 12, 14, 2])
        #expect(references.last?.call.contains("Config.containerIdentifier (A.swift:13)") == true)
    }

    @Test func objectiveCConstantsAndDefinesAreFollowed() {
        let source = """
        #define kContainer @"iCloud.com.example.defined"
        static NSString *const kOther = @"iCloud.com.example.constant";
        // [CKContainer containerWithIdentifier:@"iCloud.com.example.commented"];
        CKContainer *a = [CKContainer containerWithIdentifier:kContainer];
        CKContainer *b = [CKContainer containerWithIdentifier:kOther];
        CKContainer *c = [CKContainer defaultContainer];
        """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("objc-\(UUID().uuidString).m").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(source.utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let values = SwiftContainerLiterals.references(in: [file], display: { _ in "S.m" }).map(\.value)
        #expect(values == [.literal("iCloud.com.example.defined"), .literal("iCloud.com.example.constant"), .defaultContainer], "\(values)")
    }

    /// By API, never by label: what each spelling names (a file scanned on its own).
    @Test func onlyContainerAPIsNameContainers() {
        let source = """
        let drive = try await CloudDrive(storage: .iCloudContainer(containerIdentifier: "iCloud.com.example.Drive"))
        let config = ModelConfiguration("iCloud.com.example.Name", cloudKitDatabase: sync ? .none : .private("iCloud.com.example.Else"))
        let engine = CKSyncEngine(CKSyncEngine.Configuration(database: CKContainer(identifier: "iCloud.com.example.Engine").privateCloudDatabase,
                                                             stateSerialization: nil, delegate: self))
        let diagnostic = CloudKitDiagnostic(containerIdentifier: "iCloud.com.example.Field", isSignedIn: true)
        """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("api-\(UUID().uuidString).swift").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(source.utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let found = SwiftContainerLiterals.references(in: [file], display: { _ in "A.swift" })
        #expect(found.map(\.value) == [.literal("iCloud.com.example.Else"), .literal("iCloud.com.example.Engine")], "\(found)")
        #expect(found.map(\.call) == ["ModelConfiguration cloudKitDatabase: .private", "CKContainer(identifier:)"])
    }

    /// The fallback as a literal on the lookup's line: `object(forInfoDictionaryKey:) as? String ?? "iCloud.…"`.
    @Test func aLiteralFallbackOnTheLookupsLineIsTheContainerWhenTheKeyIsUnset() {
        let source = """
        let id = Bundle.main.object(forInfoDictionaryKey: "CloudKitContainerIdentifier") as? String ?? "iCloud.com.example.Fallback"
        let container = CKContainer(identifier: id)
        """
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("fallback-\(UUID().uuidString).swift").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data(source.utf8)))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let found = SwiftContainerLiterals.references(in: [file], display: { _ in "A.swift" })
        #expect(found.map(\.value) == [.infoPlist(key: "CloudKitContainerIdentifier", fallback: .literal("iCloud.com.example.Fallback"))],
                "\(found)")
    }
}
