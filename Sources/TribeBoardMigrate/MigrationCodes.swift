import Foundation
import GRDB
import TribeBoardCloudKit
import TribeBoardDomain
import TribeBoardStore
import TribeBoardSupport

/// A family holding a code somewhere the migrated family would meet it.
struct CodeHolder: Sendable {
    let id: String
    let createdAt: Date?
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
    let store: TribeBoardStore?
    /// Codes of families at the destination after this run, by code: filled as families are decided.
    private var placed: [String: CodeHolder] = [:]
    private let generator: FamilyCodeGenerator

    init(request: MigrationRequest, destination: CloudKitClient, store: TribeBoardStore?) throws {
        self.request = request
        self.destination = destination
        self.store = store
        generator = try FamilyCodeGenerator()
    }

    /// Decides each family's code, oldest first; `checkpoint` holds the codes earlier runs chose.
    mutating func decide(_ items: inout [MigrationItem], checkpoint: [String: MigrationCheckpoint.Entry]) throws {
        // Each family's date read once, not in every comparison of the sort.
        let order = items.indices.filter { items[$0].kind == .family }
            .map { (index: $0, created: MigrationStoreImport.createdAt(items[$0]), name: items[$0].sourceName) }
            .sorted { ($0.created, $0.name) < ($1.created, $1.name) }
            .map(\.index)
        let codes = order.compactMap { items[$0].source.string("code") }
        let remote = try remoteHolders(of: codes)
        let local = try localHolders(of: codes)
        var needCodes: [Int] = []
        for index in order {
            guard let code = items[index].source.string("code") else { continue }
            let item = items[index]
            let mine: Set<String> = [item.sourceName, item.destinationName]
            let created = MigrationStoreImport.createdAt(item)
            if item.outcome == .checkpointed {
                placed[item.copy.string("code") ?? code] = CodeHolder(id: item.destinationName, createdAt: created, place: "destination")
                continue
            }
            let holders = ((remote[code] ?? []) + (local[code] ?? []) + (placed[code].map { [$0] } ?? [])).filter { !mine.contains($0.id) }
            let oldest = holders.min { Self.older($0.createdAt, $0.id, than: $1.createdAt, $1.id) }
            var finalCode = code
            if let chosen = checkpoint[item.sourceName]?.newCode {
                finalCode = chosen
                items[index].recode = MigrationRecode(oldCode: code, newCode: chosen, keptBy: oldest?.id ?? "")
            } else if let oldest {
                if Self.older(oldest.createdAt, oldest.id, than: created, item.destinationName) {
                    guard request.onCodeConflict == .repair else {
                        items[index].outcome = .codeConflict
                        items[index].reason = "its code \(request.display(code)) is held by the older family \(oldest.id) (\(oldest.place)); --on-code-conflict report: not migrated"
                        continue
                    }
                    // Chosen below for all such families at once: one round of queries, not one each.
                    items[index].recode = MigrationRecode(oldCode: code, newCode: "", keptBy: oldest.id)
                    needCodes.append(index)
                    continue
                } else {
                    items[index].outcome = .codeConflict
                    items[index].reason = "its code \(request.display(code)) is held by \(oldest.id) (\(oldest.place)), a newer family: by the audit's rule the older family keeps it; give \(oldest.id) a new code (audit --repair, or in the app), then run migrate again"
                    continue
                }
            }
            if finalCode != code { items[index].copy.fields?["code"] = .string(finalCode) }
            placed[finalCode] = CodeHolder(id: item.destinationName, createdAt: created, place: "migrated")
        }
        let fresh = try freeCodes(needCodes.count, avoiding: Set(codes).union(remote.keys).union(local.keys).union(placed.keys))
        for (index, newCode) in zip(needCodes, fresh) {
            items[index].recode?.newCode = newCode
            guard !newCode.isEmpty else { continue }
            items[index].copy.fields?["code"] = .string(newCode)
            placed[newCode] = CodeHolder(id: items[index].destinationName, createdAt: MigrationStoreImport.createdAt(items[index]), place: "migrated")
        }
    }

    /// Oldest by creation date (an unknown date is never the oldest), then by id, as the audit orders.
    static func older(_ left: Date?, _ leftID: String, than right: Date?, _ rightID: String) -> Bool {
        switch (left, right) {
        case (let l?, let r?): return l != r ? l < r : leftID < rightID
        case (.some, .none): return true
        case (.none, .some): return false
        case (.none, .none): return leftID < rightID
        }
    }

