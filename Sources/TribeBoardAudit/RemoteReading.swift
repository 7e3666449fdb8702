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

    /// Every type at once through the whole-type reader (Family split into queries side by side,
    /// the legacy types, usually empty or absent, beside it); each page is handed to `record` here
    /// as it arrives, at most the client's concurrency of pages in memory.
    private func readLive(_ client: CloudKitClient, writer: SnapshotWriter?, _ record: (RemoteRecordSummary) throws -> Void) async throws {
        try await WholeTypeReader(client: client).read(Self.recordTypes) { page in
            for found in page {
                try writer?.append(found)
                try record(RemoteRecordSummary(found))
            }
        }
    }
}
