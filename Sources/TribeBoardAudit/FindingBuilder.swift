import Foundation
import TribeBoardSupport
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardRemote
import TribeBoardSupport
import TribeBoardDomain

/// Turns what the cross-check found into findings: a sentence, the families, what to do.
struct FindingBuilder {
    let request: AuditRequest
    let queries: LocalAuditQueries

    /// The audit's repair for local families sharing a code, as commands for this store and remote.
    var repairHint: String {
        "`\(Advice.repairPlan(store: request.storePath, remote: remoteFlags).command)` shows the fix; "
            + "`\(Advice.repairAll(store: request.storePath, remote: remoteFlags).command)` gives the newer local families new codes "
            + "and QR codes and marks them for resync (`\(Advice.recodePlan(familyID: "ID", store: request.storePath, remote: remoteFlags).command)` "
            + "does one family); " + SharedCodeRule.statement
    }

    /// Local members get their names and creation dates from the store.
    func named(_ groups: [DuplicateGroup]) throws -> [DuplicateGroup] {
        let ids = groups.flatMap { $0.members.filter { $0.location != .remote }.map(\.id) }
        let details = try queries.details(of: ids)
        return groups.map { group in
            DuplicateGroup(members: group.members.map { fill($0, details) })
        }
    }

    func named(_ members: [GroupMember]) throws -> [GroupMember] {
        let details = try queries.details(of: members.filter { $0.location != .remote }.map(\.id))
        return members.map { fill($0, details) }
    }

    private func fill(_ member: GroupMember, _ details: [String: FamilyDetails]) -> GroupMember {
        guard member.location != .remote, let found = details[member.id] else { return member }
        var filled = member
        filled.name = found.name
        filled.createdAtMilliseconds = found.createdAt?.milliseconds
        return filled
    }

    func family(_ member: GroupMember) -> AuditFamily {
        AuditFamily(id: member.id, name: member.name, location: member.location, code: request.display(member.code),
                    recordType: member.recordType, createdAt: member.createdAtMilliseconds.map(Self.timestamp),
                    snapshotLine: member.snapshotLine)
    }

    func duplicate(_ group: DuplicateGroup) -> AuditFinding {
        let ordered = group.membersOldestFirst
        let category = group.category
        let code = request.display(ordered.first?.code ?? "")
        let count = ordered.count
        let message: String
        switch category {
        case .caseOnlyTwins:
            message = "\(count) families have codes that differ only in case or spaces; the join screen "
                + "upper-cases what people type, so they reach the same code"
        case .duplicateLocal: message = "\(count) local families share one code"
        case .duplicateRemote: message = "\(count) CloudKit family records share one code"
        default: message = "a local family and a different CloudKit family share one code (\(count) families)"
        }
        return AuditFinding(category: category, code: code, message: message, action: duplicateAction(ordered),
                            families: ordered.map(family))
    }

    private func duplicateAction(_ ordered: [GroupMember]) -> String {
        guard let keeper = ordered.first else { return repairHint }
        let others = ordered.dropFirst()
        if others.allSatisfy({ $0.location != .remote }) { return SharedCodeRule.keeps(keeper.id) + "; " + repairHint }
        let remoteOnly = others.filter { $0.location == .remote }.map(\.id)
        var action = SharedCodeRule.keeps(keeper.id) + ". The toolkit never writes CloudKit directly: change the code of "
            + "\(remoteOnly.joined(separator: ", ")) in the app (or delete stray records in the CloudKit Dashboard)"
        if others.contains(where: { $0.location != .remote }) { action += "; for the local ones, " + repairHint }
        return action
    }

    func formatViolation(_ member: GroupMember) -> AuditFinding {
        let place = member.location == .remote ? "CloudKit record" : "family"
        let legacy = member.recordType.flatMap(RecordType.init(rawValue:))?.isLegacy == true
        let action = legacy
            // What migrate does with it: the copy gets a valid code (new-codes.csv says which).
            ? "`\(Advice.migrateLegacy(store: request.storePath, remote: remoteFlags, step: .apply).command)` copies it with a valid new code "
                + "(listed in DIR/new-codes.csv); or correct the code in the app"
            : member.location == .remote
            ? "Correct the code in the app; the join screen cannot reach a code in this form"
            : "Give the family a valid code in the app (or re-provision it): the join screen cannot reach a code in this form"
        return AuditFinding(category: .invalidFormat, code: request.display(member.code),
                            message: "the code of \(place) \(member.id) breaks the format: \(CodeFormat.problem(member.code))",
                            action: action, families: [family(member)])
    }

