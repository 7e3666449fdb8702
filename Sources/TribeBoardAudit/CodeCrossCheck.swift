import Foundation
import TribeBoardDomain
import TribeBoardCloudKit
import TribeBoardRemote

/// A family (or family record) holding a code another family also holds.
struct GroupMember: Sendable {
    var id: String
    var location: AuditFamily.Location
    var code: String
    var name: String?
    var createdAtMilliseconds: Int64?
    var recordType: String?
    var snapshotLine: Int?
}

/// Families whose codes people would take for the same code.
struct DuplicateGroup: Sendable {
    var members: [GroupMember]

    var category: AuditFinding.Category {
        if Set(members.map(\.code)).count > 1 { return .caseOnlyTwins }
        let remoteOnly = members.filter { $0.location == .remote }.count
        if remoteOnly == 0 { return .duplicateLocal }
        return remoteOnly == members.count ? .duplicateRemote : .duplicateLocalRemote
    }

    /// The oldest family keeps the code (ties: the smaller id, so every run picks the same one).
    var membersOldestFirst: [GroupMember] {
        members.sorted { lhs, rhs in
            switch (lhs.createdAtMilliseconds, rhs.createdAtMilliseconds) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.id < rhs.id
            }
        }
    }
}

/// Joins the local and the remote index: duplicate groups, remote records unknown locally, and
/// remote copies whose code differs from the local family's.
struct CodeCrossCheck {
    enum RemoteCopy {
        case unknownLocally
        case sameAsLocal
        /// A repair changed the local code; the CloudKit copy keeps the old one until resync.
        case awaitingResync
        case differs(localCode: String)
    }

    let local: LocalFamilyIndex
    let remote: RemoteFamilyIndex
    let repaired: [String: Set<String>]

    func copyStatus(_ entry: RemoteFamilyIndex.Entry) -> RemoteCopy {
        guard let localCode = local.code(ofFamily: entry.id) else { return .unknownLocally }
        if localCode == entry.code { return .sameAsLocal }
        if repaired[entry.id.string]?.contains(entry.code) == true { return .awaitingResync }
        return .differs(localCode: localCode)
    }

    func duplicateGroups() -> [DuplicateGroup] {
        var groups: [DuplicateGroup] = []
        for key in remote.codes.keys {
            // A synced family: one local family and its own CloudKit copy hold the code.
            if let copy = remote.codes.only(forKey: key), let family = local.codes.only(forKey: key),
               copy.id == family.id, copy.code == family.code { continue }
            let remoteIndices = remote.codes.indices(forKey: key)
            guard remoteIndices.count > 1 || local.codes.contains(key: key) else { continue }
            if let group = group(forKey: key, remoteIndices: remoteIndices) { groups.append(group) }
        }
        for key in local.codes.moreByKey.keys where !remote.codes.contains(key: key) {
            if let group = group(forKey: key, remoteIndices: []) { groups.append(group) }
        }
        return groups
    }

    private func group(forKey key: String, remoteIndices: [Int32]) -> DuplicateGroup? {
        var members: [GroupMember] = []
        var position: [String: Int] = [:]
        for index in local.codes.indices(forKey: key) {
            let entry = local.codes[index]
            let id = entry.id.string
            guard position[id] == nil else { continue }
            position[id] = members.count
            members.append(GroupMember(id: id, location: .local, code: entry.code))
        }
        for index in remoteIndices {
            let entry = remote.codes[index]
            let id = entry.id.string
            switch copyStatus(entry) {
            case .awaitingResync:
                continue
            case .sameAsLocal:
                if let at = position[id] {
                    members[at].location = .both
                    members[at].recordType = entry.recordType
                    members[at].snapshotLine = entry.line > 0 ? Int(entry.line) : nil
                }
            case .unknownLocally, .differs:
                // The same record twice in a snapshot is one family.
                guard position[id] == nil else { continue }
                position[id] = members.count
                members.append(GroupMember(id: id, location: .remote, code: entry.code, name: entry.name,
                                           createdAtMilliseconds: entry.createdAtMilliseconds, recordType: entry.recordType,
                                           snapshotLine: entry.line > 0 ? Int(entry.line) : nil))
            }
        }
        members = Self.withoutMigratedSources(members)
        return members.count > 1 ? DuplicateGroup(members: members) : nil
    }

