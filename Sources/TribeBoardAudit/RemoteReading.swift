import Foundation
import Logging
import TribeBoardCloudKit

/// Reads the remote side of an audit, from a snapshot file or live, one record at a time.
struct RemoteReading {
    /// The record types an audit reads: current families, and every legacy type.
    static let recordTypes = [RecordMapping.familyType] + RecordMapping.legacyTypes

    let source: RemoteSource
    let logger: Logger

    func read(_ record: (RemoteRecordSummary) throws -> Void, malformed: (MalformedSnapshotLine) throws -> Void) throws {
        switch source {
        case .snapshot(let path):
            try SnapshotReader(path: path).read(record, malformed: malformed)
        case .live(let client, let exportPath):
            let writer = try exportPath.map { try SnapshotWriter(path: $0) }
            do {
                try readLive(client, writer: writer, record)
                try writer?.commit()
            } catch {
                writer?.abandon()
                throw error
            }
        }
    }

    /// Pages through records/query for each type. The whole read runs on its own thread (the
    /// audit is synchronous), pages handed over as they arrive.
    private func readLive(_ client: CloudKitClient, writer: SnapshotWriter?, _ record: (RemoteRecordSummary) throws -> Void) throws {
        for type in Self.recordTypes {
            let pages = PageChannel()
            let logger = logger
            let reader = Thread {
                let outcome = BlockingBridge.run { () async throws(CloudKitError) in
                    do {
                        try await client.queryAll(CloudKitQuery(recordType: type)) { page in
                            guard pages.put(page) else { throw CancellationError() }
                        }
                    } catch let error as CloudKitError where error.isMissingLegacyType {
                        // A container that never had this legacy type: no records of it.
                    } catch let error as CloudKitError {
                        throw error
                    } catch {
                        // The consumer stopped: nothing more to fetch.
                    }
                }
                if case .failure(let error) = outcome { pages.finish(error) } else { pages.finish(nil) }
                logger.debug("remote read done", metadata: ["type": "\(type)"])
            }
            reader.start()
            do {
                while let page = try pages.take() {
                    for result in page {
                        guard case .record(let found) = result, found.deleted != true else { continue }
                        try writer?.append(found)
                        try record(RemoteRecordSummary(found))
                    }
                }
            } catch let error as CloudKitError where type != RecordMapping.familyType && error.isUnknownRecordType {
                // A schema that never had the legacy type: nothing of it to audit.
                logger.debug("no such record type in the schema", metadata: ["type": "\(type)"])
            } catch {
                pages.cancel()
                throw error
            }
        }
    }
}

/// Hands pages from the thread that fetches them to the audit, a few at a time, so a fast
/// network cannot fill memory ahead of the audit.
///
/// Unchecked Sendable: every stored `var` is read and written with `condition` locked. The two
/// sides block by design (a fetch thread and the audit's scan thread, never the cooperative
/// pool), and a wait on a condition is what Mutex does not offer.
final class PageChannel: @unchecked Sendable {
    private let condition = NSCondition()
    private var pages: [[CloudKitRecordResult]] = []
    private var finished = false
    private var cancelled = false
    private var failure: CloudKitError?
    private let capacity = 8

    /// False when the consumer gave up.
    func put(_ page: [CloudKitRecordResult]) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while pages.count >= capacity && !cancelled { condition.wait() }
        guard !cancelled else { return false }
        pages.append(page)
        condition.broadcast()
        return true
    }

    func finish(_ error: CloudKitError?) {
        condition.lock()
        finished = true
        failure = error
        condition.broadcast()
        condition.unlock()
    }

    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// The next page, nil at the end; throws what ended the read.
    func take() throws -> [CloudKitRecordResult]? {
        condition.lock()
        defer { condition.unlock() }
        while pages.isEmpty && !finished { condition.wait() }
        if !pages.isEmpty {
            condition.broadcast()
            return pages.removeFirst()
        }
        if let failure { throw failure }
        return nil
    }
}