    func withoutCode(_ record: RemoteRecordSummary) -> AuditFinding {
        AuditFinding(category: .invalidFormat,
                     message: "CloudKit \(record.recordType) record \(record.recordName) "
                         + (record.codeIsNotString ? "has a code field whose value is not a string" : "has no code field"),
                     action: "Delete the record in the CloudKit Dashboard or give the family a code in the app",
                     families: [AuditFamily(id: record.recordName, name: record.name, location: .remote, recordType: record.recordType,
                                            snapshotLine: record.line)])
    }

    func malformed(_ line: MalformedSnapshotLine, total: Int) -> AuditFinding {
        var message = "snapshot line \(line.line) is not a CloudKit record: \(line.reason)"
        if total > RemoteFamilyIndex.malformedListLimit {
            message += " (\(total) such lines, the first \(RemoteFamilyIndex.malformedListLimit) listed)"
        }
        return AuditFinding(category: .unreadableSnapshotLine, message: message,
                            action: "The rest of the file was audited; export a fresh snapshot with "
                                + "`\(Advice.exportSnapshot(store: request.storePath, remote: remoteFlags).command)`",
                            families: [])
    }

    /// One finding per record name read more than once, with every line holding it.
    func repeatedNames(_ remote: RemoteFamilyIndex) -> [AuditFinding] {
        let repeated = remote.repeatedNames.sorted { ($0.value.first ?? 0, $0.key.string) < ($1.value.first ?? 0, $1.key.string) }
        let fromSnapshot = repeated.contains { $0.value.contains { $0 > 0 } }
        return repeated.prefix(RemoteFamilyIndex.malformedListLimit).map { id, lines in
            var message = "record \(id.string) was read \(lines.count) times"
                + (fromSnapshot ? " (snapshot lines \(lines.map(String.init).joined(separator: ", ")))" : "")
                + "; the audit counted it once"
            if repeated.count > RemoteFamilyIndex.malformedListLimit {
                message += " (\(repeated.count) such names, the first \(RemoteFamilyIndex.malformedListLimit) listed)"
            }
            let action = fromSnapshot
                ? "A snapshot `--export-remote` writes holds each record once: this file was edited or joined with another; export a fresh one"
                : "CloudKit returned the record on several pages (it may have changed during the read): audit again"
            return AuditFinding(category: .duplicateRecordName, message: message, action: action,
                                families: lines.map { AuditFamily(id: id.string, location: .remote, snapshotLine: $0 > 0 ? Int($0) : nil) })
        }
    }

    func invalidValue(_ record: RemoteRecordSummary, total: Int) -> AuditFinding {
        var message = "CloudKit \(record.recordType) record \(record.recordName): "
            + "\(record.invalidValue ?? "a value is unusable"); its creation date is treated as unknown, "
            + "so it is never the oldest of a duplicate group"
        if total > RemoteFamilyIndex.malformedListLimit {
            message += " (\(total) such records, the first \(RemoteFamilyIndex.malformedListLimit) listed)"
        }
        return AuditFinding(category: .invalidValue, message: message,
                            action: "Correct the record in the app or the CloudKit Dashboard; whatever wrote it writes broken dates",
                            families: [AuditFamily(id: record.recordName, name: record.name, location: .remote, recordType: record.recordType,
                                                   snapshotLine: record.line)])
    }

    /// Records with an empty name, live or in a snapshot alike: one finding with their count.
    func nameless(count: Int) -> AuditFinding {
        AuditFinding(category: .invalidValue,
                     message: "\(count) CloudKit record\(count == 1 ? " has" : "s have") an empty record name: "
                        + "such a record can be neither named nor changed, and was left out of the other checks",
                     action: "Find it in the CloudKit Dashboard (or the snapshot) and delete it; whatever wrote it writes broken records",
                     families: [])
    }

    func codeDiffers(_ entry: RemoteFamilyIndex.Entry, localCode: String) -> AuditFinding {
        AuditFinding(category: .codeDiffers, code: request.display(localCode),
                     message: "family \(entry.id.string) has code \(request.display(localCode)) locally and "
                        + "\(request.display(entry.code)) in CloudKit, and no repair explains it",
                     action: "Find out which is right (`"
                        + Advice.doctorFamily(store: request.storePath, family: entry.id.string, remote: remoteFlags).command
                        + "`); "
                         + "the app's members use the CloudKit one",
                     families: [AuditFamily(id: entry.id.string, name: entry.name, location: .both, code: request.display(entry.code),
                                            recordType: entry.recordType, snapshotLine: entry.line > 0 ? Int(entry.line) : nil)])
    }

