import Testing
import TribeBoardProjectFixtures
import TribeBoardTestSupport
@testable import TribeBoardDoctor

/// A store set up in a local Swift package, with SwiftData's `.automatic`: a real project
/// (Tests/Fixtures/doctor/real/TaylorFinklea-nebularnews-ios/SOURCE.md) and its one-line breakages.
@Suite("Doctor: a local package's .automatic store, on a real project")
struct DoctorLocalPackageStoreTests {
    static let name = "TaylorFinklea-nebularnews-ios"
    static let setup = "NebularNewsKit/Sources/NebularNewsKit/Models/ModelContainerSetup.swift"

    @Test func theAutomaticStoreInTheLinkedPackageUsesTheEntitlementsContainer() throws {
        let checks = DoctorCompiledCodeTests.run(DoctorCompiledCodeTests.fixture(Self.name) + "/NebularNews")
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
        let code = try DoctorCompiledCodeTests.check(checks, "NebularNews", .containerSwiftSources)
        #expect(code.status == .ok && code.found.contains("iCloud.com.nebularnews"), "\(code.found)")
        #expect(code.locations.contains { $0.path.hasSuffix(Self.setup) && $0.line == 54 }, "\(code.locations)")
    }

    @Test func aPrivateContainerTheEntitlementsDoNotListFails() throws {
        let variant = try DoctorVariant("real/\(Self.name)")
        try variant.edit(Self.setup, replacing: "cloudKitDatabase: .automatic",
                         with: #"cloudKitDatabase: .private("iCloud.com.nebularnews.ios")"#)
        let code = try DoctorCompiledCodeTests.check(DoctorCompiledCodeTests.run(variant.path + "/NebularNews"),
                                                     "NebularNews", .containerSwiftSources)
        #expect(code.status == .failure && code.found.contains("iCloud.com.nebularnews.ios"), "\(code)")
    }

    /// An empty container list is not a variable left unset: the advice names the capability.
    @Test func noContainerListedAdvisesChoosingOneNotSettingAVariable() throws {
        let variant = try DoctorVariant("real/\(Self.name)")
        try variant.edit("NebularNews/NebularNews/NebularNews.entitlements",
                         replacing: "<string>iCloud.com.nebularnews</string>", with: "")
        let listed = try DoctorCompiledCodeTests.check(DoctorCompiledCodeTests.run(variant.path + "/NebularNews"),
                                                       "NebularNews", .containerEntitlementContainers)
        #expect(listed.status == .warning, "\(listed)")
        #expect(listed.found.contains("lists CloudKit but no container (Debug, Release)"), "\(listed.found)")
        #expect(listed.action?.contains("Signing & Capabilities > iCloud > Containers") == true, "\(String(describing: listed.action))")
        #expect(listed.action?.contains("variable") == false, "\(String(describing: listed.action))")
    }
}

/// A Debug configuration signed with a development container the code never names: a real project
/// (Tests/Fixtures/doctor/real/Presidentty1-nestling-care-log/SOURCE.md).
@Suite("Doctor: per-configuration entitlements on a real project")
struct DoctorDebugEntitlementsTests {
    static let name = "Presidentty1-nestling-care-log"

    @Test func theDebugBuildFailsAtEachServiceWithItsOwnBinding() throws {
        let code = try DoctorCompiledCodeTests.check(DoctorCompiledCodeTests.run(DoctorCompiledCodeTests.fixture(Self.name)),
                                                     "Nuzzle", .containerSwiftSources)
        #expect(code.status == .failure && code.found.contains("Debug lists iCloud.com.nestling.app.dev"), "\(code.found)")
        // Two files bind the same name `containerID`: each use is its own file's binding.
        #expect(code.found.contains("CaregiverSyncService.swift:25, CKContainer(identifier:) via containerID (Nestling/Services/CaregiverSyncService.swift:26)"),
                "\(code.found)")
        #expect(code.found.contains("DataStoreSelector.swift:93, CKContainer(identifier:) via containerID (Nestling/Domain/Services/DataStoreSelector.swift:94)"),
                "\(code.found)")
        // A file the project does not compile is not judged.
        #expect(!code.locations.contains { $0.path.hasSuffix("CloudKitSyncService.swift") }, "\(code.locations)")
    }

    @Test func listingTheContainerInTheDevEntitlementsMendsIt() throws {
        let variant = try DoctorVariant("real/\(Self.name)")
        try variant.edit("Nestling/Nestling.dev.entitlements", replacing: "<string>iCloud.com.nestling.app.dev</string>",
                         with: "<string>iCloud.com.nestling.app</string>")
        let checks = DoctorCompiledCodeTests.run(variant.path)
        #expect(checks.filter { $0.status == .failure }.isEmpty, "\(checks.filter { $0.status == .failure })")
    }
}
