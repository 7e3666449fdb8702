import TribeBoardSupport
import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// What is wrong with one family, each finding with what to do: its creation, its admin, its sync,
/// and how CloudKit's copy compares.
struct FamilyDiagnosis {
    let records: FamilyRecords
    let request: DoctorRequest

    func findings() -> [DoctorCheck] {
        [creationFinding(), adminFinding(), syncFinding()]
    }

    private func creationFinding() -> DoctorCheck {
        let checked = "Creation (creation_log)"
        guard let last = records.log.last else {
            return DoctorCheck(
                .familyCreation, .creations, .ok, checked: checked,
                found: "no creation log: the family was created by the app or imported")
        }
        if records.log.contains(where: { $0.state == FamilyCreationState.completed.rawValue }) {
            return DoctorCheck(
                .familyCreation, .creations, .ok, checked: checked, found: "completed")
        }
        let error = records.log.last { $0.error != nil }?.error.map { ": \($0)" } ?? ""
        let (store, remote) = (request.storePath, request.remoteFlags)
        return DoctorCheck(
            .familyCreation, .creations, .failure, checked: checked,
            found: "stopped at \(last.state) (\(last.at?.text ?? "?"))\(error)",
            action: !isUnfinishedCreation
                ? "the family and its admin exist: run `\(Advice.resync(store: store, remote: remote).command)` to finish its upload"
                // Resync never uploads it: support closes it.
                : "the creation stopped before its admin membership, and resync keeps it out of CloudKit: "
                    + "remove it with `\(Advice.remove(store: store, familyID: records.family.id, remote: remote).command)`, "
                    + "then provision its row again with its admin (admin_display_name)")
    }

    /// What resync keeps out of CloudKit: the store's rule, so both say the same.
    private var isUnfinishedCreation: Bool { records.family.halfMade }

    private func adminFinding() -> DoctorCheck {
        let checked = "Parent admin (the app's: an active parent_admin)"
        let admins = records.memberships.filter {
            $0.role == MembershipRole.parentAdmin.rawValue
                && $0.status != MembershipStatus.removed.rawValue
        }
        let names = admins.map { "\($0.user) (\($0.status))" }.joined(separator: ", ")
        switch records.family.adminState {
        case .active:
            return DoctorCheck(.familyAdmin, .creations, .ok, checked: checked, found: names)
        case .awaitingInvitedAdmin:
            return DoctorCheck(.familyAdmin, .creations, .ok, checked: checked,
                               found: "awaiting its invited admin \(names): no admin in the app until that person joins "
                                   + "with the code (the join kit's activateInvitedAdmin); their profile stays in this store until then")
        case .none:
            return DoctorCheck(
                .familyAdmin, .creations, .warning, checked: checked,
                found: admins.isEmpty
                    ? "no active or invited parent_admin membership"
                    : "no active parent_admin: \(names), which neither the app nor the join kit counts",
                action: "invite a parent admin in the app, or remove the family "
                    + "(`"
                    + Advice.remove(
                        store: request.storePath, familyID: records.family.id,
                        remote: request.remoteFlags
                    ).command
                    + "`) "
                    + "and provision its row again with admin_display_name (provision never changes a family it already holds)"
            )
        }
    }

