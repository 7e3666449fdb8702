import Foundation
import Logging
import TribeBoardCloudKit
import TribeBoardRemote

/// Reads the remote side of an audit, from a snapshot file or live, one record at a time.
struct RemoteReading {
    /// The record types an audit reads: current families, and every legacy type.
    static let recordTypes = [RecordMapping.familyType] + RecordMapping.legacyTypes

    let source: RemoteSource
    let logger: Logger

    /// Runs where it is awaited from (the audit's own thread): the snapshot is read there, and a
    /// live read hands each page to `record` there as it arrives, one page in memory at a time.
    func read(_ record: (RemoteRecordSummary) throws -> Void, malformed: (MalformedSnapshotLine) throws -> Void) async throws {
        switch source {
        case .snapshot(let path):
            try SnapshotReader(path: path).read(record, malformed: malformed)
        case .live(let client, let exportPath):
            let writer = try exportPath.map { try SnapshotWriter(path: $0) }
            do {
                try await readLive(client, writer: writer, record)
                try writer?.commit()
            } catch {
                writer?.abandon()
                throw error
            }
        }
    }

    /// Pages through records/query for each type; the next page is asked for once this one is read.
    /// Every type's first page is asked for at once (the client sends 4 at a time): the legacy
    /// types, usually empty, then cost no round trip of their own after Family's pages. At most one
    /// page per type waits in memory.
    private func readLive(_ client: CloudKitClient, writer: SnapshotWriter?, _ record: (RemoteRecordSummary) throws -> Void) async throws {
        let firsts = Self.recordTypes.map { type in
            Task { () async -> Result<CloudKitQueryPage, CloudKitError> in
                do throws(CloudKitError) {
                    return .success(try await client.query(CloudKitQuery(recordType: type)))
                } catch {
                    return .failure(error)
                }
            }
        }
        defer { for first in firsts { first.cancel() } }
        for (type, first) in zip(Self.recordTypes, firsts) {
            var page: CloudKitQueryPage
            switch await first.value {
            case .success(let answered): page = answered
            case .failure(let error) where error.isMissingLegacyType:
                // A container or schema that never had this legacy type: none of it to audit.
                logger.debug("no such record type in the schema", metadata: ["type": "\(type)"])
                continue
            case .failure(let error): throw error
            }
            var pages = ContinuationGuard(recordType: type)
            while true {
                for result in page.records {
                    guard case .record(let found) = result, found.deleted != true else { continue }
                    try writer?.append(found)
                    try record(RemoteRecordSummary(found))
                }
                guard let marker = try pages.next(after: page.continuationMarker) else { break }
                page = try await client.query(CloudKitQuery(recordType: type), continuationMarker: marker)
            }
        }
    }
}