    /// A legacy record beside its own migrated copy, holding the same code, is one family: `migrate
    /// legacy-types` keeps the source until `--delete-source`. (A re-coded copy holds another code,
    /// so its source still counts: an old build looking the old code up would find it.)
    static func withoutMigratedSources(_ members: [GroupMember]) -> [GroupMember] {
        members.filter { member in
            guard member.location == .remote, let type = member.recordType, RecordMapping.legacyTypes.contains(type)
            else { return true }
            // No name derived (libcrypto failed): the source counts, as if it had no copy.
            guard let copy = try? LegacyCopyName.of(member.id) else { return true }
            return !members.contains { $0.id == copy && $0.code == member.code }
        }
    }

    /// Per legacy type, how many records have their migrated copy in CloudKit or the store (those
    /// kept on purpose left out: they are no longer the legacy finding's).
    func migratedLegacyCounts(excluding kept: Set<String> = []) -> [String: Int] {
        var counts: [String: Int] = [:]
        for (type, names) in remote.legacyNames {
            let migrated = names.count { !kept.contains($0.string) && hasMigratedCopy($0.string) }
            if migrated > 0 { counts[type] = migrated }
        }
        return counts
    }

    /// The legacy record named `name` has the copy `migrate legacy-types` makes, in CloudKit or
    /// in the store: the app reads the copy, whatever the source still holds.
    func hasMigratedCopy(_ name: String) -> Bool {
        guard let copy = try? LegacyCopyName.of(name) else { return false }
        let id = CompactID(copy)
        return remote.holds(recordName: id) || local.code(ofFamily: id) != nil
    }

    /// Remote records of each copy status (legacy `CKFamily` records unknown locally are left to
    /// the legacy finding).
    func remoteCopies(sampleLimit: Int?) -> (remoteOnly: [RemoteFamilyIndex.Entry], remoteOnlyCount: Int,
                                            differs: [(RemoteFamilyIndex.Entry, String)], awaitingResync: Int) {
        var remoteOnly: [RemoteFamilyIndex.Entry] = []
        var remoteOnlyCount = 0
        var differs: [(RemoteFamilyIndex.Entry, String)] = []
        var awaiting = 0
        for entry in remote.codes.entries {
            switch copyStatus(entry) {
            case .unknownLocally:
                guard entry.recordType == RecordMapping.familyType else { continue }
                remoteOnlyCount += 1
                if sampleLimit.map({ remoteOnly.count < $0 }) ?? true { remoteOnly.append(entry) }
            case .differs(let localCode): differs.append((entry, localCode))
            case .awaitingResync: awaiting += 1
            case .sameAsLocal: continue
            }
        }
        return (remoteOnly, remoteOnlyCount, differs, awaiting)
    }

    /// Local families and remote records whose code breaks the wire format.
    func formatViolations() -> [GroupMember] {
        var violations: [GroupMember] = []
        var reportedLocally: [String: Int] = [:]
        for entry in local.codes.entries where !FamilyCode.isWireFormat(entry.code) {
            let id = entry.id.string
            reportedLocally[id] = violations.count
            violations.append(GroupMember(id: id, location: .local, code: entry.code))
        }
        for entry in remote.codes.entries where !FamilyCode.isWireFormat(entry.code) {
            let id = entry.id.string
            if case .awaitingResync = copyStatus(entry) { continue }
            // A migrated legacy family: its copy holds the code the migration gave it (the legacy
            // finding counts the source as migrated; --delete-source removes it).
            if entry.recordType != RecordMapping.familyType, hasMigratedCopy(id) { continue }
            if let at = reportedLocally[id], case .sameAsLocal = copyStatus(entry) {
                violations[at].location = .both
                continue
            }
            violations.append(GroupMember(id: id, location: .remote, code: entry.code, name: entry.name,
                                          createdAtMilliseconds: entry.createdAtMilliseconds, recordType: entry.recordType,
                                          snapshotLine: entry.line > 0 ? Int(entry.line) : nil))
        }
        return violations
    }
}