    private func syncFinding() -> DoctorCheck {
        let checked = "Sync"
        let family = records.family
        if let entry = records.familySync, entry.status != "retrying" || entry.attempts >= CreationChecks.repeatedFailures {
            let conflict = entry.conflictWith.map { "; its code is held by CloudKit record \(OutsideText.inline($0))" } ?? ""
            let (store, remote) = (request.storePath, request.remoteFlags)
            let resync = Advice.resync(store: store, remote: remote).command
            let action: String
            if entry.status == "conflict" && entry.conflictWith == family.id.rawValue {
                // A new code would not help: the record name is what CloudKit holds.
                let adopt = Advice.adopt(
                    store: store, familyID: family.id, remote: remote, apply: false
                ).command
                action =
                    "CloudKit holds another version under this family's own record name (see CloudKit's copy for who "
                    + "wrote it): `\(adopt)` shows both versions, and with --apply takes CloudKit's into the store"
            } else if entry.status == "conflict" {
                action = "give the family a new code (its current one is taken in CloudKit): "
                    + "`\(Advice.repairAll(store: store, remote: remote).command)`, then `\(resync)`"
            } else if entry.status == "retrying" {
                action = "fix the cause named in the error; `\(resync)` keeps trying "
                    + "(`\(Advice.resyncList(store: store).command)` shows what waits)"
            } else {
                let release = Advice.resyncRelease(store: store, recordID: family.id.rawValue)
                    .command
                action =
                    "fix the cause named in the error, then `\(release)` gives it back to the next resync"
            }
            return DoctorCheck(.familySync, .creations, .failure, checked: checked,
                               found: "\(entry.status) after \(entry.attempts) attempts: \(entry.lastError ?? "no error recorded")\(conflict)",
                               action: action)
        }
        guard family.needsSync else {
            return DoctorCheck(
                .familySync, .creations, .ok, checked: checked,
                found: "uploaded" + (family.lastSyncDate.map { " at \($0)" } ?? ""))
        }
        let sinceDate = family.lastSyncDate ?? family.createdAt
        let since = sinceDate?.text ?? "?"
        if isUnfinishedCreation {
            return DoctorCheck(
                .familySync, .creations, .warning, checked: checked,
                found:
                    "pending since \(since), kept out of CloudKit: its creation did not complete",
                action: "close its creation (above); resync never uploads it as it is")
        }
        let stale =
            sinceDate.map { request.now.timeIntervalSince($0.date) > request.staleAfter } ?? false
        return DoctorCheck(
            .familySync, .creations, stale ? .failure : .warning, checked: checked,
            found: "waiting for sync since \(since)"
                + (stale ? ", longer than \(CreationChecks.describe(request.staleAfter))" : ""),
            action:
                "run `\(Advice.resync(store: request.storePath, remote: request.remoteFlags).command)` with a remote configured"
        )
    }

    /// CloudKit's copy against the store's: present when uploaded, same code, nobody else's code.
    static func remoteFinding(
        _ remote: RemoteFamilyState, family: FamilyFacts?, store storePath: String,
        remoteFlags: [String]
    ) -> DoctorCheck {
        let checked = "CloudKit's copy"
        switch remote.status {
        case .notConfigured:
            return DoctorCheck(
                .familyRemote, .creations, .warning, checked: checked, found: remote.detail,
                action: "pass --key-id and --key-file to compare with CloudKit")
        case .unavailable:
            return DoctorCheck(
                .familyRemote, .creations, .warning, checked: checked,
                found: "not consulted: \(remote.detail)",
                action: "run `\(Advice.doctor(store: storePath, remote: remoteFlags).command)` "
                    + "for the remote's health, then try again")
        case .missing:
            guard let family else {
                return DoctorCheck(
                    .familyRemote, .creations, .failure, checked: checked, found: remote.detail,
                    action:
                        "the family exists nowhere this toolkit can see: check the code with the family's admin"
                )
            }
            if family.needsSync {
                return DoctorCheck(
                    .familyRemote, .creations, .ok, checked: checked,
                    found: remote.detail + ", as expected: it waits for sync")
            }
            return DoctorCheck(.familyRemote, .creations, .failure, checked: checked,
                               found: remote.detail + ", although the store marks it uploaded",
                               action: "check --container and --environment; to upload it again: "
                                   + "`\(Advice.reupload(store: storePath, familyID: family.id).command)`, "
                                   + "then `\(Advice.resync(store: storePath, remote: remoteFlags).command)` "
                                   + "(`\(Advice.audit(store: storePath, remote: remoteFlags).command)` counts every such family)")
        case .found:
            return foundFinding(remote, family: family, store: storePath, remoteFlags: remoteFlags)
        case .notAsked:
            return DoctorCheck(
                .familyRemote, .creations, .ok, checked: checked, found: remote.detail)
        }
    }