    func noParentAdmin(_ family: AuditFamily) -> AuditFinding {
        AuditFinding(category: .noParentAdmin,
                     message: "family \(family.id) has no parent admin, active or invited and awaiting: the app "
                        + "reads it as half created (its creation stopped half way, or it was provisioned "
                        + "without an admin)",
                     action: "Add its admin in the app, or see `"
                        + Advice.doctorFamily(store: request.storePath, family: family.id, remote: remoteFlags).command
                        + "`",
                     families: [family])
    }

    /// The live remote's flags, for advice that reaches CloudKit (none for a snapshot).
    var remoteFlags: [String] { request.adviceFlags }

    func registeredTwice(_ pair: RegisteredTwice) -> AuditFinding {
        let (kept, duplicate) = (pair.kept.id, pair.duplicate.id)
        let merge = Advice.merge(store: request.storePath, duplicate: FamilyID(rawValue: duplicate),
                                 into: FamilyID(rawValue: kept), remote: remoteFlags).command
        return AuditFinding(category: .registeredTwice,
                            message: "family \(duplicate) has the name and admin of \(kept), created before it: one parent registered twice",
                            action: "Merge it into the older one (its members move, it is removed): "
                                + "`\(merge)`, "
                                + "then again with --apply",
                            families: [pair.kept, pair.duplicate])
    }

    func stalePending(_ sample: [AuditFamily], count: Int) -> AuditFinding {
        AuditFinding(category: .stalePending,
                     message: "\(count) local families have been waiting for sync for more than \(Self.hours(request.staleAfter))",
                     action: "Run `\(Advice.resync(store: request.storePath, remote: remoteFlags).command)` (is its cron job running?); "
                         + "`\(Advice.resyncList(store: request.storePath).command)` shows records set aside and why",
                     families: sample, count: count)
    }

    /// Families the store marks uploaded that CloudKit no longer holds: one finding with the count,
    /// the first of them, and the command that sends them again.
    /// `remoteEmpty`: the read found no family at all, which a wrong container or environment
    /// explains better than every family deleted; that cause leads the action.
    func missingRemote(_ outcome: MissingRemoteCheck.Outcome, details: [String: FamilyDetails], live: Bool,
                       remoteEmpty: Bool = false) -> AuditFinding {
        let count = outcome.missing.count
        let shown = request.sampleLimit.map { Array(outcome.missing.prefix($0)) } ?? outcome.missing
        let sample = shown.map { id in
            AuditFamily(id: id, name: details[id]?.name, location: .local,
                        createdAt: details[id]?.createdAt?.text)
        }
        var message = "\(count) famil\(count == 1 ? "y" : "ies") the store marks uploaded "
            + (live ? "\(count == 1 ? "is" : "are") not in CloudKit (looked up by record name: deleted, "
                    + "e.g. in the CloudKit Console)"
                : "\(count == 1 ? "is" : "are") not in the snapshot, though uploaded over "
                    + "\(Int(MissingRemoteCheck.snapshotMargin / 60)) min before it was written")
        if outcome.unconfirmed > 0 {
            message += "; \(outcome.unconfirmed) more not in the read could not be confirmed gone "
                + "(uploaded too recently, or not looked up) and are not counted"
        }
        let action = remoteEmpty ? wrongRemoteAction(outcome.missing)
            : Self.reuploadAction(outcome.missing, store: request.storePath, remote: remoteFlags)
        return AuditFinding(category: .missingRemote, message: message, action: action, families: sample, count: count)
    }

    /// One family: `resync --reupload ID`; several: the audit's repair marks them all.
    /// `checkFirst`: ends with the reminder that a wrong container looks the same.
    static func reuploadAction(_ ids: [String], store: String, remote: [String], checkFirst: Bool = true) -> String {
        let check = checkFirst ? "; if every family is missing, check --container and --environment first" : ""
        let resync = Advice.resync(store: store, remote: remote).command
        guard ids.count > 1 else {
            let reupload = Advice.reupload(store: store, familyID: ids.first.map(FamilyID.init(rawValue:)) ?? "ID")
                .command
            return "`\(reupload)` marks it for upload again (with its memberships and profiles), "
                + "then `\(resync)` sends it\(check)"
        }
        let repairAll = Advice.repairAll(store: store, remote: remote).command
        let reuploadOne = Advice.reupload(store: store, familyID: "ID").command
        return "`\(repairAll)` marks all \(ids.count) for upload again (with their memberships and profiles; "
            + "`\(reuploadOne)` does one), then `\(resync)` sends them\(check)"
    }

