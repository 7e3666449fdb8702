import Foundation
import TribeBoardCloudKit
import TribeBoardSupport
import TribeBoardRemote

/// The CloudKit requests of a migration: read every record of some types, look names up, create
/// copies, delete sources. Per-record results are matched to their records by name.
enum MigrationTransfer {
    /// Every record of `types`. A legacy type the container's schema lacks (a container set up
    /// from the schema file has none) has no records to move, as has any type `mayBeAbsent`
    /// names; any other missing type is the container's configuration (78, the fix named).
    static func readAll(
        types: [String], from client: CloudKitClient,
        mayBeAbsent: Set<String> = [], onTypeRead: (Int) -> Void = { _ in }
    ) async throws(CloudKitError) -> [CloudKitRecord] {
        try await readAll(
            types: types, from: client, mayBeAbsent: mayBeAbsent, onTypeRead: onTypeRead
        ) { $0 }
    }

    /// What `keep` makes of each record of `types` (nil: nothing), page by page as the pages
    /// arrive: a caller that needs a few fields of each record holds those, not the records.
    static func readAll<Kept>(
        types: [String], from client: CloudKitClient, mayBeAbsent: Set<String> = [],
        onTypeRead: (Int) -> Void = { _ in },
        keep: (CloudKitRecord) -> Kept?
    ) async throws(CloudKitError) -> [Kept] {
        var kept: [Kept] = []
        var done = 0
        let reader = WholeTypeReader(client: client) {
            $0.isMissingLegacyType || $0.missingRecordType.map(mayBeAbsent.contains) == true
        }
        do {
            try await reader.read(types, typeDone: { _ in
                done += 1
                onTypeRead(done)
            }, page: { kept += $0.compactMap(keep) })
        } catch let error as CloudKitError {
            throw error
        } catch {
            throw .unexpectedResponse(httpStatus: 0, detail: error.readableDescription)
        }
        return kept
    }

    /// The records the destination holds under `names` (absent: not there).
    static func lookup(_ names: [String], at client: CloudKitClient) async throws(CloudKitError)
        -> [String: CloudKitRecord]
    {
        guard !names.isEmpty else { return [:] }
        let results = try await inParallel(
            names.chunked(CloudKitClient.maxOperationsPerRequest).map(Array.init)
        ) { chunk throws(CloudKitError) in
            try await client.lookup(recordNames: chunk)
        }
        var found: [String: CloudKitRecord] = [:]
        for result in results {
            switch result {
            case .record(let record) where record.deleted != true:
                found[record.recordName] = record
            case .record:
                continue
            case .failure(let error) where error.code == .notFound:
                continue
            case .failure(let error):
                throw .service(code: error.code, httpStatus: 200,
                               reason: "records/lookup of \(error.recordName ?? "a record"): \(error.reason ?? "no reason")",
                               retryAfter: error.retryAfter)
            }
        }
        return found
    }

    /// One result per operation, by record name (by position for an entry that names none).
    static func modify(_ operations: [CloudKitOperation], at client: CloudKitClient)
        async throws(CloudKitError) -> [String: CloudKitRecordResult]
    {
        guard !operations.isEmpty else { return [:] }
        let chunks = operations.chunked(CloudKitClient.maxOperationsPerRequest).map(Array.init)
        let results = try await inParallel(chunks) { chunk throws(CloudKitError) in
            try await client.modify(chunk)
        }
        var byName: [String: CloudKitRecordResult] = [:]
        for (position, result) in results.enumerated() {
            switch result {
            case .record(let record): byName[record.recordName] = result
            case .failure(let error):
                if let name = error.recordName
                    ?? (position < operations.count ? operations[position].record.recordName : nil)
                {
                    byName[name] = result
                }
            }
        }
        return byName
    }

