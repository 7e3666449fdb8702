import Testing
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
