import Foundation
import Testing
import TribeBoardDomain
import TribeBoardStoreFixtures
@testable import TribeBoardAudit
@testable import TribeBoardStore

@Suite("Audit: a parent registered twice")
struct RegisteredTwiceTests {
    @Test("the oldest family is kept; a family with two admins does not meet itself; each duplicate once")
    func handMadeCases() throws {
        let workspace = try AuditWorkspace(families: 8)  // families 3 and 6 have admins with a hash
        let ids = try workspace.families().map(\.id)
        // A day a family, in file order (line 1 is the header).
        try workspace.edit("UPDATE families SET created_at = '2026-01-0' || (source_line - 1) || 'T00:00:00.000Z'")
        // 1, 2 and 4: one name, one admin name (folded alike); 6 shares 3's admin (the hash).
        try workspace.edit("UPDATE families SET name = CASE id WHEN ? THEN 'Nguyễn' ELSE 'NGUYEN' END WHERE id IN (?, ?, ?)",
                           [ids[0], ids[0], ids[1], ids[3]])
        try workspace.edit("""
            UPDATE user_profiles SET display_name = 'Minh Nguyen' WHERE id IN
              (SELECT user_id FROM memberships WHERE family_id IN (?, ?, ?))
            """, [ids[0], ids[1], ids[3]])
        try workspace.edit("UPDATE families SET name = (SELECT name FROM families WHERE id = ?) WHERE id = ?", [ids[2], ids[5]])
        try workspace.edit("""
            UPDATE memberships SET user_id = (SELECT user_id FROM memberships WHERE family_id = ?) WHERE family_id = ?
            """, [ids[2], ids[5]])
        // Family 7 gets a second admin named as its first: it meets only itself.
        try workspace.edit("""
            INSERT INTO user_profiles (id, display_name, created_at) SELECT 'second-admin', display_name, created_at
            FROM user_profiles WHERE id = (SELECT user_id FROM memberships WHERE family_id = ?)
            """, [ids[6]])
        try workspace.edit("""
            INSERT INTO memberships (id, family_id, user_id, role, status, joined_at)
            VALUES ('second-membership', ?, 'second-admin', 'parent_admin', 'invited', '2026-01-01T00:00:00.000Z')
            """, [ids[6]])
        let pairs = try registeredTwice(in: workspace)
        #expect(pairs.map { [$0.kept.id, $0.duplicate.id] } == [[ids[0], ids[1]], [ids[0], ids[3]], [ids[2], ids[5]]])
        #expect(pairs == (try scratchIndexAnswer(in: workspace)))
    }

    @Test("the two reads find what one scratch index found, on stores full of shared names and admins", arguments: 1...6)
    func agreesWithTheScratchIndex(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let workspace = try AuditWorkspace(families: 60)
        let names = ["Nguyễn", "NGUYEN", "Ana", "ÁNA", "Lee"]
        for line in 2...61 {  // line 1 is the header
            let day = random.next(upTo: 4) + 1
            try workspace.edit("""
                UPDATE families SET name = ?, created_at = '2026-01-0\(day)T00:00:00.000Z',
                    import_key = CASE WHEN ? THEN NULL ELSE import_key END WHERE source_line = ?
                """, [names[random.next(upTo: names.count)], random.next(upTo: 5) == 0, line])
            try workspace.edit("""
                UPDATE user_profiles SET display_name = ? WHERE id = (SELECT user_id FROM memberships m
                    JOIN families f ON f.id = m.family_id WHERE f.source_line = ?)
                """, ["Minh \(names[random.next(upTo: 3)])", line])
        }
        // Second admins (invited, no hash) and admins shared across families (one hash, many).
        for line in stride(from: 3, through: 61, by: 7) {
            try workspace.edit("""
                INSERT INTO user_profiles (id, display_name, created_at) VALUES (?, ?, '2026-01-01T00:00:00.000Z')
                """, ["extra-\(line)", "Minh \(names[random.next(upTo: 3)])"])
            try workspace.edit("""
                INSERT INTO memberships (id, family_id, user_id, role, status, joined_at)
                SELECT ?, id, ?, 'parent_admin', 'invited', '2026-01-01T00:00:00.000Z' FROM families WHERE source_line = ?
                """, ["extra-m-\(line)", "extra-\(line)", line])
        }
        try workspace.edit("""
            UPDATE memberships SET user_id = (SELECT m.user_id FROM memberships m JOIN families f ON f.id = m.family_id
                                              WHERE f.source_line = 4)
            WHERE family_id IN (SELECT id FROM families WHERE source_line IN (10, 22, 34))
            """)
        let pairs = try registeredTwice(in: workspace)
        #expect(pairs.count > 5, "the store shares names and admins")
        #expect(pairs == (try scratchIndexAnswer(in: workspace)))
    }

    @Test("rows are read again only when another row shares one of their keys")
    func sharedKeyRows() {
        var shared = SharedKeyRows()
        shared.add(row: 1, keys: ["a\u{1F}a:x", "a\u{1F}h:1"])
        shared.add(row: 2, keys: ["b\u{1F}a:x"])
        shared.add(row: 3, keys: ["c\u{1F}a:y", "a\u{1F}h:1"])
        shared.add(row: 4, keys: ["b\u{1F}a:x"])
        shared.add(row: 5, keys: ["b\u{1F}a:x"])
        // Canonically equal in Swift, not byte for byte: SQLite never matched them.
        shared.add(row: 6, keys: ["e\u{301}"])
        shared.add(row: 7, keys: ["\u{E9}"])
        // A row holding one key twice meets only itself.
        shared.add(row: 8, keys: ["z", "z"])
        #expect(shared.sharedRows() == [1, 2, 3, 4, 5])
    }

    private func registeredTwice(in workspace: AuditWorkspace) throws -> [RegisteredTwice] {
        let store = try TribeBoardStore.openReadOnly(at: workspace.provision.storePath)
        return try LocalAuditQueries(store: store).familiesRegisteredTwice()
    }

    /// The check as it was before the two reads: every row, oldest first, through provision's
    /// scratch index.
    private func scratchIndexAnswer(in workspace: AuditWorkspace) throws -> [RegisteredTwice] {
        let store = try TribeBoardStore.openReadOnly(at: workspace.provision.storePath)
        let index = try NameAndAdminIndex()
        var candidates: [NameAndAdminIndex.Candidate] = []
        try store.forEachFamilyWithAdmin(oldestFirst: true) { family in
            candidates.append(.init(keys: NameFold.registrationKeys(name: family.name, adminName: family.adminName,
                                                                    adminHash: family.adminHash),
                                    holder: .init(familyID: family.familyID, line: nil, externalId: nil,
                                                  name: family.name, importKey: family.importKey)))
        }
        var pairs: [RegisteredTwice] = []
        var reported = Set<FamilyID>()
        for (candidate, holder) in zip(candidates, try index.firstHolders(of: candidates, keepMatched: true)) {
            guard let kept = holder?.familyID, let duplicate = candidate.holder.familyID, kept != duplicate,
                  reported.insert(duplicate).inserted else { continue }
            pairs.append(RegisteredTwice(kept: AuditFamily(id: kept.rawValue, name: holder?.name, location: .local),
                                         duplicate: AuditFamily(id: duplicate.rawValue, name: candidate.holder.name, location: .local)))
        }
        return pairs
    }
}

/// A small deterministic generator (SplitMix64), so a failing seed fails again.
struct SeededRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next(upTo bound: Int) -> Int {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return Int((value ^ (value >> 31)) % UInt64(bound))
    }
}