    /// What the app finds for the code through the join kit: a family it cannot find is a failure.
    /// When another creator wrote the record under the family's own name (`family.recordCreator`),
    /// no claim or upload of this key makes the app find the store's version: adopt ends the case.
    static func appLookupFinding(
        _ app: AppLookupReport, remote: RemoteFamilyState, familyID: String?, store: String,
        remoteFlags: [String]
    ) -> DoctorCheck {
        let checked = "What the app finds for this code (the join kit's lookup)"
        guard let stop = app.stoppedAt else {
            return DoctorCheck(
                .familyAppLookup, .creations, .ok, checked: checked, found: app.detail)
        }
        let action: String
        if stop != "unavailable", stop != "invalidCode",
            let other = anotherCreatorsRecord(remote, familyID: familyID)
        {
            let familyID = FamilyID(rawValue: other.record.recordName)
            let plan: String = Advice.adopt(
                store: store, familyID: familyID, remote: remoteFlags, apply: false
            ).command
            let apply: String = Advice.adopt(
                store: store, familyID: familyID, remote: remoteFlags, apply: true
            ).command
            let creator: String = OutsideText.inline(other.creator)
            let caller: String = OutsideText.inline(other.caller)
            action =
                "CloudKit's record under this family's own name was written by another creator, "
                + "\(creator), not by this key (\(caller)): the app follows a code's claim only to a family "
                + "written by the claim's creator, so no claim or upload of this key makes the app find the "
                + "store's version; `\(plan)` shows both versions, then `\(apply)` takes CloudKit's version, "
                + "the one the app reads, into the store"
        } else if stop == "noClaim" || stop == "familyGone" {
            action = "`\(Advice.resync(store: store, remote: remoteFlags).command)` claims the codes of families it uploads; "
                + "`\(Advice.migrateClaims(store: store, remote: remoteFlags).command)` claims those of families already there"
        } else {
            action = "see docs/code-claims.md (how the app finds a family) for this case"
        }
        return DoctorCheck(
            .familyAppLookup, .creations, stop == "unavailable" ? .warning : .failure,
            checked: checked,
            found: app.detail, action: action)
    }

    /// CloudKit's record under the family's own name when another creator wrote it, with who wrote
    /// it and who this key is: the one condition of `family.recordCreator` and of the app lookup's
    /// advice, so the two findings never disagree.
    static func anotherCreatorsRecord(_ remote: RemoteFamilyState, familyID: String?)
        -> (record: RemoteFamilyRecord, creator: String, caller: String)? {
        guard let familyID, let own = remote.records.first(where: { $0.recordName == familyID }),
            let creator = own.creator, let caller = remote.caller, creator != caller
        else { return nil }
        return (own, creator, caller)
    }

