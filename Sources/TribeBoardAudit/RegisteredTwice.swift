import Foundation
import TribeBoardDomain
import TribeBoardStore

/// Two families of one parent registered twice (two rows of two forms): the same folded name
/// and the same admin, by folded name or by Apple account hash. The older one is kept.
struct RegisteredTwice: Sendable, Equatable {
    let kept: AuditFamily
    let duplicate: AuditFamily
}

extension LocalAuditQueries {
    /// Two reads: every family with an admin in store order, keeping a 64-bit fingerprint of each
    /// registration key, then, oldest first, only the rows whose key another row shares
    /// (`RegistrationMatcher` on exact keys). A scratch index took a write and a look-up a row:
    /// half the audit's time at 200,000 families. Memory: 16 bytes a key.
    func familiesRegisteredTwice() throws -> [RegisteredTwice] {
        var shared = SharedKeyRows()
        try store.forEachFamilyWithAdmin { family in
            shared.add(row: family.row, keys: Self.registrationKeys(family))
        }
        let rows = shared.sharedRows()
        guard !rows.isEmpty else { return [] }
        var matcher = RegistrationMatcher()
        try store.forEachFamilyWithAdmin(rows: rows.sorted()) { family in
            matcher.add(family, keys: Self.registrationKeys(family))
        }
        return matcher.pairs
    }

    private static func registrationKeys(_ family: FamilyWithAdmin) -> [String] {
        NameFold.registrationKeys(name: family.name, adminName: family.adminName, adminHash: family.adminHash)
    }
}

/// The rows holding a key some other row holds too, by fingerprint: a row whose every key is its
/// alone can neither find a family nor be found. A fingerprint shared by chance only adds a
/// row, which the exact match then passes over.
struct SharedKeyRows {
    /// Each key's fingerprint and row, sorted once all are in (16 bytes a key).
    private var prints: [(print: UInt64, row: Int64)] = []

    mutating func add(row: Int64, keys: [String]) {
        for key in keys { prints.append((Self.fingerprint(key), row)) }
    }

    /// Sorts the fingerprints in place (no second copy) and returns the rows sharing one.
    mutating func sharedRows() -> Set<Int64> {
        prints.sort { $0.print < $1.print }
        var rows = Set<Int64>()
        var start = 0
        while start < prints.count {
            var end = start + 1
            while end < prints.count && prints[end].print == prints[start].print { end += 1 }
            if end - start > 1, prints[start..<end].contains(where: { $0.row != prints[start].row }) {
                for index in start..<end { rows.insert(prints[index].row) }
            }
            start = end
        }
        return rows
    }

    /// Of the key's UTF-8 bytes: keys match byte for byte, as SQLite's text comparison did.
    static func fingerprint(_ key: String) -> UInt64 {
        var hasher = Hasher()
        var key = key
        key.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        return UInt64(truncatingIfNeeded: hasher.finalize())
    }
}

/// Rows oldest first; each is matched against the rows before it holding one of its keys (the
/// first 16 of each key, in order). A row of a family made by provision that meets that same
/// family again (two admins with one key) is passed over; any other row is kept as a holder.
/// The first holder of the row's first held key is the family kept; each duplicate is reported
/// once, and a family meeting itself is no finding.
struct RegistrationMatcher {
    private struct Holder {
        let familyID: FamilyID
        let name: String
        let importKey: String?
    }

    private static let holdersRead = 16
    private var holders: [[UInt8]: [Holder]] = [:]
    private var reported = Set<FamilyID>()
    private(set) var pairs: [RegisteredTwice] = []

    mutating func add(_ family: FamilyWithAdmin, keys: [String]) {
        let candidate = Holder(familyID: family.familyID, name: family.name,
                               importKey: family.importKey)
        let keys = keys.map { Array($0.utf8) }
        var first: Holder?
        for key in keys {
            for holder in holders[key] ?? [] {
                if holder.importKey != nil && holder.importKey == candidate.importKey { return }
                if first == nil { first = holder }
            }
        }
        for key in keys where holders[key, default: []].count < Self.holdersRead {
            holders[key, default: []].append(candidate)
        }
        guard let kept = first, kept.familyID != candidate.familyID,
              reported.insert(candidate.familyID).inserted else { return }
        pairs.append(RegisteredTwice(kept: AuditFamily(id: kept.familyID.rawValue, name: kept.name, location: .local),
                                     duplicate: AuditFamily(id: candidate.familyID.rawValue, name: candidate.name,
                                                            location: .local)))
    }
}
