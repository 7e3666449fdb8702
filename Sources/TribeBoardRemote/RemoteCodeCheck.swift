import Foundation
import TribeBoardCloudKit
import Logging
import Synchronization
import TribeBoardSupport

/// Asks CloudKit which of a batch of candidate codes a family there already holds (seed
/// requirement 2.1), including records of the legacy `CKFamily` type.
///
/// A circuit breaker: after the first failure the rest of the run checks locally only (2.3), so a
/// remote that is down costs one bounded wait, not one per batch.
package final class RemoteCodeCheck: Sendable {
    /// One query per record type for a page of 200: 8-character codes keep it a few KB.
    package static let codesPerQuery = 200

    private let client: CloudKitClient
    private let logger: Logger
    private let tripped = Mutex<CloudKitError?>(nil)
    /// Set once CloudKit said the container has no CKFamily: later batches do not ask again.
    private let noLegacyFamilies = Atomic<Bool>(false)

    package init(client: CloudKitClient, logger: Logger) {
        self.client = client
        self.logger = logger
    }

    /// The remote as flags, for advice that reaches the same CloudKit (`adviceFlags`).
    package var adviceFlags: [String] { client.configuration.adviceFlags }

    /// Claims codes through the same client (`CodeClaim`).
    package var claimer: CodeClaimer { CodeClaimer(client: client) }

    /// Stops remote work for the rest of the run after `error` (the claims' failure trips it too).
    package func trip(_ error: CloudKitError) {
        tripped.withLock { $0 = $0 ?? error }
    }

    /// The error that stopped remote checking, if one did.
    package var failure: CloudKitError? { tripped.withLock { $0 } }
    package var isAvailable: Bool { failure == nil }

    /// Codes (of `codes`) that a remote family holds, with that record's name; nil when the remote
    /// could not be asked (then nothing is verified).
    package func holders(of codes: [String]) async -> [String: String]? {
        guard isAvailable, !codes.isEmpty else { return isAvailable ? [:] : nil }
        do throws(CloudKitError) {
            return try await askHolders(of: codes)
        } catch {
            tripped.withLock { $0 = $0 ?? error }
            logger.warning(
                "CloudKit cannot check codes; going on with local checks only, and the new families are marked as not remotely verified",
                metadata: [
                    "error": "\(error.localizedDescription)", "kind": "\(error.category.rawValue)"
                ])
            return nil
        }
    }

    /// One `code IN [...]` query per record type per 200 codes, every page of each read.
    private func askHolders(of codes: [String]) async throws(CloudKitError) -> [String: String] {
        var holders: [String: String] = [:]
        types: for recordType in [RecordType.family.name, RecordType.legacyFamily.name] {
            if recordType == RecordType.legacyFamily.name
                && noLegacyFamilies.load(ordering: .relaxed)
            {
                continue
            }
            for chunk in codes.chunked(Self.codesPerQuery) {
                var marker: String?
                var pages = ContinuationGuard(recordType: recordType)
                repeat {
                    let page: CloudKitQueryPage
                    do throws(CloudKitError) {
                        let query = CloudKitQuery(
                            recordType: recordType,
                            filterBy: [.isIn(FamilyField.code.rawValue, Array(chunk))])
                        page = try await client.query(query, continuationMarker: marker)
                    } catch where error.isMissingLegacyType {
                        // A container that never had CKFamily holds no legacy family: the type is
                        // not asked again, for the next 200 codes nor the next batch.
                        noLegacyFamilies.store(true, ordering: .relaxed)
                        continue types
                    }
                    for case .record(let record) in page.records {
                        if let code = record.string(FamilyField.code) {
                            holders[code] = record.recordName
                        }
                    }
                    marker = try pages.next(after: page.continuationMarker)
                } while marker != nil
            }
        }
        return holders
    }
}
