import TribeBoardSupport

/// Every command the toolkit advises, in one place: each case is one piece of advice and builds
/// its command line from the situation that prints it (the store, the family, the container read),
/// quoted so that it runs as printed. Upper-case words (`placeholders`) are the
/// operator's to choose; the end-to-end tests (`AdviceAsPrintedTests`) replace only those and run
/// the rest. `remote`: the CloudKit flags of the run that advises (`CloudKitConfiguration.
/// adviceFlags`), so a command that reaches CloudKit runs as printed in a shell without the
/// TRIBEBOARD_CK_* variables. A family is named by its typed id (`"ID"`: the placeholder), but
/// where `doctor family` is advised, which also finds a family by code or name.
package enum Advice: Sendable, Equatable {
    /// One family CloudKit lost: mark it for upload again (the store only).
    case reupload(store: String, familyID: FamilyID)
    /// The whole store against CloudKit.
    case audit(store: String, remote: [String] = [])
    /// Several: the audit's repair marks them all.
    case repairAll(store: String, remote: [String] = [])
    /// What resync's next run would do, now.
    case resync(store: String, remote: [String] = [])
    /// What waits, and what is set aside and why.
    case resyncList(store: String)
    /// A record set aside, given back to the next resync once its cause is fixed.
    case resyncRelease(store: String, recordID: String)
    /// The container and environment read, against the app's entitlements.
    case doctorContainer(store: String, container: String?, environment: String?)
    /// Everything the store and CloudKit know of one family (`ID`: one of a list), named by its
    /// id, code, external id or name.
    case doctorFamily(store: String, family: String, remote: [String] = [])
    /// A family that must go (a creation that did not complete), from CloudKit and the store.
    case remove(store: String, familyID: FamilyID, remote: [String] = [])
    /// A parent registered twice: the duplicate's members move to the kept family (a plan).
    case merge(store: String, duplicate: FamilyID, into: FamilyID, remote: [String] = [])
    /// A newer family holding an older one's code gets a new one (`STORE` when not this store).
    case recode(familyID: FamilyID, store: String?, remote: [String] = [])
    /// CloudKit's version of a family taken into the store (a record under its name that the
    /// store's version cannot be uploaded over): `apply` false shows both versions first.
    case adopt(store: String, familyID: FamilyID, remote: [String] = [], apply: Bool)
    /// A recoded family's card, from the store.
    case reprint(store: String, familyID: FamilyID)
    /// A family the operator knows by name (`NAME`) or code, found in the store and CloudKit.
    case findFamily(store: String, remote: [String] = [])
    /// The audit's repair as a plan: what it would change, nothing written.
    case repairPlan(store: String, remote: [String] = [])
    /// One family's new code as a plan (`recode` then makes it with `--apply`).
    case recodePlan(familyID: FamilyID, store: String, remote: [String] = [])
    /// A fresh snapshot of the container, audited in the same run (`FILE`: where it goes).
    case exportSnapshot(store: String, remote: [String] = [])
    /// The legacy CK* records copied to the app's types: a plan, the copy, or the copy and the
    /// deletion of the source records.
    case migrateLegacy(store: String, remote: [String] = [], step: MigrationStep)
    /// Claims for the codes of families already in CloudKit.
    case migrateClaims(store: String, remote: [String] = [])
    /// The whole checklist: container, store, remote, creations.
    case doctor(store: String, remote: [String] = [])

    /// Which piece of advice, without its situation: `CaseIterable`, so that a test runs every
    /// one (`EveryAdviceRunsTests`) and a new case does not compile until it has an example there.
    package enum Kind: String, CaseIterable, Sendable {
        case reupload, audit, repairAll, resync, resyncList, resyncRelease, doctorContainer, doctorFamily, remove, merge, recode,
             adopt, reprint, findFamily, repairPlan, recodePlan, exportSnapshot, migrateLegacy, migrateClaims, doctor
    }

    package var kind: Kind {
        switch self {
        case .reupload: return .reupload
        case .audit: return .audit
        case .repairAll: return .repairAll
        case .resync: return .resync
        case .resyncList: return .resyncList
        case .resyncRelease: return .resyncRelease
        case .doctorContainer: return .doctorContainer
        case .doctorFamily: return .doctorFamily
        case .remove: return .remove
        case .merge: return .merge
        case .recode: return .recode
        case .adopt: return .adopt
        case .reprint: return .reprint
        case .findFamily: return .findFamily
        case .repairPlan: return .repairPlan
        case .recodePlan: return .recodePlan
        case .exportSnapshot: return .exportSnapshot
        case .migrateLegacy: return .migrateLegacy
        case .migrateClaims: return .migrateClaims
        case .doctor: return .doctor
        }
    }

    /// How far a migration goes.
    package enum MigrationStep: Sendable, Equatable {
        case plan, apply, deleteSource
    }

    package var words: [String] {
        let opt = ShellWords.option
        switch self {
        case .reupload(let store, let id):
            return ["tribeboard", "resync"] + opt("--store", store) + opt("--reupload", id.rawValue)
        case .audit(let store, let remote):
            return ["tribeboard", "audit"] + opt("--store", store) + remote
        case .repairAll(let store, let remote):
            return ["tribeboard", "audit"] + opt("--store", store) + remote + [
                "--repair", "--apply", "--out", "DIR"
            ]
        case .resync(let store, let remote):
            return ["tribeboard", "resync"] + opt("--store", store) + remote
        case .resyncList(let store):
            return ["tribeboard", "resync"] + opt("--store", store) + ["--list"]
        case .resyncRelease(let store, let id):
            return ["tribeboard", "resync"] + opt("--store", store) + opt("--release", id)
        case .doctorContainer(let store, let container, let environment):
            return ["tribeboard", "doctor"] + opt("--store", store)
                + (container.map { opt("--container", $0) } ?? [])
                + (environment.map { opt("--environment", $0) } ?? []) + ["--project", "PATH"]
        case .doctorFamily(let store, let family, let remote):
            return Self.line(
                ["tribeboard", "doctor", "family"], family, opt("--store", store) + remote)
        case .remove(let store, let id, let remote):
            return Self.line(
                ["tribeboard", "remove"], id.rawValue, opt("--store", store) + remote + ["--apply"])
        case .merge(let store, let duplicate, let kept, let remote):
            return Self.line(
                ["tribeboard", "merge"], duplicate.rawValue,
                opt("--into", kept.rawValue) + opt("--store", store) + remote)
        case .recode(let id, let store, let remote):
            return Self.line(
                ["tribeboard", "recode"], id.rawValue,
                opt("--store", store ?? "STORE") + remote + ["--apply", "--out", "DIR"])
        case .adopt(let store, let id, let remote, let apply):
            return Self.line(
                ["tribeboard", "adopt"], id.rawValue,
                opt("--store", store) + remote + (apply ? ["--apply"] : []))
        case .reprint(let store, let id):
            return ["tribeboard", "sheets"] + opt("--store", store)
                + opt("--family-id", id.rawValue) + opt("--out", "\(id).pdf")
        case .findFamily(let store, let remote):
            return ["tribeboard", "doctor", "family", "NAME"] + opt("--store", store) + remote
        case .repairPlan(let store, let remote):
            return ["tribeboard", "audit"] + opt("--store", store) + remote + ["--repair"]
        case .recodePlan(let id, let store, let remote):
            return Self.line(["tribeboard", "recode"], id.rawValue, opt("--store", store) + remote)
        case .exportSnapshot(let store, let remote):
            return ["tribeboard", "audit"] + opt("--store", store) + remote + [
                "--export-remote", "FILE"
            ]
        case .migrateLegacy(let store, let remote, let step):
            let words = ["tribeboard", "migrate", "legacy-types"] + opt("--store", store) + remote
            switch step {
            case .plan: return words
            case .apply: return words + ["--apply", "--out", "DIR"]
            case .deleteSource: return words + ["--apply", "--out", "DIR", "--delete-source"]
            }
        case .migrateClaims(let store, let remote):
            return ["tribeboard", "migrate", "claims"] + opt("--store", store) + remote + [
                "--apply"
            ]
        case .doctor(let store, let remote):
            return ["tribeboard", "doctor"] + opt("--store", store) + remote
        }
    }

    /// A command with one positional value (an id, a code, a name): after the command's name,
    /// unless it starts with `-`, where it would read as an option: then after the options and
    /// `--`.
    private static func line(_ head: [String], _ value: String, _ options: [String]) -> [String] {
        value.hasPrefix("-") ? head + options + ["--", value] : head + [value] + options
    }

    /// The command line, quoted for a POSIX shell (placeholders stay bare).
    package var command: String {
        words.map { Self.placeholders.contains($0) ? $0 : ShellWords.quoted($0) }.joined(
            separator: " ")
    }

    /// The words an operator replaces before running the command.
    package static let placeholders: Set<String> = [
        "DIR", "PATH", "STORE", "ID", "NAME", "FILE", "KEPT_ID"
    ]
}
