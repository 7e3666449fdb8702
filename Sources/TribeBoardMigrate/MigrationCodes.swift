import Foundation
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// A family holding a code somewhere the migrated family would meet it.
struct CodeHolder: Sendable {
    let id: String
    let createdAt: Timestamp?
    let place: String
}

/// The audit's rule for a migrated family whose code another family already holds at the
/// destination (or in the store): the oldest family keeps it. A newer migrated family gets a new
/// code (or, with `--on-code-conflict report`, is only listed); an older one is not migrated until
/// the newer holder is given a new code, since that family is not this run's to change.
struct MigrationCodes {
    let request: MigrationRequest
    let destination: CloudKitClient
    /// Nil in a plan without a store: no local holder, and no new code is chosen.
    let store: (any StoreReading)?
    /// Families at the destination after this run, by code key: filled as families are decided.
    private var placed: [String: CodeHolder] = [:]
    private let generator: FamilyCodeGenerator

    init(request: MigrationRequest, destination: CloudKitClient, store: (any StoreReading)?) throws
    {
        self.request = request
        self.destination = destination
        self.store = store
        generator = try FamilyCodeGenerator()
    }

    /// Decides each family's code, oldest first; `checkpoint` holds the codes earlier runs chose.
    /// Codes are compared by `FamilyCode.key`, as the audit compares them: `abc234` and
    /// `ABC234` are one code to the people typing them.
    mutating func decide(
        _ items: inout [MigrationItem], checkpoint: [String: MigrationCheckpoint.Entry]
    ) async throws {
        // Each family's date read once, not in every comparison of the sort.
        let order = items.indices.filter { items[$0].kind == .family && (items[$0].outcome == .wouldCopy || items[$0].outcome == .checkpointed) }
            .map { (index: $0, created: MigrationStoreImport.createdAt(items[$0]), name: items[$0].sourceName) }
            .sorted { ($0.created, $0.name) < ($1.created, $1.name) }
            .map(\.index)
        let keys = Set(order.compactMap { items[$0].source.string(FamilyField.code).map(FamilyCode.key) })
        let holders = Holders(remote: try await remoteHolders(), local: try localHolders(of: keys))
        var needCodes: [Int] = []
        for index in order {
            guard let code = items[index].source.string(FamilyField.code) else { continue }
            if decide(&items[index], code: code, holders: holders, checkpoint: checkpoint) {
                needCodes.append(index)
            }
        }
        let taken = keys.union(holders.remote.keys).union(holders.local.keys).union(placed.keys)
        let fresh = try freeCodes(needCodes.count, avoiding: taken)
        for (index, newCode) in zip(needCodes, fresh) {
            items[index].recode?.newCode = newCode
            guard !newCode.isEmpty else { continue }
            items[index].copy[field: FamilyField.code] = .string(newCode)
            placed[newCode] = CodeHolder(id: items[index].destinationName,
                                         createdAt: MigrationStoreImport.createdAt(items[index]), place: "migrated")
        }
    }

    /// The families holding codes outside this run: at the destination, and in the store.
    private struct Holders {
        let remote: [String: [CodeHolder]]
        let local: [String: [CodeHolder]]
    }

    /// One family's code: kept, the one an earlier run chose, or to be given a new one (true:
    /// chosen for all such families at once, after the others); or not migrated, with why.
    private mutating func decide(_ item: inout MigrationItem, code: String, holders: Holders,
                                 checkpoint: [String: MigrationCheckpoint.Entry]) -> Bool {
        let key = FamilyCode.key(code)
        let mine: Set<String> = [item.sourceName, item.destinationName]
        let created = MigrationStoreImport.createdAt(item)
        if item.outcome == .checkpointed {
            let copied = FamilyCode.key(item.copy.string(FamilyField.code) ?? code)
            placed[copied] = CodeHolder(id: item.destinationName, createdAt: created, place: "destination")
            return false
        }
        let others =
            ((holders.remote[key] ?? []) + (holders.local[key] ?? [])
            + (placed[key].map { [$0] } ?? []))
            .filter { !mine.contains($0.id) }
        let oldest = others.min { Self.older($0.createdAt, $0.id, than: $1.createdAt, $1.id) }
        var finalCode = code
        if let chosen = checkpoint[item.sourceName]?.newCode {
            finalCode = chosen
            item.recode = MigrationRecode(oldCode: code, newCode: chosen, keptBy: oldest?.id ?? "")
        } else if !FamilyCode.isWireFormat(code) {
            // Nobody can type it as it is: a new code whatever its age, like a conflict.
            return needsNewCode(
                &item, code: code, keptBy: oldest?.id ?? "",
                conflict: "is not in the wire format \(FamilyCode.wireFormatPattern)")
        } else if let oldest {
            if Self.older(oldest.createdAt, oldest.id, than: created, item.destinationName) {
                return needsNewCode(
                    &item, code: code, keptBy: oldest.id,
                    conflict: "is held by the older family \(oldest.id) (\(oldest.place))")
            }
            item.outcome = .codeConflict
            let inStore = (holders.local[key] ?? []).contains { $0.id == oldest.id }
            item.reason =
                "its code \(request.display(code)) is held by \(oldest.id) (\(oldest.place)), "
                + "a newer family: by the audit's rule the older family keeps it; "
                + Self.repairAdvice(for: oldest.id, inStore: inStore, store: request.storePath,
                                    remote: destination.configuration.adviceFlags)
            return false
        }
        if finalCode != code { item.copy[field: FamilyField.code] = .string(finalCode) }
        placed[FamilyCode.key(finalCode)] = CodeHolder(id: item.destinationName, createdAt: created, place: "migrated")
        return false
    }