    /// `count` new codes, free in the store, among `taken`, and at the destination (asked for all
    /// candidates at once; a candidate taken there is replaced and the replacements asked again).
    private func freeCodes(_ count: Int, avoiding taken: Set<String>) throws -> [String] {
        // A plan says a new code will be given; choosing one now would promise a code it cannot hold.
        guard count > 0, request.apply, let store else { return Array(repeating: "", count: count) }
        var chosen = [String](repeating: "", count: count)
        var avoid = taken
        var open = Array(0..<count)
        for _ in 0..<8 where !open.isEmpty {
            let candidates = try store.writer.read { db in
                let lookups = try FamilyLookups(db)
                return try open.map { _ in
                    let code = try generator.generateFree(avoiding: avoid, lookups: lookups, reservations: nil).value
                    avoid.insert(code)
                    return code
                }
            }
            let held = try remoteHolders(of: candidates)
            var still: [Int] = []
            for (slot, code) in zip(open, candidates) {
                if held[code] == nil { chosen[slot] = code } else { still.append(slot) }
            }
            open = still
        }
        guard open.isEmpty else { throw CodeGenerationError.noFreeCode(candidatesTried: 8) }
        return chosen
    }

    /// Families at the destination holding any of `codes`: current ones, and legacy ones unless
    /// they are this run's own sources.
    private func remoteHolders(of codes: [String]) throws -> [String: [CodeHolder]] {
        let types = request.mode == .container ? [RecordMapping.familyType, MigratedKind.family.legacyType] : [RecordMapping.familyType]
        let client = destination
        let chunks = Array(Set(codes)).sorted().chunked(RemoteCodeCheck.codesPerQuery).map(Array.init)
        let records = try MigrationRemote.call { () async throws(CloudKitError) -> [CloudKitRecord] in
            var found: [CloudKitRecord] = []
            for type in types {
                found += try await MigrationTransfer.inParallel(chunks) { chunk throws(CloudKitError) -> [CloudKitRecord] in
                    var records: [CloudKitRecord] = []
                    do {
                        try await client.queryAll(CloudKitQuery(recordType: type, filterBy: [.isIn("code", chunk)])) { page in
                            for case .record(let record) in page where record.deleted != true { records.append(record) }
                        }
                    } catch let error as CloudKitError where type != RecordMapping.familyType && error.isUnknownRecordType {
                        return []
                    } catch let error as CloudKitError {
                        throw error
                    } catch {
                        throw .unexpectedResponse(httpStatus: 0, detail: "\(error)")
                    }
                    return records
                }
            }
            return found
        }
        var holders: [String: [CodeHolder]] = [:]
        for record in records {
            guard let code = record.string("code") else { continue }
            let created = record.fields?["createdAt"]?.value.number.flatMap(MigrationStoreImport.date(milliseconds:))
                ?? record.created?.timestamp.flatMap { MigrationStoreImport.date(milliseconds: Double($0)) }
            holders[code, default: []].append(CodeHolder(id: record.recordName, createdAt: created, place: "destination \(record.recordType ?? "")"))
        }
        return holders
    }

    private func localHolders(of codes: [String]) throws -> [String: [CodeHolder]] {
        guard let store else { return [:] }
        return try store.writer.read { db in
            var holders: [String: [CodeHolder]] = [:]
            for chunk in codes.chunked(500) {
                for row in try Row.fetchAll(db, sql: "SELECT id, code, created_at FROM families WHERE code IN \(SQLPlaceholders.list(chunk.count))",
                                            arguments: StatementArguments(Array(chunk))) {
                    let created = (row["created_at"] as String?).flatMap(RecordMapping.date(fromStoreTimestamp:))
                    holders[row["code"], default: []].append(CodeHolder(id: row["id"], createdAt: created, place: "local store"))
                }
            }
            return holders
        }
    }
}

/// CloudKit calls from the migration, which runs synchronously on the command's thread.
enum MigrationRemote {
    static func call<Value: Sendable>(_ body: @escaping @Sendable () async throws(CloudKitError) -> Value) throws(CloudKitError) -> Value {
        try BlockingBridge.run(body).get()
    }
}