    /// Creates the items' copies; an EXISTS (or CONFLICT) is looked up and compared: the same
    /// record is in place, a different one is a conflict and stays as it is.
    static func create(_ items: inout [MigrationItem], at client: CloudKitClient)
        async throws(CloudKitError)
    {
        let results = try await modify(
            items.map { CloudKitOperation(.create, $0.copy) }, at: client)
        var existing: [Int] = []
        for index in items.indices {
            switch results[items[index].destinationName] {
            case .record?:
                items[index].outcome = .copied
            case .failure(let error)? where error.code == .exists || error.code == .conflict:
                existing.append(index)
            case .failure(let error)?:
                items[index].outcome = .failed
                items[index].retryable = error.code.category == .transient
                items[index].reason =
                    "CloudKit refused the copy: \(error.serverErrorCode) \(error.reason ?? "")"
            case nil:
                items[index].outcome = .failed
                items[index].retryable = true
                items[index].reason = "CloudKit's answer had no result for this record"
            }
        }
        let found = try await lookup(existing.map { items[$0].destinationName }, at: client)
        // A migration's report counts records, not requests.
        var requests = 0
        let caller = existing.isEmpty ? "" : try await ClaimCaller.name(of: client, requests: &requests)
        for index in existing {
            if let record = found[items[index].destinationName],
               items[index].settle(against: record, caller: caller) {
                continue
            }
            items[index].outcome = .conflict
            items[index].reason =
                "another record holds \(items[index].destinationName) at the destination"
                + (found[items[index].destinationName].map {
                    " (differs in \(MigrationTranslation.differingFields(items[index].copy, $0).joined(separator: ", ")))"
                } ?? "")
                + "; it was not overwritten"
        }
    }

    /// Deletes the items' sources, each only as it was read: a delete carries the change tag of
    /// the read, so a record edited since (in the app, during the run) is refused by CloudKit
    /// (CONFLICT) and kept, with its edit, instead of deleted with a copy of the old values. A
    /// source read without a change tag cannot be checked: it is kept too.
    static func deleteSources(_ items: inout [MigrationItem], at client: CloudKitClient)
        async throws(CloudKitError)
    {
        let checkable = items.filter { $0.source.recordChangeTag != nil }
        let results = try await modify(
            checkable.map {
                CloudKitOperation(
                    .delete,
                    CloudKitRecord(
                        recordName: $0.sourceName, recordType: $0.source.recordType ?? "",
                        fields: [:],
                        recordChangeTag: $0.source.recordChangeTag))
            }, at: client)
        for index in items.indices {
            switch results[items[index].sourceName] {
            case .record?: items[index].deleted = true
            case .failure(let error)? where error.code == .notFound: items[index].deleted = true
            case .failure(let error)? where error.code == .conflict:
                items[index].reason =
                    "the legacy record was not deleted: it changed after this run read it "
                    + "(its edit is kept); run the migration again"
            case .failure(let error)?: items[index].reason = "the legacy record was not deleted: \(error.serverErrorCode) \(error.reason ?? "")"
            case nil where items[index].source.recordChangeTag == nil:
                items[index].reason = "the legacy record was not deleted: it was read without a change tag, so a change since cannot be ruled out"
            case nil: items[index].reason = "the legacy record was not deleted: no result for it"
            }
        }
    }

    /// Requests of 200 side by side (the client keeps at most 4 in flight), results in the order
    /// of the chunks; the first error ends the lot.
    static let groupSize = 4 * CloudKitClient.maxOperationsPerRequest

    static func inParallel<Chunk: Sendable, Element: Sendable>(
        _ chunks: [Chunk],
        _ body: @escaping @Sendable (Chunk) async throws(CloudKitError) -> [Element]
    )
        async throws(CloudKitError) -> [Element]
    {
        let outcome = await withTaskGroup(of: ChunkResult<Element>.self) { group in
            for (position, chunk) in chunks.enumerated() {
                group.addTask {
                    do throws(CloudKitError) {
                        return ChunkResult(
                            position: position, result: .success(try await body(chunk)))
                    } catch {
                        return ChunkResult(position: position, result: .failure(error))
                    }
                }
            }
            var finished: [ChunkResult<Element>] = []
            for await done in group { finished.append(done) }
            finished.sort { $0.position < $1.position }
            var elements: [Element] = []
            for done in finished {
                switch done.result {
                case .success(let records): elements += records
                case .failure(let error): return Result<[Element], CloudKitError>.failure(error)
                }
            }
            return .success(elements)
        }
        return try outcome.get()
    }
}

/// One chunk's answer, with its place among the chunks.
struct ChunkResult<Element: Sendable>: Sendable {
    let position: Int
    let result: Result<[Element], CloudKitError>
}