    /// The read found no family at all: uploading everything again into the container read
    /// would fill the wrong one, so checking which container and environment were read comes
    /// first, and the repair only once that is ruled out.
    func wrongRemoteAction(_ ids: [String]) -> String {
        let read: String
        var doctor = Advice.doctorContainer(store: request.storePath, container: nil, environment: nil)
        switch request.remote {
        case .live(let client, _)?:
            let configuration = client.configuration
            read = "\(configuration.container) (\(configuration.environment.rawValue))"
            doctor = .doctorContainer(store: request.storePath, container: configuration.container,
                                      environment: configuration.environment.rawValue)
        case .snapshot(let path)?: read = "the snapshot \(path)"
        case nil: read = "the remote"
        }
        return "No family at all was found in \(read): the likely cause is a wrong --container or --environment "
            + "(compared with the app's entitlements by `\(doctor.command)`). "
            + "Only if \(read) is the right one were they deleted there: "
            + Self.reuploadAction(ids, store: request.storePath, remote: remoteFlags, checkFirst: false)
    }

    func remoteOnly(_ sample: [RemoteFamilyIndex.Entry], count: Int) -> AuditFinding {
        AuditFinding(category: .remoteOnly, message: "\(count) CloudKit families are not in the local store",
                     action: "Expected when this store holds only what this machine provisioned; otherwise audit the store that should hold them",
                     families: sample.map(remoteFamily), count: count)
    }

    /// `migrated`: per type, the records whose copy `migrate legacy-types` already made; `kept`:
    /// the records it left in CloudKit on purpose, which are no finding (the report counts them).
    func legacy(_ remote: RemoteFamilyIndex, migrated: [String: Int], kept: Set<String> = []) -> [AuditFinding] {
        var byType: [String: [AuditFamily]] = [:]
        for entry in remote.codes.entries where entry.recordType != RecordMapping.familyType && !kept.contains(entry.id.string) {
            if request.sampleLimit.map({ byType[entry.recordType, default: []].count < $0 }) ?? true {
                byType[entry.recordType, default: []].append(remoteFamily(entry))
            }
        }
        for record in remote.otherLegacy where !kept.contains(record.recordName) {
            byType[record.recordType, default: []].append(AuditFamily(id: record.recordName, location: .remote, recordType: record.recordType,
                                                                      snapshotLine: record.line))
        }
        return RecordMapping.legacyTypes.compactMap { type in
            let keptCount = (remote.legacyNames[type] ?? []).count { kept.contains($0.string) }
            let count = (remote.recordCounts[type] ?? 0) - keptCount
            guard count > 0 else { return nil }
            let copied = migrated[type] ?? 0
            let message = copied == 0 ? "\(count) records of the legacy type \(type)"
                : "\(count) records of the legacy type \(type), \(copied) of them already migrated"
            let action = copied == count
                ? "Every one has its copy: delete them with "
                    + "`\(Advice.migrateLegacy(store: request.storePath, remote: remoteFlags, step: .deleteSource).command)`"
                : "Builds since the rename read only Family, UserProfile and Membership: run "
                    + "`\(Advice.migrateLegacy(store: request.storePath, remote: remoteFlags, step: .plan).command)` (a plan), "
                    + "then `\(Advice.migrateLegacy(store: request.storePath, remote: remoteFlags, step: .apply).command)`"
            return AuditFinding(category: .legacyRecord, message: message, action: action, families: byType[type] ?? [], count: count,
                                migrated: copied)
        }
    }

    private func remoteFamily(_ entry: RemoteFamilyIndex.Entry) -> AuditFamily {
        AuditFamily(id: entry.id.string, name: entry.name, location: .remote, code: request.display(entry.code), recordType: entry.recordType,
                    createdAt: entry.createdAtMilliseconds.map(Self.timestamp), snapshotLine: entry.line > 0 ? Int(entry.line) : nil)
    }

    static func timestamp(_ milliseconds: Int64) -> String {
        Timestamp(milliseconds: milliseconds).text
    }

    static func hours(_ interval: TimeInterval) -> String {
        interval >= 3600 ? "\(Int(interval / 3600)) h" : "\(Int(interval / 60)) min"
    }
}
