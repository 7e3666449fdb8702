import Foundation
import Logging
import TribeBoardCloudKit

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
    private func readLive(_ client: CloudKitClient, writer: SnapshotWriter?, _ record: (RemoteRecordSummary) throws -> Void) async throws {
        for type in Self.recordTypes {
            do {
                try await client.queryAll(CloudKitQuery(recordType: type)) { page in
                    for result in page {
                        guard case .record(let found) = result, found.deleted != true else { continue }
                        try writer?.append(found)
                        try record(RemoteRecordSummary(found))
                    }
                }
            } catch let error as CloudKitError where error.isMissingLegacyType {
                // A container or schema that never had this legacy type: none of it to audit.
                logger.debug("no such record type in the schema", metadata: ["type": "\(type)"])
            }
        }
    }
}
