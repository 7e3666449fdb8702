import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardSupport
import TribeBoardRemote

/// `migrate`: reads the source, plans each record (copy, already there, conflict, code conflict,
/// skipped), and with `--apply` copies, teaches the store, verifies and (on request) deletes the
/// legacy sources. Resumable: the store's checkpoint says what an earlier run already copied.
package struct Migrator: Sendable {
    package typealias ProgressHandler = @Sendable (MigrationProgress) -> Void

    let request: MigrationRequest
    let endpoints: MigrationEndpoints
    let logger: Logger
    let onProgress: ProgressHandler
    let started = ContinuousClock.now

    package init(
        request: MigrationRequest, endpoints: MigrationEndpoints, logger: Logger,
        onProgress: @escaping ProgressHandler = { _ in }
    ) {
        self.request = request
        self.endpoints = endpoints
        self.logger = logger
        self.onProgress = onProgress
    }

    /// Blocks (SQLite, QR files) between its CloudKit requests: run it on a `PipelineThread`.
    package func run() async throws(MigrationError) -> MigrationReport {
        var report = MigrationReport(request: request, endpoints: endpoints)
        do {
            let (store, writable) = try openStore()
            let runKey = endpoints.runKey(request.mode)
            // A checkpoint that cannot be read stops the run (74): starting afresh would copy
            // again.
            let done =
                try store.map { store throws(StoreError) in
                    try MigrationCheckpoint.load(from: store, runKey: runKey)
                } ?? [:]
            let types = request.sourceTypes
            progress(.reading, 0, types.count)
            let sources = try await MigrationTransfer.readAll(
                types: types, from: endpoints.source,
                mayBeAbsent: request.sourceTypesThatMayBeAbsent,
                onTypeRead: { progress(.reading, $0, types.count) })
            logger.info("source read", metadata: ["records": "\(sources.count)"])
            var items = try await plan(sources, store: store, checkpoint: done)
            logger.info("planned", metadata: ["records": "\(items.count)"])
            if let writable {
                let checkpoint = MigrationCheckpoint(store: writable, runKey: runKey)
                try await MigrationApply(migrator: self, store: writable, checkpoint: checkpoint)
                    .run(&items, report: &report)
            }
            report.finish(items, request: request)
            return report
        } catch {
            throw MigrationError.classify(error)
        }
    }

    /// A plan never creates or migrates a store: it reads one if there is one. An empty file
    /// (0 bytes, as `touch` leaves it) holds no store yet: planned as without one, as --apply
    /// would make the store in it, rather than read as tables that are not there. `writable` only
    /// with --apply.
    private func openStore() throws(StoreError) -> (
        reading: (any StoreReading)?, writable: TribeBoardStore?
    ) {
        // Only provision creates a store: a mistyped --store must not become a new one that
        // learns the migrated families while the real store never does.
        if request.apply {
            let store = try TribeBoardStore.open(at: request.storePath)
            return (store, store)
        }
        guard FileManager.default.fileExists(atPath: request.storePath) else { return (nil, nil) }
        let size =
            ((try? FileManager.default.attributesOfItem(atPath: request.storePath))?[.size]
            as? NSNumber)?.intValue
        if size == 0 {
            logger.notice(
                "the store file is empty: nothing to read yet, planned as without a store",
                metadata: ["store": "\(request.storePath)"])
            return (nil, nil)
        }
        return (try TribeBoardStore.openReadOnly(at: request.storePath), nil)
    }

    func plan(_ sources: [CloudKitRecord], store: (any StoreReading)?,
              checkpoint: [String: MigrationCheckpoint.Entry]) async throws -> [MigrationItem] {
        // Sources an earlier run copied (and perhaps deleted, or was killed deleting) are still
        // renamed in references: a kept membership pointing at a deleted family is in place.
        let translation = try MigrationTranslation(
            mode: request.mode, sourceNames: Set(sources.map(\.recordName)).union(checkpoint.keys))
        let order = Dictionary(
            uniqueKeysWithValues: MigratedKind.allCases.enumerated().map { ($1, $0) })
        var items: [MigrationItem] = sources.compactMap { record in
            guard let kind = MigratedKind(recordType: record.recordType) else { return nil }
            return MigrationItem(
                source: record, kind: kind,
                copy: translation.copy(of: record, kind: kind, code: nil), outcome: .wouldCopy)
        }
        items.sort { (order[$0.kind] ?? 0, $0.sourceName) < (order[$1.kind] ?? 0, $1.sourceName) }
        for index in items.indices {
            guard let entry = checkpoint[items[index].sourceName], entry.status != .pending else {
                continue
            }
            items[index].outcome = .checkpointed
            items[index].deleted = entry.status == .deleted
            if let code = entry.newCode, let old = items[index].source.string(FamilyField.code) {
                items[index].copy[field: FamilyField.code] = .string(code)
                items[index].recode = MigrationRecode(
                    oldCode: old, newCode: code, keptBy: entry.keptBy ?? "")
            }
        }
        for index in items.indices where items[index].outcome == .wouldCopy {
            let problems = MigrationValidation.problems(
                items[index].source, kind: items[index].kind)
            guard !problems.isEmpty else { continue }
            items[index].outcome = .invalid
            items[index].reason =
                problems.joined(separator: "; ")
                + " (the app's rules for \(items[index].kind.currentType)): not copied"
        }
        progress(.planning, 0, items.count)
        var codes = try MigrationCodes(
            request: request, destination: endpoints.destination, store: store)
        try await codes.decide(&items, checkpoint: checkpoint)
        // An applied run learns the same from its creates (EXISTS is looked up and compared).
        if !request.apply { try await compareWithDestination(&items) }
        try await skipUnresolvedReferences(&items)
        Self.skipOrphans(&items)
        progress(.planning, items.count, items.count)
        return items
    }

    /// Records the destination already holds under the copy's name: the same one is in place, a
    /// different one a conflict.
    private func compareWithDestination(_ items: inout [MigrationItem]) async throws(CloudKitError)
    {
        let pending = items.indices.filter { items[$0].outcome == .wouldCopy }
        guard !pending.isEmpty else { return }
        // A migration's report counts records, not requests.
        var requests = 0
        let caller = try await ClaimCaller.name(of: endpoints.destination, requests: &requests)
        for chunk in pending.chunked(MigrationTransfer.groupSize) {
            let found = try await MigrationTransfer.lookup(
                chunk.map { items[$0].destinationName }, at: endpoints.destination)
            for index in chunk {
                guard let record = found[items[index].destinationName],
                    !items[index].settle(against: record, caller: caller)
                else { continue }
                items[index].outcome = .conflict
                items[index].reason =
                    "a different record holds \(items[index].destinationName) at the destination (differs in "
                    + MigrationTranslation.differingFields(items[index].copy, record).joined(separator: ", ")
                    + "); it is never overwritten"
            }
        }
    }

    /// A membership referencing a record that is neither among the migrated ones nor at the
    /// destination (as a family, or a profile) is not sent: CloudKit would refuse it
    /// (VALIDATING_REFERENCE_ERROR), or it would point at the wrong kind of record.
    private func skipUnresolvedReferences(_ items: inout [MigrationItem])
        async throws(CloudKitError)
    {
        var sourceTypes: [String: String] = [:]
        for item in items { sourceTypes[item.sourceName] = item.source.recordType ?? "" }
        let fields: [(name: MembershipField, kind: MigratedKind)] = [
            (.family, .family), (.user, .userProfile)
        ]
        let memberships = items.indices.filter {
            items[$0].kind == .membership && items[$0].outcome == .wouldCopy
        }
        var outside = Set<String>()
        for index in memberships {
            for field in fields {
                if let target = items[index].source.reference(field.name),
                    sourceTypes[target] == nil
                {
                    outside.insert(target)
                }
            }
        }
        let found =
            outside.isEmpty
            ? [:] : try await MigrationTransfer.lookup(outside.sorted(), at: endpoints.destination)
        for index in memberships {
            for field in fields {
                guard let target = items[index].source.reference(field.name) else { continue }
                let type = sourceTypes[target] ?? found[target]?.recordType
                guard MigratedKind(recordType: type) != field.kind else { continue }
                items[index].outcome = .skipped
                let name = field.name.rawValue
                if let type {
                    let what = type.isEmpty ? "record without a type" : type
                    items[index].reason =
                        "its \(name) \(target) is a \(what), not a \(field.kind.currentType)"
                } else {
                    items[index].reason = "its \(name) \(target) exists nowhere (not among the migrated records, not at the destination)"
                }
                break
            }
        }
    }

    /// A membership whose family or profile is not migrated is not either: its references
    /// would point at nothing.
    static func skipOrphans(_ items: inout [MigrationItem]) {
        var bySource: [String: MigrationOutcome] = [:]
        for item in items { bySource[item.sourceName] = item.outcome }
        for index in items.indices
        where items[index].kind == .membership && items[index].outcome == .wouldCopy {
            for field in [MembershipField.family, .user] {
                guard let target = items[index].source.reference(field),
                    let outcome = bySource[target], !(outcome.isInPlace || outcome == .wouldCopy)
                else { continue }
                items[index].outcome = .skipped
                items[index].reason =
                    "its \(field.rawValue) \(target) was not migrated (\(outcome.rawValue))"
                break
            }
        }
    }

    func progress(
        _ phase: MigrationProgress.Phase, _ processed: Int, _ total: Int, problems: Int = 0
    ) {
        onProgress(
            MigrationProgress(
                phase: phase, processed: processed, total: total, problems: problems,
                elapsed: ContinuousClock.now - started,
                phases: MigrationProgress.phases(of: request)))
    }
}