    private static func foundFinding(
        _ remote: RemoteFamilyState, family: FamilyFacts?, store storePath: String,
        remoteFlags: [String]
    ) -> DoctorCheck {
        let checked = "CloudKit's copy"
        let listed = remote.records.map {
            "\($0.recordType) \($0.recordName) (code \($0.code ?? "none"))"
        }.joined(separator: "; ")
        guard let family else {
            return DoctorCheck(
                .familyRemote, .creations, .warning, checked: checked,
                found: "only in CloudKit: \(listed)",
                action:
                    "the family was created by the app and never reached this store; nothing to do unless it is expected here"
            )
        }
        if let other = anotherCreatorsRecord(remote, familyID: family.id.rawValue) {
            return anotherCreatorFinding(
                other.record, creator: other.creator, caller: other.caller, family: family,
                store: storePath, remoteFlags: remoteFlags)
        }
        let others = remote.records.filter { $0.recordName != family.id.rawValue }
        if !others.isEmpty {
            let holders = others.map {
                "\(OutsideText.inline($0.recordType)) \(OutsideText.inline($0.recordName))"
            }
            return DoctorCheck(
                .familyRemote, .creations, .failure, checked: checked,
                found: "the code \(family.code) is also held by \(holders.joined(separator: ", "))",
                action: sharedCodeAction(
                    family, others: others, store: storePath, remoteFlags: remoteFlags))
        }
        if let own = remote.records.first, own.code != family.code {
            // This key's own record (a store restored from before an uploaded recode): CloudKit's
            // is what the app's members use; adopt takes it.
            let adopt = { (apply: Bool) in
                Advice.adopt(
                    store: storePath, familyID: family.id, remote: remoteFlags, apply: apply
                ).command
            }
            return DoctorCheck(
                .familyRemote, .creations, .failure, checked: checked,
                found: "CloudKit has code \(own.code ?? "none"), the store \(family.code)",
                action:
                    "the app reads CloudKit's: `\(adopt(false))` shows both versions, `\(adopt(true))` takes "
                    + "CloudKit's into the store (and prints the command that reprints its card)")
        }
        return DoctorCheck(.familyRemote, .creations, .ok, checked: checked, found: listed)
    }

    /// A record under the family's own name that another creator wrote (an app user's): this key
    /// may read it but never change or delete it, so neither a new code nor a resync closes the
    /// case; adopting CloudKit's version does (its plan names the creator before it takes it).
    private static func anotherCreatorFinding(
        _ own: RemoteFamilyRecord, creator: String, caller: String, family: FamilyFacts,
        store storePath: String, remoteFlags: [String]
    ) -> DoctorCheck {
        let adopt = { (apply: Bool) in
            Advice.adopt(store: storePath, familyID: family.id, remote: remoteFlags, apply: apply)
                .command
        }
        return DoctorCheck(
            .familyRecordCreator, .creations, .failure,
            checked: "Who wrote CloudKit's record under this family's name",
            found:
                "\(OutsideText.inline(own.recordType)) \(OutsideText.inline(own.recordName)) (code \(own.code ?? "none"), "
                + "name \(OutsideText.inline(own.name ?? "none"))) was written by another creator, \(OutsideText.inline(creator)); "
                + "this key acts as \(OutsideText.inline(caller)) and, under CloudKit's default roles, may not change or delete it",
            action:
                "the store's version cannot go up over it: `\(adopt(false))` shows both versions and names that creator, "
                + "then `\(adopt(true))` takes CloudKit's version into the store (the family then lives as the app has it)"
        )
    }

    /// The audit's rule (`SharedCodeRule`): the oldest holder keeps the code, by creation date
    /// (unknown dates last), then id; the store's family is given a new code only when it is newer.
    private static func sharedCodeAction(_ family: FamilyFacts, others: [RemoteFamilyRecord], store storePath: String,
                                         remoteFlags: [String]) -> String {
        let holders = [(id: family.id.rawValue, created: family.createdAt)]
            + others.map { (id: $0.recordName, created: $0.created) }
        let oldest = holders.min { lhs, rhs in
            switch (lhs.created, rhs.created) {
            case let (left?, right?) where left != right: return left < right
            case (.some, nil): return true
            case (nil, .some): return false
            default: return lhs.id < rhs.id
            }
        }
        let keeper = oldest?.id ?? family.id.rawValue
        guard keeper != family.id.rawValue else {
            let recode = Advice.recode(familyID: "ID", store: nil, remote: remoteFlags).command
            return SharedCodeRule.keeps(keeper) + " (this family): change the code of "
                + others.map(\.recordName).joined(separator: ", ")
                + " in the app, or with `\(recode)` where a store of this toolkit holds it"
        }
        return SharedCodeRule.keeps(keeper)
            + "; give this family a new code before anyone joins with it: "
            + SharedCodeRule.recode(family.id, store: storePath, remote: remoteFlags)
    }
}
