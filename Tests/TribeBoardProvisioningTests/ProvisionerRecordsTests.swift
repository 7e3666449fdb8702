import Foundation
import Testing
import TribeBoardStoreFixtures
import TribeBoardTestSupport
@testable import TribeBoardProvisioning

@Suite("Provisioner: what a created family looks like in the store")
struct ProvisionerRecordsTests {
    static let hash = CSVFixtures.hexHash(7)
    static let csv = """
        external_id,family_name,admin_display_name,admin_apple_user_id_hash
        E1,Alpha,Ann,\(hash.uppercased())
        E2,Beta,Bob,
        E3,Gamma,,

        """

    @Test func createdFamiliesWaitForSync() throws {
        let workspace = try ProvisionWorkspace()
        let report = try workspace.run(Self.csv)
        let inspector = try workspace.inspector()
        #expect(try inspector.count("SELECT COUNT(*) FROM families WHERE needs_sync = 1") == 3)
        #expect(try inspector.count("SELECT COUNT(*) FROM user_profiles WHERE needs_sync = 1") == 2)
        #expect(try inspector.count("SELECT COUNT(*) FROM memberships WHERE needs_sync = 1") == 2)
        // The admin invited without an Apple account hash waits in the store for them to join
        // (the app cannot decode a profile without one): not pending for CloudKit.
        #expect(report.pendingSync == .init(families: 3, userProfiles: 1, memberships: 1))
        let rows = try inspector.rows("SELECT source_line, import_key FROM families ORDER BY source_line")
        #expect(rows.map { $0["source_line"] } == ["2", "3", "4"])
        #expect(rows.map { $0["import_key"] } == ["ext:E1", "ext:E2", "ext:E3"])
    }

    @Test func adminIsActiveWithAHashAndInvitedWithout() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let members = try workspace.inspector().rows("""
            SELECT f.name, m.role, m.status, p.display_name, p.apple_user_id_hash, f.created_by_user_id = p.id AS creator
            FROM memberships m JOIN families f ON f.id = m.family_id JOIN user_profiles p ON p.id = m.user_id
            ORDER BY f.name
            """)
        try #require(members.count == 2)
        #expect(members[0]["name"] == "Alpha")
        #expect(members[0]["role"] == "parent_admin")
        #expect(members[0]["status"] == "active")
        #expect(members[0]["apple_user_id_hash"] == Self.hash)  // stored lower-cased
        #expect(members[0]["creator"] == "1")
        #expect(members[1]["name"] == "Beta")
        #expect(members[1]["role"] == "parent_admin")
        #expect(members[1]["status"] == "invited")
        #expect(members[1]["apple_user_id_hash"] == nil)
        #expect(members[1]["creator"] == "1")
    }

    @Test func familyWithoutAdminIsCreatedByTheToolkit() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let inspector = try workspace.inspector()
        let toolkitUser = try #require(try inspector.strings("SELECT value FROM toolkit_meta WHERE key = 'provisioning_user_id'").first)
        #expect(try inspector.strings("SELECT created_by_user_id FROM families WHERE name = 'Gamma'") == [toolkitUser])
        #expect(try inspector.count("SELECT COUNT(*) FROM memberships m JOIN families f ON f.id = m.family_id WHERE f.name = 'Gamma'") == 0)
    }

    @Test func signedInAdminOfTwoFamiliesHasOneProfile() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run("external_id,family_name,admin_display_name,admin_apple_user_id_hash\nE1,Alpha,Ann,\(Self.hash)\nE2,Beta,Ann,\(Self.hash)\n")
        #expect(try workspace.count("families") == 2)
        #expect(try workspace.count("user_profiles") == 1)
        #expect(try workspace.inspector().count("SELECT COUNT(*) FROM memberships WHERE status = 'active'") == 2)
    }

    @Test func creationLogFollowsTheAppStateMachine() throws {
        let workspace = try ProvisionWorkspace()
        try workspace.run(Self.csv)
        let inspector = try workspace.inspector()
        let ids = try inspector.strings("SELECT id FROM families")
        try #require(ids.count == 3)
        for id in ids {
            let log = try inspector.rows("SELECT state, progress, error FROM creation_log WHERE family_id = '\(id)' ORDER BY id")
            #expect(log.map { $0["state"] } == ["idle", "validating", "generatingCode", "creatingLocally", "completed"])
            #expect(log.map { Double($0["progress"] ?? "") } == [0, 0.2, 0.4, 0.6, 1])
            #expect(log.allSatisfy { $0["error"] == nil })
        }
    }
}
