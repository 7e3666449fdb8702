import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore

/// Merges a family registered twice into the one that stays: the duplicate's members, those the
/// store knows and those who joined it in the app (found in CloudKit), get a membership in the
/// kept family (a person already there is not added twice; the duplicate's admin is the kept
/// family's admin registered again, or, someone else, an adult: one parent admin), then the
/// duplicate is removed as `FamilyRemover` removes a family.
///
/// Order, for a kill at any moment: the duplicate's removal is recorded first (resync leaves it
/// alone), then the moved members are added to the store and created in CloudKit, then the
/// duplicate goes. A rerun finds the moved members present and carries on.
package struct FamilyMerger: Sendable {
    let request: MergeRequest
    let logger: Logger

    package init(request: MergeRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    package func run() async throws(CaseError) -> MergeReport {
        let (store, writable) = try CaseStore.open(request.storePath, forWriting: request.apply)
        var report = MergeReport(store: request.storePath, applied: request.apply)
        let (duplicate, kept) = try resolve(store, report: &report)
        guard let duplicate, let kept else { return report }
        report.duplicateId = duplicate.id.rawValue
        report.duplicateName = duplicate.name
        report.duplicateCode = request.display(duplicate.code)
        report.keptId = kept.id.rawValue
        report.keptName = kept.name
        report.reprintCommand = Advice.reprint(store: request.storePath, familyID: kept.id).command
        if (duplicate.uploaded || !duplicate.claimedCodes.isEmpty || kept.uploaded)
            && request.client == nil && request.apply
        {
            throw .remoteNeeded(familyID: (duplicate.uploaded ? duplicate.id : kept.id).rawValue)
        }
        var remote = request.client.map(RemoteCase.init)
        let joinedInApp = try await appMembers(of: duplicate, remote: &remote)
        let moves = plan(duplicate, into: kept, appMembers: joinedInApp, report: &report)
        guard request.apply, let writable else { return report }
        do throws(StoreError) {
            try writable.beginRemovals([
                FamilyRemoval(
                    familyID: duplicate.id, name: duplicate.name, code: duplicate.code,
                    mergedInto: kept.id)
            ])
            _ = try writable.addMovedMembers(moves)
        } catch {
            throw .store(error)
        }
        try await upload(
            movedTo: kept, from: duplicate, store: writable, remote: &remote, report: &report)
        var removal = RemoveRequest(storePath: request.storePath, families: [duplicate.id.rawValue])
        removal.apply = true
        removal.force = true
        removal.client = request.client
        removal.showCodes = request.showCodes
        var remover = FamilyRemover(request: removal, logger: logger)
        remover.mergedInto = kept.id.rawValue
        report.removal = try await remover.run()
        report.requests += (remote?.requests ?? 0) + (report.removal?.requests ?? 0)
        report.applied = true
        return report
    }

    /// Both families; nil for the duplicate when an earlier run already merged it (reported).
    private func resolve(_ store: any StoreReading, report: inout MergeReport) throws(CaseError)
        -> (CaseFamily?, CaseFamily?)
    {
        do {
            guard let keptFound = try store.namedFamily(request.kept) else {
                throw CaseError.noSuchFamily(request.kept, store: request.storePath)
            }
            guard let duplicateFound = try store.namedFamily(request.duplicate) else {
                if let removal = try store.removal(matching: request.duplicate), removal.finished,
                    removal.mergedInto == keptFound.id
                {
                    report.alreadyMerged = true
                    report.duplicateId = removal.familyID.rawValue
                    report.duplicateName = removal.name
                    report.keptId = keptFound.id.rawValue
                    report.keptName = keptFound.name
                    return (nil, nil)
                }
                throw CaseError.noSuchFamily(request.duplicate, store: request.storePath)
            }
            if duplicateFound.id == keptFound.id {
                throw CaseError.sameFamily(keptFound.id.rawValue)
            }
            if try store.familyRemovals([keptFound.id])[keptFound.id] != nil {
                throw CaseError.keptFamilyLeaving(keptFound.id.rawValue)
            }
            let families = try store.caseFamilies([duplicateFound.id, keptFound.id])
            guard families.count == 2 else {
                throw CaseError.noSuchFamily(request.duplicate, store: request.storePath)
            }
            return (families[0], families[1])
        } catch {
            throw .reading(error)
        }
    }

    /// The duplicate's members who joined it in the app: `Membership` records in CloudKit the
    /// store does not hold, with their profiles as CloudKit has them.
    private func appMembers(of duplicate: CaseFamily, remote: inout RemoteCase?)
        async throws(CaseError) -> [AppMember]
    {
        guard var cloud = remote, duplicate.uploaded else { return [] }
        defer { remote = cloud }
        do throws(CloudKitError) {
            let known = Set(duplicate.members.map(\.membershipID.rawValue))
            let records = (try await cloud.memberships(of: [duplicate.id.rawValue]))[
                duplicate.id.rawValue, default: []
            ]
            .filter { !known.contains($0.recordName) }
            let users = records.compactMap { RemoteMembership($0).user }
            let profiles = try await cloud.records(named: users)
            return records.compactMap { AppMember(membership: $0, profiles: profiles) }
        } catch {
            throw .remote(error)
        }
    }

    /// The members to add to the kept family, and the report's account of every member.
    private func plan(_ duplicate: CaseFamily, into kept: CaseFamily, appMembers: [AppMember], report: inout MergeReport) -> [MemberMove] {
        let keptAdmin = kept.admin
        let present = Set(
            kept.members.filter { $0.status != MembershipStatus.removed.rawValue }.map(\.userID))
        var moves: [MemberMove] = []
        let ids = RecordIDGenerator(source: SystemSecureRandomSource())
        var candidates: [(CaseMember, ImportedProfile?, String)] = duplicate.members.filter { $0.status != MembershipStatus.removed.rawValue }
            .map { ($0, nil, "store") }
        candidates += appMembers.map { ($0.member, $0.profile, "cloudkit") }
        for (member, profile, source) in candidates {
            var entry = MergeReport.Member(
                userId: member.userID.rawValue, displayName: member.displayName, role: member.role,
                from: source)
            if present.contains(member.userID) {
                entry.outcome = "already a member of the kept family"
            } else if member.role == MembershipRole.parentAdmin.rawValue, let keptAdmin,
                Self.samePerson(member, keptAdmin)
            {
                entry.outcome = "the kept family's admin, registered twice"
            } else if let membershipID = try? ids.make() {
                let role = member.role == MembershipRole.parentAdmin.rawValue && keptAdmin != nil
                    ? MembershipRole.adult : MembershipRole(rawValue: member.role) ?? .adult
                let status = MembershipStatus(rawValue: member.status) ?? .active
                moves.append(MemberMove(membershipID: MembershipID(rawValue: membershipID), familyID: kept.id,
                                        userID: member.userID, role: role, status: status,
                                        joinedAt: .now, profile: profile))
                entry.outcome = "moved"
                entry.role = role.rawValue
            } else {
                entry.outcome = "not moved: no random source for a new membership id"
            }
            report.members.append(entry)
        }
        return moves
    }

    /// The same parent: one profile, one Apple account, or the same name folded.
    static func samePerson(_ one: CaseMember, _ other: CaseMember) -> Bool {
        if one.userID == other.userID { return true }
        if let hash = one.appleUserIdHash, hash == other.appleUserIdHash { return true }
        return NameFold.fold(one.displayName) == NameFold.fold(other.displayName)
    }

    /// Creates in CloudKit the kept family's memberships for the duplicate's members that are
    /// still pending (this run's and a killed run's), when their family and profile are there;
    /// the others wait for resync.
    private func upload(
        movedTo kept: CaseFamily, from duplicate: CaseFamily, store: TribeBoardStore,
        remote: inout RemoteCase?,
        report: inout MergeReport
    ) async throws(CaseError) {
        guard var cloud = remote, kept.uploaded else { return }
        defer { remote = cloud }
        do {
            let refreshed = try store.caseFamilies([kept.id]).first
            let pending = (refreshed?.members ?? []).filter { !$0.uploaded && $0.profileUploaded }
                .map(\.membershipID)
            let memberships = try store.pendingMemberships(pending)
            let records = memberships.map { membership in
                RecordMapping.membership(id: membership.id, familyID: membership.familyID, userID: membership.userID, role: membership.role,
                                         status: membership.status, joinedAt: membership.joinedAt,
                                         lastRoleChangeAt: membership.lastRoleChangeAt)
            }
            let created = try await cloud.create(records)
            let done = created.filter { $0.value == .gone }.map(\.key)
            try store.markMembershipsUploaded(done.map(MembershipID.init(rawValue:)))
            report.membershipsUploaded += done.count
        } catch let error as CloudKitError {
            throw .remote(error)
        } catch let error as StoreError {
            throw .store(error)
        } catch {
            throw .store(.writeFailed(reason: "\(error)"))
        }
    }
}

/// A member who joined in the app: CloudKit's membership and profile, read by the Remote
/// module's decoders (a profile's date: the app's `createdAt`, else CloudKit's creation time).
struct AppMember {
    let member: CaseMember
    let profile: ImportedProfile?

    init?(membership record: CloudKitRecord, profiles: [String: CloudKitRecord]) {
        let membership = RemoteMembership(record)
        guard let user = membership.user else { return nil }
        let remote = profiles[user].map { RemoteProfile($0) }
        let name = remote?.displayName ?? "?"
        member = CaseMember(
            membershipID: MembershipID(rawValue: record.recordName), userID: UserID(rawValue: user),
            displayName: name, appleUserIdHash: remote?.appleUserIdHash,
            role: membership.role ?? "adult",
            status: membership.status ?? "active", uploaded: true, profileUploaded: remote != nil,
            profileOnlyHere: false)
        profile = remote.map {
            ImportedProfile(id: UserID(rawValue: user), displayName: name, appleUserIdHash: $0.appleUserIdHash,
                            createdAt: $0.created.timestamp ?? .now)
        }
    }
}
