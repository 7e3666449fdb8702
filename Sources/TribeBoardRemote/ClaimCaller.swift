import Synchronization
import TribeBoardCloudKit

/// Who our claims and records are made by: users/caller's `userRecordName` for a configuration,
/// asked once per run (a process) and remembered, so that a claim's or a record's creator can be
/// compared with it.
package enum ClaimCaller {
    private static let known = Mutex<[(CloudKitConfiguration, String)]>([])

    /// The caller `client` acts as; users/caller is asked the first time only.
    package static func name(of client: CloudKitClient) async throws(CloudKitError) -> String {
        let configuration = client.configuration
        if let name = known.withLock({ $0.first { $0.0 == configuration }?.1 }) { return name }
        let name = try await client.caller().userRecordName
        known.withLock { entries in
            if !entries.contains(where: { $0.0 == configuration }) {
                entries.append((configuration, name))
            }
        }
        return name
    }
}