    /// A family that cannot keep its code: to be given a new one, or with `--on-code-conflict
    /// report`, not migrated.
    private func needsNewCode(
        _ item: inout MigrationItem, code: String, keptBy: String, conflict: String
    ) -> Bool {
        guard request.onCodeConflict == .repair else {
            item.outcome = .codeConflict
            item.reason = "its code \(request.display(code)) \(conflict); --on-code-conflict report: not migrated"
            return false
        }
        item.recode = MigrationRecode(oldCode: code, newCode: "", keptBy: keptBy)
        return true
    }

    /// The way out of a code conflict the older migrated family wins against a newer holder:
    /// the holder gets a new code with `recode` (claimed at the destination; the audit cannot
    /// see a family of another container), `resync` uploads it, and then the destination's read
    /// shows the code free to the same migration command. With this run's CloudKit settings.
    static func repairAdvice(for holder: String, inStore: Bool, store: String, remote: [String])
        -> String
    {
        let which = inStore ? "" : " (STORE: the store that provisioned it; it is not in this one)"
        let resync = Advice.resync(store: inStore ? store : "STORE", remote: remote).command
        let recode = Advice.recode(
            familyID: FamilyID(rawValue: holder), store: inStore ? store : nil, remote: remote
        ).command
        return "give \(holder) a new code: `\(recode)`\(which), "
            + "then `\(resync)` to upload it, then run this migration again "
            + "(or change its code in the app, then run the migration again)"
    }

    /// Oldest by creation date (an unknown date is never the oldest), then by id, as the audit
    /// orders.
    static func older(
        _ left: Timestamp?, _ leftID: String, than right: Timestamp?, _ rightID: String
    ) -> Bool {
        switch (left, right) {
        case (let l?, let r?): return l != r ? l < r : leftID < rightID
        case (.some, .none): return true
        case (.none, .some): return false
        case (.none, .none): return leftID < rightID
        }
    }

    /// `count` new codes, free in the store and among `taken` (every code key at the destination,
    /// in the store and among the migrated, read in full above).
    private func freeCodes(_ count: Int, avoiding taken: Set<String>) throws -> [String] {
        // A plan says a new code will be given; choosing one now would promise a code it cannot
        // hold.
        guard count > 0, request.apply, let store else { return Array(repeating: "", count: count) }
        return try store.freeCodes(count, avoiding: taken, generator: generator).map(\.value)
    }

    /// Every family at the destination, by code key: current ones, and legacy ones for a container
    /// copy. Read in full, as the audit reads them: `code IN [...]` is exact, and the case variants
    /// of a code cannot be listed.
    private func remoteHolders() async throws -> [String: [CodeHolder]] {
        let types =
            request.mode == .container
            ? [RecordMapping.familyType, MigratedKind.family.legacyType]
            : [RecordMapping.familyType]
        // Each family as its code key and holder, not the whole record: the destination may
        // hold a million families.
        let found = try await MigrationTransfer.readAll(types: types, from: destination) {
            record -> (String, CodeHolder)? in
            let family = RemoteFamily(record)
            guard let code = family.code else { return nil }
            let holder = CodeHolder(id: family.recordName, createdAt: family.created.timestamp, place: "destination \(family.recordType)")
            return (FamilyCode.key(code), holder)
        }
        return Dictionary(grouping: found, by: \.0).mapValues { $0.map(\.1) }
    }

    /// The store's families whose code key is one of `keys` (one pass over the table: SQL's
    /// `IN` is exact too).
    private func localHolders(of keys: Set<String>) throws -> [String: [CodeHolder]] {
        guard let store else { return [:] }
        var holders: [String: [CodeHolder]] = [:]
        for holder in try store.codeHolders(where: { keys.contains(FamilyCode.key($0)) }) {
            holders[FamilyCode.key(holder.code), default: []].append(
                CodeHolder(id: holder.id.rawValue, createdAt: holder.createdAt, place: "local store"))
        }
        return holders
    }
}
