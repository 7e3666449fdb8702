import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardStore
import TribeBoardSupport

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

    package init(request: MigrationRequest, endpoints: MigrationEndpoints, logger: Logger, onProgress: @escaping ProgressHandler = { _ in }) {
        self.request = request
        self.endpoints = endpoints
        self.logger = logger
        self.onProgress = onProgress
    }

    package func run() throws(MigrationError) -> MigrationReport {
        var report = MigrationReport(request: request, endpoints: endpoints)
        do {
            let store = try openStore()
            let checkpoint = store.map { MigrationCheckpoint(store: $0, runKey: endpoints.runKey(request.mode)) }
            let done = (try? checkpoint?.load()) ?? [:]
            let sources = try MigrationTransfer.readAll(types: request.sourceTypes, from: endpoints.source)
            logger.info("source read", metadata: ["records": "\(sources.count)"])
            var items = try plan(sources, store: store, checkpoint: done)
            logger.info("planned", metadata: ["records": "\(items.count)"])
            if request.apply, let store, let checkpoint {
                try MigrationApply(migrator: self, store: store, checkpoint: checkpoint).run(&items, report: &report)
            }
            report.finish(items, request: request)
            return report
        } catch {
            throw MigrationError.classify(error)
        }
    }

    /// A plan never creates or migrates a store: it reads one if there is one.
    private func openStore() throws(StoreError) -> TribeBoardStore? {
        if request.apply { return try TribeBoardStore.open(at: request.storePath) }
        guard FileManager.default.fileExists(atPath: request.storePath) else { return nil }
        return try TribeBoardStore.openReadOnly(at: request.storePath)
    }

    func plan(_ sources: [CloudKitRecord], store: TribeBoardStore?, checkpoint: [String: MigrationCheckpoint.Entry]) throws -> [MigrationItem] {
        let translation = MigrationTranslation(mode: request.mode, sourceNames: Set(sources.map(\.recordName)))
        let order = Dictionary(uniqueKeysWithValues: MigratedKind.allCases.enumerated().map { ($1, $0) })
        var items: [MigrationItem] = sources.compactMap { record in
            guard let kind = MigratedKind(recordType: record.recordType) else { return nil }
            return MigrationItem(source: record, kind: kind, copy: translation.copy(of: record, kind: kind, code: nil), outcome: .wouldCopy)
        }
        items.sort { (order[$0.kind] ?? 0, $0.sourceName) < (order[$1.kind] ?? 0, $1.sourceName) }
        for index in items.indices {
            guard let entry = checkpoint[items[index].sourceName], entry.status != .pending else { continue }
            items[index].outcome = .checkpointed
            items[index].deleted = entry.status == .deleted
            if let code = entry.newCode, let old = items[index].source.string("code") {
                items[index].copy.fields?["code"] = .string(code)
                items[index].recode = MigrationRecode(oldCode: old, newCode: code, keptBy: entry.keptBy ?? "")
            }
        }
        progress(.planning, 0, items.count)
        var codes = try MigrationCodes(request: request, destination: endpoints.destination, store: store)
        try codes.decide(&items, checkpoint: checkpoint)
        // An applied run learns the same from its creates (EXISTS is looked up and compared).
        if !request.apply { try compareWithDestination(&items) }
        Self.skipOrphans(&items)
        progress(.planning, items.count, items.count)
        return items
    }

    /// Records the destination already holds under the copy's name: the same one is in place, a
    /// different one a conflict.
    private func compareWithDestination(_ items: inout [MigrationItem]) throws(CloudKitError) {
        let pending = items.indices.filter { items[$0].outcome == .wouldCopy }
        for chunk in pending.chunked(MigrationTransfer.groupSize) {
            let found = try MigrationTransfer.lookup(chunk.map { items[$0].destinationName }, at: endpoints.destination)
            for index in chunk {
                guard let record = found[items[index].destinationName] else { continue }
                if MigrationTranslation.same(items[index].copy, record) || items[index].adoptEarlierCode(from: record) {
                    items[index].outcome = .identical
                } else {
                    items[index].outcome = .conflict
                    items[index].reason = "a different record holds \(items[index].destinationName) at the destination (differs in "
                        + MigrationTranslation.differingFields(items[index].copy, record).joined(separator: ", ") + "); it is never overwritten"
                }
            }
        }
    }

    /// A membership whose family or profile is not migrated is not either: its references
    /// would point at nothing.
    static func skipOrphans(_ items: inout [MigrationItem]) {
        var bySource: [String: MigrationOutcome] = [:]
        for item in items { bySource[item.sourceName] = item.outcome }
        for index in items.indices where items[index].kind == .membership && items[index].outcome == .wouldCopy {
            for field in ["family", "user"] {
                guard let target = MigrationStoreImport.reference(items[index].source, field),
                      let outcome = bySource[target], !(outcome.isInPlace || outcome == .wouldCopy) else { continue }
                items[index].outcome = .skipped
                items[index].reason = "its \(field) \(target) was not migrated (\(outcome.rawValue))"
                break
            }
        }
    }

    func progress(_ phase: MigrationProgress.Phase, _ processed: Int, _ total: Int, problems: Int = 0) {
        onProgress(MigrationProgress(phase: phase, processed: processed, total: total, problems: problems, elapsed: ContinuousClock.now - started))
    }
}
