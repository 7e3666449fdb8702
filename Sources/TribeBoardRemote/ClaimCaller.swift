import Synchronization
import TribeBoardCloudKit

/// Who our claims and records are made by: users/caller's `userRecordName` for a configuration,
/// asked once per run (a process) and remembered, so that a claim's or a record's creator can be
/// compared with it. A run whose report counts its CloudKit requests counts this one too.
package enum ClaimCaller {
    private static let known = Mutex<[(CloudKitConfiguration, String)]>([])

    /// The caller `client` acts as; users/caller is asked the first time only, and then counted in
    /// `requests` (a report's count of CloudKit requests: each one sent, or tried, is one).
    package static func name(of client: CloudKitClient,
                             requests: inout Int) async throws(CloudKitError) -> String {
        let configuration = client.configuration
        if let name = known.withLock({ $0.first { $0.0 == configuration }?.1 }) { return name }
        requests += 1
        let name = try await client.caller().userRecordName
        known.withLock { entries in
            if !entries.contains(where: { $0.0 == configuration }) {
                entries.append((configuration, name))
            }
        }
        return name
    }
}
