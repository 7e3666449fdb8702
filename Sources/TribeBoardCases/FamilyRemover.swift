import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardRemote
import TribeBoardStore
import TribeBoardSupport

/// Takes families out of CloudKit and the store, in the order that leaves nothing dangling when
/// killed at any moment:
///
/// 1. the store records that the removal started (`family_removals`): resync no longer uploads
///    the family or its memberships;
/// 2. CloudKit: its `Membership` records (those the store knows, read by name, and those app
///    users added, found by query), then its `Family` record, then its code claims, each deleted
///    with the change tag it was read with (a claim another family holds is left);
/// 3. the store, in one transaction: memberships, sync bookkeeping, claim rows, the family, and
///    the profiles only it used that never went up; the removal is marked finished.
///
/// A rerun reads again and finds gone what is gone: it converges. Families go in batches of at
/// most 200 CloudKit operations. Blocks (SQLite): run it on a `PipelineThread`.
package struct FamilyRemover: Sendable {
    let request: RemoveRequest
    let logger: Logger
    /// The family a merge moved the members into (recorded with the removal).
    var mergedInto: String?
    /// After each batch: families settled so far, of how many.
    package var onProgress: @Sendable (WorkProgress) -> Void = { _ in }

    package init(request: RemoveRequest, logger: Logger) {
        self.request = request
        self.logger = logger
    }

    package func run() async throws(CaseError) -> RemoveReport {
        let (store, writable) = try CaseStore.open(request.storePath, forWriting: request.apply)
        var report = RemoveReport(
            store: request.storePath, applied: request.apply, remote: request.client != nil)
        report.asked = request.families.count
        var remote = request.client.map(RemoteCase.init)
        var batch: [(CaseFamily, RemovedFamily)] = []
        var operations = 0
        var done = 0
        let started = ContinuousClock.now
        for chunk in request.families.chunked(CloudKitClient.maxOperationsPerRequest) {
            let resolved = try resolve(Array(chunk), store: store, report: &report)
            let joinedInApp = try await appMembers(of: resolved.map(\.1), remote: &remote)
            for (query, family) in resolved {
                var entry = plan(family, query: query)
                entry.members += joinedInApp[family.id.rawValue] ?? []
                let others =
                    family.otherMembers.count + (joinedInApp[family.id.rawValue]?.count ?? 0)
                if others > 0 && !request.force {
                    entry.outcome = .refused
                    entry.problem = CaseError.hasMembers(familyID: family.id, count: others, store: request.storePath).localizedDescription
                    if request.families.count == 1 { throw .hasMembers(familyID: family.id, count: others, store: request.storePath) }
                    report.add(entry)
                    continue
                }
                guard request.apply else {
                    report.add(entry)
                    continue
                }
                if remote == nil && (family.uploaded || !family.claimedCodes.isEmpty) {
                    if request.families.count == 1 {
                        throw .remoteNeeded(familyID: family.id.rawValue)
                    }
                    entry.outcome = .unfinished
                    entry.problem =
                        CaseError.remoteNeeded(familyID: family.id.rawValue).localizedDescription
                    report.add(entry)
                    continue
                }
                let cost = family.members.count + 2
                if operations + cost > CloudKitClient.maxOperationsPerRequest && !batch.isEmpty {
                    try await flush(&batch, store: writable, remote: &remote, report: &report)
                    operations = 0
                }
                batch.append((family, entry))
                operations += cost
            }
            done += chunk.count
            onProgress(WorkProgress(processed: done, total: request.families.count, since: started))
        }
        try await flush(&batch, store: writable, remote: &remote, report: &report)
        onProgress(
            WorkProgress(
                processed: request.families.count, total: request.families.count, since: started))
        report.requests += remote?.requests ?? 0
        report.nextStep = nextStep(report)
        return report
    }

    /// What finishes the case: a family record another creator wrote is never this key's to
    /// delete (a rerun would be refused again), and adopt takes it into the store instead.
    private func nextStep(_ report: RemoveReport) -> String? {
        if report.heldByMembers > 0 {
            let rest = report.unfinished > report.heldByMembers + report.notOurs
            return "CloudKit refused to delete memberships of members who joined in the app (their records; only they can leave"
                + " the family, in the app), so the family record stays and running remove again changes nothing: ask them to leave"
                + " in the app, then run the same command again, or keep the family"
                + (rest
                    ? "; for the others, run the same command again: it finishes what was started"
                    : "")
        }
        if report.notOurs > 0 {
            let ids = report.families.filter(\.anotherCreator).compactMap(\.familyId)
            let adopt = Advice.adopt(
                store: request.storePath,
                familyID: ids.count == 1 ? FamilyID(rawValue: ids[0]) : "ID",
                remote: request.client?.configuration.adviceFlags ?? [], apply: true
            ).command
            return
                "CloudKit refused to delete a family record another creator wrote (an app user's; only they may delete it), "
                + "so running remove again changes nothing: take CloudKit's version into the store with `\(adopt)`"
                + (report.unfinished > report.notOurs
                    ? "; for the others, run the same command again: it finishes what was started"
                    : "")
        }
        return report.unfinished > 0
            ? "run the same command again: it finishes what was started" : nil
    }

    /// Each query's family, or its entry when the store no longer holds it (removed earlier, or
    /// unknown).
    private func resolve(_ queries: [String], store: any StoreReading, report: inout RemoveReport)
        throws(CaseError) -> [(String, CaseFamily)]
    {
        var resolved: [(String, FamilyID)] = []
        do {
            for query in queries {
                if let family = try store.namedFamily(query) {
                    resolved.append((query, family.id))
                } else if let removal = try store.removal(matching: query), removal.finished {
                    var entry = RemovedFamily(query: query, outcome: .alreadyRemoved)
                    entry.familyId = removal.familyID.rawValue
                    entry.familyName = removal.name
                    entry.code = request.display(removal.code)
                    entry.mergedInto = removal.mergedInto?.rawValue
                    report.add(entry)
                } else {
                    if queries.count == 1 && request.families.count == 1 {
                        throw CaseError.noSuchFamily(query, store: request.storePath)
                    }
                    report.add(RemovedFamily(query: query, outcome: .notFound))
                }
            }
            let families = Dictionary(
                try store.caseFamilies(resolved.map(\.1)).map { ($0.id, $0) },
                uniquingKeysWith: { first, _ in first })
            return resolved.compactMap { query, id in families[id].map { (query, $0) } }
        } catch {
            throw .reading(error)
        }
    }

    /// Members who joined these families in the app (CloudKit's memberships the store does not
    /// hold): they count as members besides the admin, and their profiles are theirs (kept).
    private func appMembers(of families: [CaseFamily], remote: inout RemoteCase?)
        async throws(CaseError) -> [String: [RemovedFamily.Member]]
    {
        let uploaded = families.filter(\.uploaded)
        guard var cloud = remote, !uploaded.isEmpty else { return [:] }
        defer { remote = cloud }
        let queried: [String: [CloudKitRecord]]
        do throws(CloudKitError) {
            queried = try await cloud.memberships(of: uploaded.map(\.id.rawValue))
        } catch {
            throw .remote(error)
        }
        var members: [String: [RemovedFamily.Member]] = [:]
        for family in uploaded {
            let known = Set(family.members.map(\.membershipID.rawValue))
            members[family.id.rawValue] = (queried[family.id.rawValue] ?? []).filter {
                !known.contains($0.recordName)
            }.map { record in
                let joined = RemoteMembership(record)
                return RemovedFamily.Member(
                    membershipId: record.recordName, userId: joined.user ?? "?",
                    displayName: "(joined in the app)", role: joined.role ?? "?",
                    status: joined.status ?? "?", profile: "kept")
            }
        }
        return members
    }

    private func plan(_ family: CaseFamily, query: String) -> RemovedFamily {
        var entry = RemovedFamily(query: query, outcome: request.apply ? .removed : .planned)
        entry.familyId = family.id.rawValue
        entry.familyName = family.name
        entry.code = request.display(family.code)
        entry.unfinishedCreation = family.halfMade
        entry.mergedInto = mergedInto
        entry.members = family.members.map { member in
            RemovedFamily.Member(
                membershipId: member.membershipID.rawValue, userId: member.userID.rawValue,
                displayName: member.displayName,
                role: member.role, status: member.status,
                profile: member.profileOnlyHere && !member.profileUploaded ? "deleted" : "kept")
        }
        return entry
    }

    /// Removes a batch: started in the store, out of CloudKit, out of the store. Only --apply
    /// batches families, and only --apply opens the store for writing.
    private func flush(
        _ batch: inout [(CaseFamily, RemovedFamily)], store: TribeBoardStore?,
        remote: inout RemoteCase?,
        report: inout RemoveReport
    ) async throws(CaseError) {
        guard !batch.isEmpty, let store else { return }
        defer { batch.removeAll(keepingCapacity: true) }
        do throws(StoreError) {
            try store.beginRemovals(batch.map {
                FamilyRemoval(familyID: $0.0.id, name: $0.0.name, code: $0.0.code,
                              mergedInto: mergedInto.map(FamilyID.init(rawValue:)))
            })
        } catch {
            throw .store(error)
        }
        var entries = batch.map(\.1)
        if remote != nil {
            do throws(CloudKitError) {
                try await removeRemotely(
                    batch.map(\.0), entries: &entries, remote: &remote, report: &report)
            } catch {
                throw .remote(error)
            }
        }
        let gone = zip(batch.map(\.0), entries).filter { $0.1.outcome == .removed }.map(\.0.id)
        do throws(StoreError) {
            _ = try store.finishRemovals(gone)
        } catch {
            throw .store(error)
        }
        for entry in entries {
            logger.notice(
                "family removal",
                metadata: [
                    "family": "\(entry.familyId ?? "?")", "outcome": "\(entry.outcome.rawValue)"
                ])
            report.add(entry)
        }
    }

    private func removeRemotely(
        _ families: [CaseFamily], entries: inout [RemovedFamily], remote: inout RemoteCase?,
        report: inout RemoveReport
    ) async throws(CloudKitError) {
        guard var cloud = remote else { return }
        defer { remote = cloud }
        let (known, memberships) = try await remoteMemberships(of: families, in: &cloud)
        let familyRecords = try await deleteMemberships(
            memberships, of: families, known: known, in: &cloud,
            entries: &entries)
        let claims = try await deleteFamilies(
            familyRecords, of: families, in: &cloud, entries: &entries)
        guard !claims.isEmpty else { return }
        let answer = try await CodeClaimer(client: cloud.client).release(claims.map(\.1))
        report.requests += answer.requests
        for (index, claim) in claims {
            switch answer.outcomes[claim.recordName] {
            case .released?: entries[index].claimsReleased += 1
            case .notOurs?: entries[index].claimsNotOurs += 1
            case .failed(let error)?:
                entries[index].outcome = .unfinished
                entries[index].problem = "code claim: \(error.serverErrorCode)"
            case nil:
                entries[index].outcome = .unfinished
                entries[index].problem = "code claim: \(answer.problem ?? "no answer")"
            }
        }
    }

    /// The families' and memberships' records CloudKit holds by name, and each family's
    /// memberships: the store's, and those a query finds (joined in the app).
    private func remoteMemberships(of families: [CaseFamily], in cloud: inout RemoteCase)
        async throws(CloudKitError) -> (
            known: [String: CloudKitRecord], memberships: [String: [CloudKitRecord]]
        )
    {
        let ids = families.map(\.id.rawValue)
        let known = try await cloud.records(
            named: ids + families.flatMap { $0.members.map(\.membershipID.rawValue) })
        let queried = try await cloud.memberships(of: ids)
        var memberships: [String: [CloudKitRecord]] = [:]
        for family in families {
            var records = family.members.compactMap { known[$0.membershipID.rawValue] }
            for record in queried[family.id.rawValue] ?? []
            where !records.contains(where: { $0.recordName == record.recordName }) {
                records.append(record)
            }
            memberships[family.id.rawValue] = records
        }
        return (known, memberships)
    }

    /// Deletes the memberships; a family whose memberships all went returns its record to delete,
    /// the others are unfinished.
    private func deleteMemberships(
        _ memberships: [String: [CloudKitRecord]], of families: [CaseFamily],
        known: [String: CloudKitRecord], in cloud: inout RemoteCase,
        entries: inout [RemovedFamily]
    ) async throws(CloudKitError) -> [CloudKitRecord] {
        let deletedMembers = try await cloud.delete(
            families.flatMap { memberships[$0.id.rawValue] ?? [] })
        var familyRecords: [CloudKitRecord] = []
        for (index, family) in families.enumerated() {
            let records = memberships[family.id.rawValue] ?? []
            let failed = records.compactMap { record -> String? in
                if case .failed(let reason, _)? = deletedMembers[record.recordName] {
                    return "membership \(record.recordName): \(reason)"
                }
                return nil
            }
            entries[index].membershipsNotOurs = records.filter { record in
                if case .failed(_, true)? = deletedMembers[record.recordName] { return true }
                return false
            }.count
            entries[index].remoteMembershipsDeleted = records.count - failed.count
            if let problem = failed.first {
                entries[index].outcome = .unfinished
                entries[index].problem = problem
            } else if let record = known[family.id.rawValue] {
                familyRecords.append(record)
            }
        }
        return familyRecords
    }

    /// Deletes the family records; the code claims of the families now gone, to release.
    private func deleteFamilies(
        _ familyRecords: [CloudKitRecord], of families: [CaseFamily],
        in cloud: inout RemoteCase,
        entries: inout [RemovedFamily]
    ) async throws(CloudKitError) -> [(Int, CodeClaim)] {
        let deletedFamilies = try await cloud.delete(familyRecords)
        var claims: [(Int, CodeClaim)] = []
        for (index, family) in families.enumerated() where entries[index].outcome == .removed {
            if case .failed(let reason, let refused)? = deletedFamilies[family.id.rawValue] {
                entries[index].outcome = .unfinished
                entries[index].anotherCreator = refused
                entries[index].problem = "family record: \(reason)"
                continue
            }
            entries[index].remoteFamilyDeleted = deletedFamilies[family.id.rawValue] != nil
            for code in Set(family.claimedCodes + [CodeClaim.normalise(family.code)]) {
                do throws(CodeClaimError) {
                    claims.append((index, try CodeClaim(code: code, familyID: family.id)))
                } catch {
                    entries[index].outcome = .unfinished
                    entries[index].problem = error.localizedDescription
                }
            }
        }
        return claims
    }
}

/// Opening the store for a case: read-only for a plan (a mistyped --store is "no such file",
/// never a new empty store), for writing with --apply: `writable` is nil for a plan, so a plan
/// has no write to call.
enum CaseStore {
    static func open(_ path: String, forWriting: Bool) throws(CaseError) -> (
        reading: any StoreReading, writable: TribeBoardStore?
    ) {
        do throws(StoreError) {
            let reading = try TribeBoardStore.openReadOnly(at: path)
            guard forWriting else { return (reading, nil) }
            let writable = try TribeBoardStore.open(at: path)
            return (writable, writable)
        } catch {
            throw .store(error)
        }
    }
}
